package booking

import (
	"fmt"
	"strings"
	"time"
)

// PaymentState is a payment's outcome as far as we know it. The first
// terminal outcome wins.
type PaymentState string

const (
	PaymentPending   PaymentState = "pending"
	PaymentSucceeded PaymentState = "succeeded"
	PaymentFailed    PaymentState = "failed"
)

// Payment is one attempt to pay for a hold at the provider.
type Payment struct {
	ID        string
	HoldID    string
	BookingID string
	Owner     string
	Amount    Money
	Currency  string
	State     PaymentState
	CreatedAt time.Time

	// CheckoutRef is the provider's id of the last checkout made for this
	// payment (a Stripe Checkout Session), set once the provider answered
	// Pay. CheckoutClosedAt is when that checkout ended: boxoffice closed
	// it (its hold had ended, or Pay opened another), or it expired at the
	// provider; zero while it may still be open.
	CheckoutRef      string
	CheckoutClosedAt time.Time
	// CheckoutAttempt numbers the checkouts Pay opened for this payment
	// (0: none yet); it moves on by compare-and-set (BeginCheckoutStep)
	// before a checkout is created, and names the checkout's idempotency
	// key. CheckoutExpiresAt is when the attempt's checkout expires at the
	// provider: CheckoutLifetime after the request that began it.
	CheckoutAttempt   int
	CheckoutExpiresAt time.Time
	// ChargeRef is the provider's id of the money taken (a Stripe
	// PaymentIntent), which a refund names; set by a successful event.
	ChargeRef string
	// LookedUpAt is when the payment was last looked up at the provider
	// because it was stuck pending (see LookupDue).
	LookedUpAt time.Time
	// Tickets are its seats as sold, each with its type and price (SPEC
	// §15); Amount is their sum. Payments made before types have none and
	// settle at their stored Amount.
	Tickets []SeatTicket
	// ReplacedAt is when a repeated Pay with another choice of types
	// replaced this payment with a new one (zero while it was not): its
	// checkout is closed, and a success that still arrives is settled as a
	// late payment.
	ReplacedAt time.Time
	// Provider is who takes the money: the online provider's name
	// (Payments.Name: "stripe", "sandbox"), recorded when Pay makes the
	// payment, or ProviderBoxOffice for a sale at the counter (with its
	// Method). "" is a payment a process of an older release made after
	// the store was migrated (a rolling deploy): its provider is the one
	// the process is configured with.
	Provider string
	Method   Method
}

// StuckAfter is how long a payment stays pending before boxoffice asks the
// provider about it instead of waiting for its event; LookupEvery bounds
// how often it asks about one payment.
const (
	StuckAfter  = 10 * time.Minute
	LookupEvery = time.Minute
)

// CheckoutLifetime is how long a provider's checkout stays open after the
// request that creates it: Stripe requires at least 30 minutes from then.
// A hold may outlive it (More time); the checkout's end then ends it only,
// and Pay opens another.
const CheckoutLifetime = 31 * time.Minute

// CheckoutReuseLeft is the least time a checkout must have left for a
// repeated Pay to send the moviegoer to it again rather than open another.
const CheckoutReuseLeft = 5 * time.Minute

// CheckoutOpening is how long after an attempt began, with no checkout
// recorded for it yet, another Pay takes it to be still in the making and
// joins it (the same idempotency key answers the same checkout) instead of
// beginning the next one. Longer than the provider's client can take, with
// its retries; an attempt older than this without a checkout failed.
const CheckoutOpening = time.Minute

// CheckoutOpen reports whether p's last checkout is the current attempt's
// and has not ended: BeginCheckoutStep closes the previous one, and
// SetCheckoutRefStep records the new one open.
func (p Payment) CheckoutOpen() bool {
	return p.CheckoutRef != "" && p.CheckoutClosedAt.IsZero()
}

// ReuseCheckout reports whether Pay, pressed again at now for pending
// payment p, goes to the current attempt's checkout (the same idempotency
// key and expiry, so the provider answers the same checkout): it is open
// with at least CheckoutReuseLeft left, or another Pay began it within
// CheckoutOpening and is making it. Otherwise Pay closes the open one, if
// any, and begins the next attempt.
func (p Payment) ReuseCheckout(now time.Time) bool {
	if p.CheckoutAttempt == 0 || p.CheckoutExpiresAt.Sub(now) < CheckoutReuseLeft {
		return false
	}
	if p.CheckoutOpen() {
		return true
	}
	began := p.CheckoutExpiresAt.Add(-CheckoutLifetime)
	return now.Sub(began) < CheckoutOpening
}

// LookupDue reports whether p is stuck pending at now and may be looked up
// at its provider: pending for StuckAfter, and not looked up within
// LookupEvery. What a lookup can learn is the provider's to say: Stripe
// asks about the payment's checkout (nothing without one), the sandbox
// answers with the outcome chosen on its page, which has no checkout ref.
func (p Payment) LookupDue(now time.Time) bool {
	return p.State == PaymentPending &&
		now.Sub(p.CreatedAt) >= StuckAfter &&
		(p.LookedUpAt.IsZero() || now.Sub(p.LookedUpAt) >= LookupEvery)
}

