package booking

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"boxoffice/internal/i18n"
)

// Service runs the hold lifecycle of SPEC §2 on a Store: it validates
// requests, makes ids, reads the clock once per operation and applies the
// visibility rules (only a hold's owner sees it). It holds no state of its
// own, so any number of processes can run it against one database.
type Service struct {
	store Store
	clock Clock
	// holds lets one hold step of a show at a time into a store that asks
	// for it (HoldGater); nil lets them all in.
	holds *showGate
	// queues lets one request at a time number an on-sale's queue in
	// this process (QueuePosition); the others wait and read again.
	queues     *showGate
	rules      Rules
	maxSeats   int
	newID      func() string
	ticket     func() string
	payments   Payments
	autoRefund bool
	mailLease  time.Duration
	// lang is the language a booking gets when its Pay or sale names
	// none (Policy.DefaultLang).
	lang string
}

// Policy is the part of the configuration the domain needs.
type Policy struct {
	HoldTTL  time.Duration // how long a lock protects a seat
	MaxSeats int           // most seats in one hold
	// SalesClose is SALES_CLOSE: when sales of a show close, relative to
	// its start.
	SalesClose time.Duration
	// BoxOfficeClose is BOXOFFICE_CLOSE: when the box office stops
	// selling a show, relative to its start; never before SalesClose.
	BoxOfficeClose time.Duration
	// RefundAutomatically refunds a booking through the provider as soon
	// as it becomes refund_due (REFUND_AUTOMATICALLY), instead of waiting
	// for an admin.
	RefundAutomatically bool
	// SeatsPerAddress caps the seats of a show held live at once from one
	// client address (HOLD_SEATS_PER_ADDRESS); 0 is no cap.
	SeatsPerAddress int
	// AllowGaps lets a hold leave a seat alone (SEAT_GAPS=allow).
	AllowGaps bool
	// MailLease is how long a process keeps a mail it claimed to send
	// (MAIL_LEASE); 0 means DefaultMailLease.
	MailLease time.Duration
	// DefaultLang is DEFAULT_LANG: the language of a booking whose Pay
	// or counter sale names none or one not supported (SPEC §19); ""
	// is English.
	DefaultLang string
}

// DefaultPolicy is SPEC §4's defaults.
var DefaultPolicy = Policy{HoldTTL: 15 * time.Minute, MaxSeats: 10, BoxOfficeClose: 30 * time.Minute}

// NewService returns a Service on store with the system clock unless clock is
// given.
func NewService(store Store, clock Clock, p Policy) *Service {
	if clock == nil {
		clock = SystemClock{}
	}
	if p.HoldTTL <= 0 {
		p.HoldTTL = DefaultPolicy.HoldTTL
	}
	if p.MaxSeats <= 0 {
		p.MaxSeats = DefaultPolicy.MaxSeats
	}
	if p.MailLease <= 0 {
		p.MailLease = DefaultMailLease
	}
	rules := Rules{TTL: p.HoldTTL, SalesClose: p.SalesClose, SeatsPerAddress: p.SeatsPerAddress, AllowGaps: p.AllowGaps,
		BoxOfficeClose: max(p.BoxOfficeClose, p.SalesClose)}
	s := &Service{store: store, clock: clock, rules: rules, maxSeats: p.MaxSeats,
		newID: NewID, ticket: NewTicketCode, autoRefund: p.RefundAutomatically, mailLease: p.MailLease, queues: newShowGate(),
		lang: string(i18n.English)}
	if l, ok := i18n.Parse(p.DefaultLang); ok {
		s.lang = string(l)
	}
	if g, ok := store.(HoldGater); ok && g.GateHoldsPerShow() {
		s.holds = newShowGate()
	}
	return s
}

// UsePayments sets the provider the service refunds through, closes
// checkouts at and asks about stuck payments, and whose name Pay records
// with each payment. Call it once, before the
// service is used; without it those steps say there is no provider.
func (s *Service) UsePayments(p Payments) { s.payments = p }

// errNoProvider is what the steps that need the provider answer without one.
var errNoProvider = errors.New("booking: no payment provider")

// Now is the current moment under the service's rules, as every operation
// sees it.
func (s *Service) Now() Moment { return s.rules.At(s.clock.Now()) }