// CheckoutEnded reports whether the provider's checkout of pending payment
// p, for hold h whose seats are seats (as stored), should be closed at m:
// the hold was released or replaced, or it lapsed and some of its seats
// are no longer locked by it (someone else holds or bought them). A lapsed
// hold whose seats are all still its own keeps its checkout: a payment
// that lands then is rescued (SPEC §2).
func CheckoutEnded(p Payment, h Hold, seats []Seat, m Moment) bool {
	if p.State != PaymentPending || p.CheckoutRef == "" || !p.CheckoutClosedAt.IsZero() {
		return false
	}
	switch h.State {
	case HoldReleased, HoldReplaced:
		return true
	case HoldCompleted:
		return false
	}
	if !h.ExpiredAt(m) {
		return false
	}
	mine := 0
	for _, s := range seats {
		if s.LockedBy(h.ID) {
			mine++
		}
	}
	return mine < len(h.SeatIDs)
}

// LineItem is one line of a provider's checkout: the seats of one category
// of a show, at one price.
type LineItem struct {
	Name      string // "Kalki 2898 AD — Prime seat"
	UnitPrice Money
	Quantity  int
}

// LineItems groups the hold's seats by category and price, in map order of
// their first seat, as the checkout lists them. Their sum is the hold's
// amount.
func LineItems(show Show, h Hold, seats []Seat) []LineItem {
	held := make(map[string]bool, len(h.SeatIDs))
	for _, id := range h.SeatIDs {
		held[id] = true
	}
	type key struct {
		category string
		price    Money
	}
	index := map[key]int{}
	var out []LineItem
	for _, s := range seats {
		if !held[s.ID] {
			continue
		}
		k := key{s.Category, s.Price}
		i, ok := index[k]
		if !ok {
			name := show.Movie.Title
			if s.Category != "" {
				name += " — " + s.Category + " seat"
			} else {
				name += " — seat"
			}
			i = len(out)
			index[k] = i
			out = append(out, LineItem{Name: name, UnitPrice: s.Price})
		}
		out[i].Quantity++
	}
	return out
}

// TicketLineItems groups tickets by category × type (SPEC §15), in the
// order of their first seat: one line each, at the type's price, named
// with the type's name among types. Their sum is the payment's amount.
func TicketLineItems(show Show, tickets []SeatTicket, types []TicketType) []LineItem {
	type key struct {
		category, typ string
		price         Money
	}
	index := map[key]int{}
	var out []LineItem
	for _, t := range tickets {
		k := key{t.Category, t.Type, t.Price}
		i, ok := index[k]
		if !ok {
			name := show.Movie.Title + " — "
			if t.Category != "" {
				name += t.Category + " seat"
			} else {
				name += "seat"
			}
			typeName := t.Type
			if tt, ok := TypeByID(types, t.Type); ok {
				typeName = tt.Name
			}
			if t.Type != StandardTypeID {
				name += ", " + typeName
			}
			i = len(out)
			index[k] = i
			out = append(out, LineItem{Name: name, UnitPrice: t.Price})
		}
		out[i].Quantity++
	}
	return out
}

// EventType is what a provider's callback says happened.
type EventType string

const (
	EventPaymentSucceeded EventType = "payment.succeeded"
	EventPaymentFailed    EventType = "payment.failed"
	// EventCheckoutExpired is a provider's checkout that expired unpaid
	// (Stripe's checkout.session.expired): it ends that checkout only,
	// unless the hold has ended too (DecideSettlement).
	EventCheckoutExpired EventType = "checkout.expired"
)

// PaymentEvent is a verified provider callback. ID is the provider's event id:
// each takes effect at most once.
type PaymentEvent struct {
	ID        string
	Type      EventType
	PaymentID string
	HoldID    string
	Amount    Money
	Currency  string
	// ChargeRef is the provider's id of the money taken, when the event
	// says (Stripe's payment_intent); a refund names it.
	ChargeRef string
	// CheckoutRef is the provider's id of the checkout the event is about
	// (a Stripe Checkout Session), when it says.
	CheckoutRef string
	// Charged says that a success took the money it names, whatever the
	// payment expected (a verified Stripe session, paid): one whose amount
	// or currency differs is then due a refund, not refused.
	Charged bool
}

// Effect is what an event did.
type Effect string

const (
	EffectBooked    Effect = "booked"
	EffectRefundDue Effect = "refund_due"
	EffectReleased  Effect = "released"
	EffectIgnored   Effect = "ignored"
	// EffectCheckoutEnded is a checkout that expired while its hold was
	// live: the payment stays pending, the hold keeps its seats, and Pay
	// opens another checkout.
	EffectCheckoutEnded Effect = "checkout_ended"
	// EffectReplacedEnded is a failure, or an expired checkout, of a
	// payment that another Pay replaced (SPEC §15): that payment has
	// failed, and the hold and its seats stay with the payment that
	// replaced it.
	EffectReplacedEnded Effect = "replaced_ended"
)