// Rules are the booking rules the service's policy sets, which it gives
// the atomic steps.
func (s *Service) Rules() Rules { return s.rules }

// Clock is the service's clock, for the services that share its time.
func (s *Service) Clock() Clock { return s.clock }

// MailLease is how long a claimed mail is left to the process that claimed
// it: SendMail gives up sending before then.
func (s *Service) MailLease() time.Duration { return s.mailLease }

// HoldTTL is how long a lock protects a seat.
func (s *Service) HoldTTL() time.Duration { return s.rules.TTL }

// MaxSeats is the most seats one hold may have.
func (s *Service) MaxSeats() int { return s.maxSeats }

// SeatMap is a show's seats as one viewer sees them at one moment.
type SeatMap struct {
	Show   Show
	Seats  []Seat
	MyHold *Hold // the viewer's active, unexpired hold for the show
	At     Moment
	// Counter says the viewer is the box office (SPEC §16), which may
	// hold and sell house seats: to it they look as any other seat.
	Counter bool
}

// State is how seat looks to the map's viewer.
func (sm SeatMap) State(seat Seat) SeatState {
	mine := ""
	if sm.MyHold != nil {
		mine = sm.MyHold.ID
	}
	if sm.Counter && seat.Reserve.HoldableBy(true) {
		seat.Reserve = ReserveNone
	}
	return seat.StateFor(mine, sm.At)
}

// SeatMap returns show showID's seats for viewer (a visitor id, may be
// empty), read in one go (Store.ShowSeats): the show, its seats and the
// viewer's hold agree, however many holds commit meanwhile.
func (s *Service) SeatMap(ctx context.Context, showID, viewer string) (SeatMap, error) {
	ss, err := s.store.ShowSeats(ctx, showID, viewer)
	if err != nil {
		return SeatMap{}, err
	}
	sm := SeatMap{Show: ss.Show, Seats: ss.Seats, At: s.Now()}
	if ss.Hold != nil && !ss.Hold.ExpiredAt(sm.At) {
		sm.MyHold = ss.Hold
	}
	return sm, nil
}

// HoldSeats holds seatIDs of show showID for owner, replacing owner's previous
// hold for the show when it succeeds, and returns the new hold's id.
func (s *Service) HoldSeats(ctx context.Context, showID, owner string, seatIDs []string) (string, error) {
	return s.HoldSeatsFrom(ctx, showID, owner, "", seatIDs)
}

// CheckSeatRequest checks a hold request as HoldSeats will before any
// store sees it: 1 to MAX_SEATS distinct, well-formed seat ids.
func (s *Service) CheckSeatRequest(seatIDs []string) error {
	return ValidateSeatRequest(seatIDs, s.maxSeats)
}

// HoldSeatsFrom is HoldSeats for a client at address, whose live held seats
// of the show, over all its sessions, stay within Policy.SeatsPerAddress.
func (s *Service) HoldSeatsFrom(ctx context.Context, showID, owner, address string, seatIDs []string) (string, error) {
	if owner == "" {
		return "", Errorf(EINVALID, "Your session has no visitor id.")
	}
	if err := ValidateSeatRequest(seatIDs, s.maxSeats); err != nil {
		return "", err
	}
	// The id is made before the step, which may run more than once; its
	// time part only orders ids.
	h := Hold{ID: NewHoldID(s.clock.Now()), ShowID: showID, Owner: owner, SeatIDs: seatIDs, Address: address}
	release, err := s.holds.enter(ctx, showID)
	if err != nil {
		return "", err
	}
	defer release()
	if err := HoldSeatsStep(ctx, s.store, s.clock.Now, h, s.rules); err != nil {
		return "", err
	}
	return h.ID, nil
}

// HoldBest is the one-step best hold (SPEC §18): the best block for r free
// at the moment of the store's step, held for owner at address. It
// returns the hold's id and seats. A party outside 1–MAX_SEATS, or an
// unknown category, is EINVALID; no block free is ErrNoBlock.
func (s *Service) HoldBest(ctx context.Context, showID, owner, address string, r BestRequest) (string, []string, error) {
	if owner == "" {
		return "", nil, Errorf(EINVALID, "Your session has no visitor id.")
	}
	if err := CheckBestRequest(r, s.maxSeats); err != nil {
		return "", nil, err
	}
	h := Hold{ID: NewHoldID(s.clock.Now()), ShowID: showID, Owner: owner, Address: address}
	release, err := s.holds.enter(ctx, showID)
	if err != nil {
		return "", nil, err
	}
	defer release()
	held, err := BestHoldStep(ctx, s.store, s.clock.Now, h, r, s.rules)
	if err != nil {
		return "", nil, err
	}
	return held.ID, held.SeatIDs, nil
}

// Hold returns owner's hold holdID; anyone else gets ErrNotOwner.
func (s *Service) Hold(ctx context.Context, holdID, owner string) (Hold, error) {
	h, err := s.store.Hold(ctx, holdID)
	if err != nil {
		return Hold{}, err
	}
	if err := h.CheckOwner(owner); err != nil {
		return Hold{}, err
	}
	return h, nil
}

// ExtendHold is "More time": owner's hold holdID expires HOLD_TTL from now,
// at most MaxExtensions times (ErrExtendLimit, 409); a hold that ended or
// whose sales closed is EGONE (410).
func (s *Service) ExtendHold(ctx context.Context, holdID, owner string) (Hold, error) {
	return ExtendHoldStep(ctx, s.store, s.clock.Now, holdID, owner, s.rules)
}

// Release is Back: it frees the seats the hold still locks.
func (s *Service) Release(ctx context.Context, holdID, owner string) (Hold, error) {
	return ReleaseHoldStep(ctx, s.store, s.clock.Now, holdID, owner)
}

// StartPayment creates a pending payment and booking for owner's hold, its
// tickets to be mailed to email, or refuses with an EGONE error when the
// hold can no longer be paid for. Pressing Pay again returns the same
// payment, with the address corrected when it changed.
func (s *Service) StartPayment(ctx context.Context, holdID, owner, email string) (Payment, Booking, error) {
	out, err := s.StartTypedPayment(ctx, holdID, owner, email, nil)
	return out.Payment, out.Booking, err
}

// StartTypedPayment is Pay with the buyer's choice of ticket types (SPEC
// §15): StartTypedPaymentStep, after the email is checked in its turn
// (SPEC §11). The checkouts of pending payments it replaced are closed at
// the provider before it returns (PaymentStarted.Unclosed), so that a
// replaced payment's checkout cannot take money once the new one is
// opened; when the provider fails to close one, the new payment stands
// and is returned with the error, and the next Pay tries again.
func (s *Service) StartTypedPayment(ctx context.Context, holdID, owner, email string, types TypeChoice) (PaymentStarted, error) {
	return s.Pay(ctx, PayRequest{HoldID: holdID, Owner: owner, Email: email, Types: types})
}

// PayRequest is what a moviegoer's Pay carries (SPEC §11, §15, §19).
type PayRequest struct {
	HoldID string
	Owner  string
	Email  string
	Types  TypeChoice
	// Lang is the language of the page Pay was pressed on, which the
	// booking remembers for its mails; "" (or one not supported) is the
	// service's default language.
	Lang string
}

// Lang is lang when it is a supported language's code, else the
// service's default (Policy.DefaultLang).
func (s *Service) Lang(lang string) string {
	if l, ok := i18n.Parse(lang); ok {
		return string(l)
	}
	return s.lang
}

// Pay is StartTypedPayment with the page's language, which the booking
// keeps (a repeated Pay in another language changes it).
func (s *Service) Pay(ctx context.Context, r PayRequest) (PaymentStarted, error) {
	holdID, owner, email, types := r.HoldID, r.Owner, r.Email, r.Types
	addr, err := ValidateEmail(email)
	if err != nil {
		// What became of the hold is the answer first (404, 410), then
		// the address (422); either way nothing is created.
		if perr := s.checkPayable(ctx, holdID, owner); perr != nil {
			return PaymentStarted{}, perr
		}
		return PaymentStarted{}, err
	}
	start := PaymentStart{PaymentID: s.newID(), BookingID: s.newID(), Key: NewBookingKey(), Email: addr, Types: types, Lang: s.Lang(r.Lang)}
	if s.payments != nil {
		start.Provider = s.payments.Name()
	}
	out, err := StartTypedPaymentStep(ctx, s.store, s.clock.Now, holdID, owner, start, s.rules)
	if err != nil {
		return PaymentStarted{}, err
	}
	if len(out.Unclosed) > 0 {
		if _, err := s.closeCheckouts(ctx, out.Unclosed); err != nil {
			return out, fmt.Errorf("pay: close the checkouts of replaced payments: %w", err)
		}
	}
	return out, nil
}