// Settlement is the result of applying a payment event.
type Settlement struct {
	Effect Effect
	// Reason is why: a reason code (ParseReason) when the effect stores
	// it on the booking (refund_due, released), read in each page's
	// language; English for the callback log otherwise.
	Reason    string
	Conflicts []string // seats that stopped a late payment from booking
	Duplicate bool     // the event id was seen before; nothing changed now
	Payment   Payment
	Booking   Booking
	// RefundErr is why an automatic refund of a settlement that left the
	// booking due one failed (REFUND_AUTOMATICALLY); the booking stays in
	// the queue.
	RefundErr error
}

// CheckEvent refuses an event that does not describe payment p: another
// hold, or another amount or currency, except a success that took its
// money all the same (PaymentEvent.Charged), which DecideSettlement makes
// due a refund.
func CheckEvent(p Payment, ev PaymentEvent) error {
	if ev.HoldID != p.HoldID || (amountDiffers(p, ev) && !(ev.Charged && ev.Type == EventPaymentSucceeded)) {
		return ErrPaymentMismatch
	}
	switch ev.Type {
	case EventPaymentSucceeded, EventPaymentFailed, EventCheckoutExpired:
		return nil
	}
	return Errorf(EINVALID, "Unknown event type %q.", Truncate(string(ev.Type), 40))
}

// amountDiffers reports whether ev names another amount or currency than
// payment p's.
func amountDiffers(p Payment, ev PaymentEvent) bool {
	return ev.Amount != p.Amount || (ev.Currency != "" && !strings.EqualFold(ev.Currency, p.Currency))
}

// DecideSettlement is SPEC §2's rule for a payment outcome, given the payment,
// its show, its hold and the current state of the hold's seats (as read
// inside the transaction that will apply the decision).
//
// A success books the seats when each is still locked by the hold (however old
// the lock: the money was taken) or is free by the seat rule (a late payment
// is rescued); otherwise it books nothing and the booking is due a refund. A
// success for a show that was cancelled meanwhile is due a refund too
// (SPEC §10). The sales window does not matter: a payment started before
// the close settles normally. A failure releases. Once a payment has an
// outcome, later events change nothing.
func DecideSettlement(p Payment, ev PaymentEvent, show Show, h Hold, seats []Seat, m Moment) Settlement {
	if p.State != PaymentPending {
		return Settlement{
			Effect: EffectIgnored,
			Reason: fmt.Sprintf("payment already %s; %s ignored", p.State, ev.Type),
		}
	}
	if !p.ReplacedAt.IsZero() && (ev.Type == EventPaymentFailed || ev.Type == EventCheckoutExpired) {
		return Settlement{Effect: EffectReplacedEnded, Reason: "a payment that another Pay replaced ended; the hold stays with the new one"}
	}
	if ev.Type == EventCheckoutExpired {
		return decideExpired(p, ev, h, m)
	}
	if ev.Type == EventPaymentFailed {
		return Settlement{Effect: EffectReleased, Reason: ReasonPaymentDeclined}
	}
	if amountDiffers(p, ev) {
		paidIn := ev.Currency
		if paidIn == "" {
			paidIn = p.Currency
		}
		return Settlement{Effect: EffectRefundDue, Reason: AmountMismatchReason(ev.Amount, paidIn, p.Amount, p.Currency)}
	}
	if show.Cancelled() {
		return Settlement{Effect: EffectRefundDue, Reason: ReasonShowCancelled}
	}
	byID := make(map[string]Seat, len(seats))
	for _, s := range seats {
		byID[s.ID] = s
	}
	var conflicts []string
	for _, id := range h.SeatIDs {
		s, ok := byID[id]
		// A seat with a reserve is taken (SPEC §16), whoever locks it.
		if !ok || s.Reserve != ReserveNone || !(s.LockedBy(h.ID) || s.AvailableAt(m)) {
			conflicts = append(conflicts, id)
		}
	}
	if len(conflicts) > 0 {
		SortSeatIDs(conflicts)
		return Settlement{
			Effect:    EffectRefundDue,
			Conflicts: conflicts,
			Reason:    SeatsTakenReason(conflicts),
		}
	}
	return Settlement{Effect: EffectBooked}
}

// decideExpired is SPEC §9's rule for a checkout that expired unpaid: an
// earlier checkout of the payment changes nothing; the current one, while
// the hold is live (More time may outlast a checkout), ends that checkout
// only, and the hold keeps its seats for Pay to open another; once the
// hold has ended, the payment has failed.
func decideExpired(p Payment, ev PaymentEvent, h Hold, m Moment) Settlement {
	if ev.CheckoutRef != "" && ev.CheckoutRef != p.CheckoutRef {
		return Settlement{Effect: EffectIgnored, Reason: "an earlier checkout of this payment expired; the current one is unaffected"}
	}
	if h.State == HoldActive && !h.ExpiredAt(m) {
		return Settlement{Effect: EffectCheckoutEnded, Reason: "the checkout expired while its hold is live: the hold keeps its seats, and Pay opens another checkout"}
	}
	return Settlement{Effect: EffectReleased, Reason: ReasonCheckoutExpired}
}