// PendingTickets are the tickets of hold holdID's pending payment (not
// replaced): the choice checkout shows first; none when it has none.
func (s *Service) PendingTickets(ctx context.Context, holdID string) ([]SeatTicket, error) {
	return s.store.PendingTickets(ctx, holdID)
}

// CheckoutPrices is what hold h's seats sell at, read outside a step for
// the checkout page and the box office's sale form: the hold's seats (those
// the show has, in map order, with their categories and prices) and what
// the show sells (ShowPricesOf its stored table; for a show without one,
// the categories of those seats at their prices). It reads the hold's
// seats, not the show's every seat; the Pay and Sell steps read them again
// in their transactions, and what they decide is what counts.
func (s *Service) CheckoutPrices(ctx context.Context, h Hold) ([]Seat, ShowPrices, error) {
	seats, stored, err := s.store.SeatPricing(ctx, h.ShowID, h.SeatIDs)
	if err != nil {
		return nil, ShowPrices{}, err
	}
	return seats, ShowPricesOf(stored, Categories(seats)), nil
}

// checkPayable is what StartPayment's store step checks before it creates
// anything, read without writing: owner's hold exists, its show is on
// sale, and it can be paid for now.
func (s *Service) checkPayable(ctx context.Context, holdID, owner string) error {
	m := s.Now()
	h, err := s.store.Hold(ctx, holdID)
	if err != nil {
		return err
	}
	if err := h.CheckOwner(owner); err != nil {
		return err
	}
	sh, err := s.store.Show(ctx, h.ShowID)
	if err != nil {
		return err
	}
	if err := sh.CheckOnSale(m); err != nil {
		return err
	}
	return h.CheckPayable(m)
}

// Checkout is what the provider's checkout page lists for payment p: its
// show and one line per seat category of its hold.
func (s *Service) Checkout(ctx context.Context, p Payment) (Show, []LineItem, error) {
	h, err := s.store.Hold(ctx, p.HoldID)
	if err != nil {
		return Show{}, nil, fmt.Errorf("checkout of payment %s: hold: %w", p.ID, err)
	}
	show, err := s.store.Show(ctx, h.ShowID)
	if err != nil {
		return Show{}, nil, fmt.Errorf("checkout of payment %s: show: %w", p.ID, err)
	}
	// The hold's seats and the show's table only: the line items name
	// nothing else.
	seats, stored, err := s.store.SeatPricing(ctx, h.ShowID, h.SeatIDs)
	if err != nil {
		return Show{}, nil, fmt.Errorf("checkout of payment %s: prices: %w", p.ID, err)
	}
	if len(p.Tickets) > 0 {
		return show, TicketLineItems(show, p.Tickets, ShowPricesOf(stored, Categories(seats)).Types), nil
	}
	return show, LineItems(show, h, seats), nil
}

// CheckoutPlan is what Pay does for a pending payment: send the moviegoer
// to the checkout of Payment's current attempt (Payment.CheckoutAttempt,
// CheckoutExpiresAt), or, when Done, to the booking, because the payment
// has its outcome already (Settled, when Pay settled it) or is under way.
type CheckoutPlan struct {
	Payment Payment
	Done    bool
	Settled *Settlement
}

// PrepareCheckout decides which checkout Pay sends the moviegoer to (SPEC
// §9): the current one while it has at least CheckoutReuseLeft left, or
// while another Pay is making it (Payment.ReuseCheckout); otherwise it
// expires the open one at the provider and begins the next attempt by
// compare-and-set, so that never two checkouts of one payment are open at
// once. Of two Pays at once, one begins the attempt and the other goes to
// its checkout. A checkout paid just before it could be expired is
// settled instead, and Pay goes to the booking.
func (s *Service) PrepareCheckout(ctx context.Context, p Payment) (CheckoutPlan, error) {
	for range 3 {
		now := s.clock.Now()
		switch {
		case p.State != PaymentPending:
			return CheckoutPlan{Payment: p, Done: true}, nil
		case p.ReuseCheckout(now):
			return CheckoutPlan{Payment: p}, nil
		}
		if p.CheckoutOpen() {
			if s.payments == nil {
				return CheckoutPlan{}, errNoProvider
			}
			res, err := s.payments.Expire(ctx, p)
			if err != nil {
				return CheckoutPlan{}, fmt.Errorf("pay: close checkout %s of payment %s: %w", p.CheckoutRef, p.ID, err)
			}
			if res.Paid != nil {
				st, err := s.SettlePayment(ctx, *res.Paid)
				if err != nil {
					return CheckoutPlan{}, fmt.Errorf("pay: settle checkout %s of payment %s, paid before it could be closed: %w", p.CheckoutRef, p.ID, err)
				}
				return CheckoutPlan{Payment: st.Payment, Done: true, Settled: &st}, nil
			}
			if res.Completed {
				return CheckoutPlan{Payment: p, Done: true}, nil
			}
		}
		np, moved, err := BeginCheckoutStep(ctx, s.store, s.clock.Now, p.ID, p.CheckoutAttempt, CheckoutLifetime)
		if err != nil {
			return CheckoutPlan{}, err
		}
		if moved {
			return CheckoutPlan{Payment: np}, nil
		}
		p = np // another Pay moved it first: decide again on what it did
	}
	return CheckoutPlan{}, fmt.Errorf("pay: payment %s: its checkout attempt kept moving: %w", p.ID, ErrCheckoutSuperseded)
}

// CheckoutOpened records the provider's id of the checkout of p's current
// attempt, so that it can be closed when the hold ends and looked up when
// the payment is stuck. ErrCheckoutSuperseded: a later attempt began
// meanwhile.
func (s *Service) CheckoutOpened(ctx context.Context, p Payment, ref string) error {
	if ref == "" || (ref == p.CheckoutRef && p.CheckoutOpen()) {
		return nil
	}
	return SetCheckoutRefStep(ctx, s.store, s.clock.Now, p.ID, p.CheckoutAttempt, ref)
}

// ticketAttempts bounds how often SettlePayment draws a new ticket code.
// With 40 random bits a collision is rare even among millions of bookings,
// so five draws that all collide mean something else is wrong.
const ticketAttempts = 5

// SettlePayment applies a verified provider event. A ticket code that is
// already taken (ErrTicketCodeTaken) rolls the store's step back, and the
// event is settled again with a fresh code: a collision never fails a
// payment.
//
// With RefundAutomatically, a settlement that leaves the booking due a
// refund is refunded at once; a refund that fails then leaves it in the
// queue and is reported in Settlement.RefundErr, not as an error of the
// settlement, which has taken effect.
func (s *Service) SettlePayment(ctx context.Context, ev PaymentEvent) (Settlement, error) {
	for attempt := 1; ; attempt++ {
		st, err := SettlePaymentStep(ctx, s.store, s.clock.Now, ev, s.ticket(), s.rules)
		switch {
		case errors.Is(err, ErrTicketCodeTaken) && attempt == ticketAttempts:
			return Settlement{}, fmt.Errorf("settle payment: %d ticket codes in a row: %w", attempt, err)
		case errors.Is(err, ErrTicketCodeTaken):
			continue
		case err != nil:
			return st, err
		}
		if s.autoRefund && !st.Duplicate && st.Effect == EffectRefundDue {
			b, rerr := s.Refund(ctx, st.Booking.ID, RefundedAutomatically)
			if rerr == nil {
				st.Booking = b
			}
			st.RefundErr = rerr
		}
		return st, nil
	}
}

// Refund gives a refund_due booking its money back through the provider
// and records the refund: by is the admin's email or RefundedAutomatically.
// Asking again for a booking already refunded returns it unchanged; two
// admins pressing at once make one refund, since both ask the provider
// with the same RefundKey.
func (s *Service) Refund(ctx context.Context, bookingID, by string) (Booking, error) {
	if s.payments == nil {
		return Booking{}, errNoProvider
	}
	b, err := s.store.Booking(ctx, bookingID)
	if err != nil {
		return Booking{}, err
	}
	switch b.State {
	case BookingRefunded:
		return b, nil
	case BookingRefundDue:
	default:
		return Booking{}, ErrNotRefundDue
	}
	if b.AtBoxOffice() {
		return Booking{}, ErrRefundAtCounter
	}
	p, err := s.store.Payment(ctx, b.PaymentID)
	if err != nil {
		return Booking{}, fmt.Errorf("refund booking %s: payment: %w", b.ID, err)
	}
	r, err := s.payments.Refund(ctx, RefundRequest{Payment: p, Booking: b, Key: RefundKey(b), Reason: b.Reason})
	if err != nil {
		return Booking{}, fmt.Errorf("refund booking %s: %w", b.ID, err)
	}
	if r.Failed {
		// Recorded like a refund.failed event, so that the next attempt
		// asks with a new key instead of being answered this refund again.
		ev := RefundEvent{ID: "refused_" + r.ID, RefundID: r.ID, BookingID: b.ID, Reason: r.FailureReason}
		if _, serr := SettleRefundStep(ctx, s.store, s.clock.Now, ev); serr != nil {
			return Booking{}, fmt.Errorf("refund booking %s: recording the refused refund %s: %w", b.ID, r.ID, serr)
		}
		return Booking{}, fmt.Errorf("refund booking %s: refused by the provider: %s: %w", b.ID, r.FailureReason, ErrRefundFailed)
	}
	nb, err := MarkRefundedStep(ctx, s.store, s.clock.Now, b.ID, r.ID, by)
	if errors.Is(err, ErrAlreadyRefunded) {
		// Someone else recorded it meanwhile: the same refund, by its key.
		return s.store.Booking(ctx, b.ID)
	}
	return nb, err
}

// RefundedElsewhere records that a refund_due booking's money went back
// outside boxoffice (in the provider's dashboard, say), by admin by.
func (s *Service) RefundedElsewhere(ctx context.Context, bookingID, by string) (Booking, error) {
	return MarkRefundedStep(ctx, s.store, s.clock.Now, bookingID, "", by)
}

// CancelShow cancels a show (SPEC §10) in steps (CancelShowSteps): the
// mark first, which stops sales, then its holds are released and its
// confirmed bookings made due a refund, batch by batch, and with
// RefundAutomatically they are refunded at once. It returns the show and
// the bookings it made due a refund, as they are afterwards; refunds that
// failed leave their bookings in the queue and are joined in the error,
// which does not undo the cancellation. Cancelling a cancelled show again
// finishes what a crash between steps left.
func (s *Service) CancelShow(ctx context.Context, showID string) (Show, []Booking, error) {
	show, due, err := CancelShowSteps(ctx, s.store, s.clock.Now, showID, CancelBatch)
	if err != nil || !s.autoRefund {
		return show, due, err
	}
	var errs []error
	for i, b := range due {
		if b.AtBoxOffice() {
			continue // refunded at the counter (SPEC §16)
		}
		nb, err := s.Refund(ctx, b.ID, RefundedAutomatically)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		due[i] = nb
	}
	return show, due, errors.Join(errs...)
}

// SettleRefund applies a verified refund event once.
func (s *Service) SettleRefund(ctx context.Context, ev RefundEvent) (RefundSettlement, error) {
	return SettleRefundStep(ctx, s.store, s.clock.Now, ev)
}

// checkoutBatch bounds the checkouts closed by one CloseEndedCheckouts.
const checkoutBatch = 100

// CloseEndedCheckouts closes, at the provider, the checkouts of pending
// payments whose hold has ended (CheckoutEnded): Back, a hold replaced, a
// lapsed hold whose seats someone else took. It returns how many it
// closed. A checkout the provider fails to close stays listed, and is
// tried again next time; a payment that lands meanwhile is settled by the
// rule of SPEC §2 like any other.
func (s *Service) CloseEndedCheckouts(ctx context.Context) (int, error) {
	if s.payments == nil {
		return 0, nil
	}
	list, err := EndedCheckouts(ctx, s.store, s.Now(), checkoutBatch)
	if err != nil {
		return 0, err
	}
	return s.closeCheckouts(ctx, list)
}

// closeCheckouts closes the open checkouts of list at the provider,
// settling one paid before it could be closed, and records each closed;
// it returns how many it closed.
func (s *Service) closeCheckouts(ctx context.Context, list []Payment) (int, error) {
	if s.payments == nil {
		return 0, nil
	}
	closed := 0
	var errs []error
	for _, p := range list {
		res, err := s.payments.Expire(ctx, p)
		if err != nil {
			errs = append(errs, fmt.Errorf("close checkout of payment %s: %w", p.ID, err))
			continue
		}
		if res.Paid != nil {
			// Paid before it could be closed: settled now by SPEC §2, as
			// its event will be (once: first outcome wins).
			if _, err := s.SettlePayment(ctx, *res.Paid); err != nil {
				errs = append(errs, fmt.Errorf("settle checkout of payment %s, paid before it could be closed: %w", p.ID, err))
				continue
			}
		}
		if err := CloseCheckoutStep(ctx, s.store, s.clock.Now, p.ID); err != nil {
			errs = append(errs, err)
			continue
		}
		closed++
	}
	return closed, errors.Join(errs...)
}

// RefreshPending looks a stuck payment up at the provider (Payment.LookupDue)
// when b is pending, and settles the outcome it learns like any event. It
// returns b as it is afterwards, and whether the provider was asked; a
// booking that needs no lookup, or whose lookup another process has just
// claimed, is returned as it was.
func (s *Service) RefreshPending(ctx context.Context, b Booking) (Booking, bool, error) {
	now := s.clock.Now()
	// A booking is made with its payment: one younger than StuckAfter has
	// no lookup due (Payment.LookupDue), and the page polling it every
	// second reads nothing more.
	if b.State != BookingPending || s.payments == nil || now.Sub(b.CreatedAt) < StuckAfter {
		return b, false, nil
	}
	p, err := s.store.Payment(ctx, b.PaymentID)
	if err != nil {
		return b, false, err
	}
	if !p.LookupDue(now) {
		return b, false, nil
	}
	claimed, err := ClaimLookupStep(ctx, s.store, s.clock.Now, p.ID)
	if err != nil || !claimed {
		return b, false, err
	}
	ev, ok, err := s.payments.Lookup(ctx, p)
	if err != nil || !ok {
		return b, true, err
	}
	st, err := s.SettlePayment(ctx, ev)
	if err != nil {
		return b, true, err
	}
	return st.Booking, true, nil
}

// Booking returns owner's booking; anyone else gets ErrBookingNotFound.
func (s *Service) Booking(ctx context.Context, bookingID, owner string) (Booking, error) {
	b, err := s.store.Booking(ctx, bookingID)
	if err != nil {
		return Booking{}, err
	}
	if owner == "" || b.Owner != owner {
		return Booking{}, ErrBookingNotFound
	}
	return b, nil
}

// PaidBookingOfHold is the booking that owner's hold h ended in when a
// payment for it succeeded (confirmed, due a refund or refunded: the hold
// is HoldCompleted); ErrBookingNotFound when there is none.
func (s *Service) PaidBookingOfHold(ctx context.Context, h Hold, owner string) (Booking, error) {
	if err := h.CheckOwner(owner); err != nil {
		return Booking{}, ErrBookingNotFound
	}
	list, err := s.store.ShowBookings(ctx, h.ShowID)
	if err != nil {
		return Booking{}, err
	}
	for _, b := range list {
		if b.HoldID != h.ID {
			continue
		}
		switch b.State {
		case BookingConfirmed, BookingRefundDue, BookingRefunded:
			return b, nil
		}
	}
	return Booking{}, ErrBookingNotFound
}

// UpcomingShows lists the shows on sale now (SPEC §10's sales window,
// SALES_CLOSE included), soonest first.
func (s *Service) UpcomingShows(ctx context.Context, limit int) ([]ShowSummary, error) {
	m := s.Now()
	return s.store.UpcomingShows(ctx, OnSaleStartsFrom(m), limit, m)
}

// Occupancy counts a show's seats now.
func (s *Service) Occupancy(ctx context.Context, showID string) (Occupancy, error) {
	return s.store.Occupancy(ctx, showID, s.Now())
}

// SigningKey returns the secret key of the web layer (it signs the CSRF
// tokens of visitors without a session), made by the first process to ask
// and kept in the store, so that every process checks what any other
// signed.
func (s *Service) SigningKey(ctx context.Context) ([]byte, error) {
	fresh := make([]byte, 32)
	_, _ = rand.Read(fresh) // crypto/rand.Read never fails on supported platforms
	return s.store.SigningKey(ctx, "web", fresh)
}
