package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The payment steps of SPEC §2 (Pay, settlement), §9 (checkout attempts
// and lookups) and the refunds, each one atomic step written once over
// Tx. In MongoDB each of them writes the records it decides on (the hold,
// the payment, the booking, the seats, the event id), so that two steps
// deciding on one of them conflict and one runs again; where one decides
// on a record it only reads, it says so with tx.Serialize.

// StartPaymentStep is StartTypedPaymentStep without the replaced
// payment: Pay (SPEC §2, §11, §15) as one atomic step.
func StartPaymentStep(ctx context.Context, st Transactor, clock func() time.Time, holdID, owner string, ids PaymentStart, rules Rules) (Payment, Booking, error) {
	out, err := StartTypedPaymentStep(ctx, st, clock, holdID, owner, ids, rules)
	return out.Payment, out.Booking, err
}

// PaymentStarted is what Pay started: the payment and its booking, and the
// pending payment it replaced, if the choice of types changed (Replaced,
// whose checkout the caller closes at the provider when it is open).
type PaymentStarted struct {
	Payment  Payment
	Booking  Booking
	Replaced *Payment
	// Unclosed are the hold's replaced payments whose checkout is still
	// open at the provider (Replaced among them when its is): the caller
	// closes them, and a Pay after a failed close tries again.
	Unclosed []Payment
}

// StartTypedPaymentStep is Pay (SPEC §2, §11, §15), one atomic step:
// owner's hold, its show on sale and Hold.CheckPayable allowing it (under
// rules at the transaction's instant), gets a pending payment and booking
// made from ids (NewPayment, the payment ids.Provider's), its seats sold
// as the types ids.Types chooses, priced from the show's table read in
// this transaction (PriceTickets: a type not offered, or accompanied seats
// only, is EINVALID and nothing is written), each with the tax rate of the
// show's theatre now (TaxTicketsIn). A hold that has a pending payment of
// the same tickets (or one made before types) gets that one back, its
// booking's email set to ids.Email and its language to ids.Lang when
// those differ (a repeated Pay corrects a mistyped address, and its
// language is the one the booking remembers) and its provider unchanged, so that
// pressing Pay twice starts one payment. A pending payment of other tickets is replaced: marked so
// (its checkout closed at once when it has none at the provider yet),
// its booking failed with ReasonPaymentReplaced, and a new payment made.
//
// It reads the hold, the show's sale facts, seats and prices, and the
// hold's pending payments. Two Pays at once both insert a payment for the
// hold, which in MongoDB writes the hold document (InsertPayment): one
// conflicts and, run again, finds the other's payment.
func StartTypedPaymentStep(ctx context.Context, st Transactor, clock func() time.Time, holdID, owner string, ids PaymentStart, rules Rules) (PaymentStarted, error) {
	var out PaymentStarted
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		out = PaymentStarted{}
		m := rules.At(tx.Now())
		h, err := ownHoldOnSale(tx, holdID, owner, m)
		if err != nil {
			return err
		}
		if err := h.CheckPayable(m); err != nil {
			return err
		}
		seats, err := tx.SeatsOf(h.ShowID, h.SeatIDs, false)
		if err != nil {
			return err
		}
		prices, err := tx.ShowPrices(h.ShowID)
		if err != nil {
			return err
		}
		tickets, err := PriceTickets(h, seats, prices, ids.Types)
		if err != nil {
			return err
		}
		if tickets, err = TaxTicketsIn(tx, h.ShowID, tickets); err != nil {
			return err
		}
		pending, err := tx.PendingPayments(h.ID)
		if err != nil {
			return err
		}
		for _, p := range pending {
			if !p.ReplacedAt.IsZero() && p.CheckoutOpen() {
				out.Unclosed = append(out.Unclosed, p)
			}
		}
		pending = slices.DeleteFunc(pending, func(p Payment) bool { return !p.ReplacedAt.IsZero() })
		if len(pending) > 0 {
			p := slices.MinFunc(pending, func(a, b Payment) int {
				if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
					return c
				}
				return strings.Compare(a.ID, b.ID)
			})
			b, err := tx.PaymentBooking(p.BookingID)
			if err != nil {
				return err
			}
			if len(p.Tickets) == 0 || SameTickets(p.Tickets, tickets) {
				out.Payment, out.Booking = p, b
				nb := b
				if ids.Email != "" {
					nb.Email = ids.Email
				}
				if ids.Lang != "" {
					nb.Lang = ids.Lang
				}
				if nb.Email == b.Email && nb.Lang == b.Lang {
					return nil
				}
				if err := saveBooking(tx, b, nb); err != nil {
					return err
				}
				out.Booking = nb
				return nil
			}
			p.ReplacedAt = m.Now
			if p.CheckoutRef == "" && p.CheckoutClosedAt.IsZero() {
				p.CheckoutClosedAt = m.Now // nothing open at the provider
			}
			if err := tx.UpdatePayment(p); err != nil {
				return err
			}
			nb := b
			nb.State, nb.Reason, nb.UpdatedAt = BookingFailed, ReasonPaymentReplaced, m.Now
			if err := saveBooking(tx, b, nb); err != nil {
				return err
			}
			out.Replaced = &p
			if p.CheckoutOpen() {
				out.Unclosed = append(out.Unclosed, p)
			}
		}
		p, b := NewPayment(h, ids, tickets, m.Now)
		if err := tx.InsertPayment(p); err != nil {
			return err
		}
		out.Payment, out.Booking = p, b
		return tx.InsertBooking(b)
	})
	if err != nil {
		return PaymentStarted{}, err
	}
	return out, nil
}

// ownHoldOnSale reads owner's hold holdID (ErrNotOwner for anyone else)
// and checks that its show is on sale at m: a cancelled show or closed
// sales is the answer first, whatever became of the hold meanwhile.
func ownHoldOnSale(tx Tx, holdID, owner string, m Moment) (Hold, error) {
	h, err := tx.Hold(holdID)
	if err != nil {
		return Hold{}, err
	}
	if err := h.CheckOwner(owner); err != nil {
		return Hold{}, err
	}
	show, err := tx.SaleFacts(h.ShowID)
	if err != nil {
		return Hold{}, err
	}
	return h, show.CheckOnSale(m)
}

// SettlePaymentStep applies a verified provider event once (SPEC §2
// settlement), one atomic step. A repeated event id is answered first, as
// the first delivery was: Duplicate, with the payment and booking as they
// are now, and nothing changes. Otherwise it reads the payment
// (CheckEvent refuses an event that does not describe it), its hold,
// booking, the show's sale facts and the hold's seats; DecideSettlement
// decides under rules at the transaction's instant (first outcome wins; a
// late payment is rescued while its seats are free, or leaves the booking
// due a refund); it writes the
// seats (booked, or freed), the hold's, payment's and booking's states,
// queues the mail the booking's change sends, and records the event id
// with the effect. ticketCode, minted by the caller, is the ticket of a
// booking it confirms; one another booking has is ErrTicketCodeTaken, and
// nothing is written (the caller tries again with a fresh code).
//
// The seats it books or frees, the hold and the payment are written, so
// a hold taking the seats or replacing the hold, or another event of the
// payment, conflicts with it. It books on a show it only reads, so it
// serialises on the show's sale with the cancellation.
func SettlePaymentStep(ctx context.Context, st Transactor, clock func() time.Time, ev PaymentEvent, ticketCode string, rules Rules) (Settlement, error) {
	if ev.ID == "" {
		return Settlement{}, Errorf(EINVALID, "The payment event has no id.")
	}
	var out Settlement
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		m := rules.At(tx.Now())
		seen, ok, err := tx.SeenEvent(ev.ID)
		if err != nil {
			return err
		}
		if ok {
			p, b, err := paymentAndBooking(tx, seen.PaymentID)
			out = Settlement{Effect: seen.Effect, Reason: seen.Reason, Duplicate: true, Payment: p, Booking: b}
			return err
		}
		p, err := tx.Payment(ev.PaymentID)
		if err != nil {
			return err
		}
		if err := CheckEvent(p, ev); err != nil {
			return err
		}
		h, err := tx.Hold(p.HoldID)
		if err != nil {
			return integrity(fmt.Sprintf("hold %s of payment %s", p.HoldID, p.ID), err)
		}
		b, err := tx.PaymentBooking(p.BookingID)
		if err != nil {
			return integrity(fmt.Sprintf("booking %s of payment %s", p.BookingID, p.ID), err)
		}
		show, err := tx.SaleFacts(h.ShowID)
		if err != nil {
			return integrity(fmt.Sprintf("show %s of payment %s", h.ShowID, p.ID), err)
		}
		seats, err := tx.SeatsOf(h.ShowID, h.SeatIDs, false)
		if err != nil {
			return err
		}
		s := DecideSettlement(p, ev, show, h, seats, m)

		switch s.Effect {
		case EffectBooked:
			// Booked on a show read as not cancelled: the show's
			// cancellation serialises on the same key (saleKey).
			if err := tx.Serialize(saleKey(h.ShowID, h.ID)); err != nil {
				return err
			}
			n, err := tx.BookSeats(h, b.ID)
			if err != nil {
				return err
			}
			if n != len(h.SeatIDs) {
				// DecideSettlement has just seen every one of them free
				// or locked by this hold: never a seat booked twice.
				return fmt.Errorf("booking %d of %d seats of hold %s: %w", n, len(h.SeatIDs), h.ID, errIntegrity)
			}
		case EffectRefundDue, EffectReleased:
			if err := tx.FreeSeats(h); err != nil {
				return err
			}
		}
		if hs := HoldStateAfter(h, s.Effect); hs != h.State {
			if err := tx.SetHoldState(h.ID, hs); err != nil {
				return err
			}
		}
		changed := false
		if s.Effect == EffectCheckoutEnded && p.CheckoutClosedAt.IsZero() {
			// The checkout expired while its hold is live: Pay opens
			// another.
			p.CheckoutClosedAt, changed = m.Now, true
		}
		if ps := PaymentStateAfter(p, ev, s.Effect); ps != p.State {
			if ps == PaymentSucceeded && ev.ChargeRef != "" {
				p.ChargeRef = ev.ChargeRef // the money taken, which a refund names
			}
			p.State, changed = ps, true
		}
		if changed {
			if err := tx.UpdatePayment(p); err != nil {
				return err
			}
		}
		if nb := s.Apply(b, ticketCode, m.Now); nb.State != b.State || !nb.UpdatedAt.Equal(b.UpdatedAt) {
			if err := saveBooking(tx, b, nb); err != nil {
				return err
			}
			b = nb
		}
		// A checkout that ended while its hold was live decided nothing
		// for good: the same event (a lookup's, asked again) is decided
		// afresh once the hold has ended, so its id is not recorded.
		if s.Effect != EffectCheckoutEnded {
			err := tx.RecordEvent(EventRecord{ID: ev.ID, PaymentID: p.ID, Type: string(ev.Type), Effect: s.Effect, Reason: s.Reason, ReceivedAt: m.Now})
			if err != nil {
				return err
			}
		}
		s.Payment, s.Booking = p, b
		out = s
		return nil
	})
	if err != nil {
		return Settlement{}, err
	}
	return out, nil
}

// saveBooking writes booking old as it is now, nb, and queues the mail the
// change sends (MailFor), in the step's transaction.
func saveBooking(tx Tx, old, nb Booking) error {
	if err := tx.UpdatePaymentBooking(nb); err != nil {
		return err
	}
	if mail, ok := MailFor(old, nb, nb.UpdatedAt); ok {
		return QueueMailIn(tx, mail)
	}
	return nil
}

// paymentAndBooking reads a payment and its booking.
func paymentAndBooking(tx Tx, paymentID string) (Payment, Booking, error) {
	p, err := tx.Payment(paymentID)
	if err != nil {
		return Payment{}, Booking{}, err
	}
	b, err := tx.PaymentBooking(p.BookingID)
	if err != nil {
		return Payment{}, Booking{}, integrity(fmt.Sprintf("booking %s of payment %s", p.BookingID, p.ID), err)
	}
	return p, b, nil
}

// errIntegrity marks records that must exist but do not.
var errIntegrity = errors.New("database integrity")

// integrity is err reading what must exist: a broken invariant, never the
// person's mistake, so a not-found sentinel becomes an internal error.
func integrity(what string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return fmt.Errorf("%s: %s: %w", what, e.Error(), errIntegrity)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// SettleRefundStep applies a verified refund event once, one atomic step:
// a repeated event id is answered with what the first delivery did and
// the booking as it is now; otherwise DecideRefundFailed decides on the
// booking at the transaction's instant, which is written with the mail its change sends, and the
// event id is recorded with the effect. An unknown booking is
// ErrBookingNotFound and records nothing. It writes the booking it
// decides on and the event id: a repeat, or a refund marked at once,
// conflicts.
func SettleRefundStep(ctx context.Context, st Transactor, clock func() time.Time, ev RefundEvent) (RefundSettlement, error) {
	if ev.ID == "" {
		return RefundSettlement{}, Errorf(EINVALID, "The refund event has no id.")
	}
	var out RefundSettlement
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		now := tx.Now()
		seen, ok, err := tx.SeenEvent(ev.ID)
		if err != nil {
			return err
		}
		if ok {
			_, b, err := paymentAndBooking(tx, seen.PaymentID)
			out = RefundSettlement{Effect: seen.Effect, Reason: seen.Reason, Duplicate: true, Booking: b}
			return err
		}
		b, err := tx.PaymentBooking(ev.BookingID)
		if err != nil {
			return err
		}
		s, nb := DecideRefundFailed(b, ev, now)
		if s.Effect != EffectIgnored {
			if err := saveBooking(tx, b, nb); err != nil {
				return err
			}
		}
		err = tx.RecordEvent(EventRecord{ID: ev.ID, PaymentID: b.PaymentID, Type: refundFailedType, Effect: s.Effect, Reason: s.Reason, ReceivedAt: now})
		if err != nil {
			return err
		}
		out = s
		return nil
	})
	if err != nil {
		return RefundSettlement{}, err
	}
	return out, nil
}

// MarkRefundedStep records, in one atomic step, that refund refundID of a
// refund_due booking was made by by at the transaction's instant;
// Booking.MarkRefunded decides. Two admins pressing at once both write the
// booking: one conflicts and, run again, finds it refunded.
func MarkRefundedStep(ctx context.Context, st Transactor, clock func() time.Time, bookingID, refundID, by string) (Booking, error) {
	var out Booking
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		b, err := tx.PaymentBooking(bookingID)
		if err != nil {
			return err
		}
		if b.AtBoxOffice() {
			// Its money went back at the counter, with a method the
			// cash-up counts (CounterRefundStep), not elsewhere.
			return ErrRefundAtCounter
		}
		nb, err := b.MarkRefunded(refundID, by, tx.Now())
		if err != nil {
			return err
		}
		if err := saveBooking(tx, b, nb); err != nil {
			return err
		}
		out = nb
		return nil
	})
	if err != nil {
		return Booking{}, err
	}
	return out, nil
}

// BeginCheckoutStep moves pending payment paymentID from checkout attempt
// `from` to the next (SPEC §9), one compare-and-set step: the new
// attempt's checkout expires lifetime after the transaction's instant,
// and the previous checkout, which the caller has expired at the
// provider, is recorded closed then. It returns the payment as stored
// afterwards and whether this step moved it: of two Pays at once, both
// write the payment, so one conflicts and, run again, finds the attempt
// the other began. A payment no longer pending is returned unmoved.
func BeginCheckoutStep(ctx context.Context, st Transactor, clock func() time.Time, paymentID string, from int, lifetime time.Duration) (Payment, bool, error) {
	var (
		out   Payment
		moved bool
	)
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		now := tx.Now()
		p, err := tx.Payment(paymentID)
		if err != nil {
			return err
		}
		out, moved = p, false
		if p.State != PaymentPending || p.CheckoutAttempt != from {
			return nil
		}
		// A new checkout only for a hold that still stands: a session's
		// new hold may replace this one while its checkout is closed
		// (PreviousHold.Paying), and the two serialise on the hold.
		if err := tx.Serialize("hold:" + p.HoldID); err != nil {
			return err
		}
		h, err := tx.Hold(p.HoldID)
		if err != nil {
			return err
		}
		if err := h.CheckStanding(); err != nil {
			return err
		}
		p.CheckoutAttempt, p.CheckoutExpiresAt = from+1, now.Add(lifetime)
		switch {
		case p.CheckoutRef == "":
			p.CheckoutClosedAt = time.Time{}
		case p.CheckoutClosedAt.IsZero():
			p.CheckoutClosedAt = now
		}
		if err := tx.UpdatePayment(p); err != nil {
			return err
		}
		out, moved = p, true
		return nil
	})
	if err != nil {
		return Payment{}, false, err
	}
	return out, moved, nil
}

// SetCheckoutRefStep records ref as the open checkout of payment
// paymentID's attempt, one atomic step; ErrCheckoutSuperseded when a later
// attempt has begun meanwhile (it writes the payment, as BeginCheckoutStep
// does, so the two conflict). The same ref recorded again (a Pay that
// joined the attempt) keeps its closing, should the checkout have been
// closed since.
func SetCheckoutRefStep(ctx context.Context, st Transactor, clock func() time.Time, paymentID string, attempt int, ref string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		p, err := tx.Payment(paymentID)
		if err != nil {
			return err
		}
		if p.CheckoutAttempt != attempt {
			return ErrCheckoutSuperseded
		}
		if p.CheckoutRef != ref {
			p.CheckoutClosedAt = time.Time{}
		}
		p.CheckoutRef = ref
		return tx.UpdatePayment(p)
	})
}

// CloseCheckoutStep records, in one atomic step, that payment paymentID's
// checkout was closed at the provider at the transaction's instant; only
// the first close is recorded.
func CloseCheckoutStep(ctx context.Context, st Transactor, clock func() time.Time, paymentID string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		p, err := tx.Payment(paymentID)
		if err != nil || !p.CheckoutClosedAt.IsZero() {
			return err
		}
		p.CheckoutClosedAt = tx.Now()
		return tx.UpdatePayment(p)
	})
}

// ClaimLookupStep sets payment paymentID's LookedUpAt to the transaction's
// instant when Payment.LookupDue holds then, in one atomic step, and
// reports whether it did: of several processes looking at one stuck
// payment, one asks the provider each LookupEvery (both write the
// payment; the one run again finds it looked up).
func ClaimLookupStep(ctx context.Context, st Transactor, clock func() time.Time, paymentID string) (bool, error) {
	claimed := false
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		claimed = false
		p, err := tx.Payment(paymentID)
		if err != nil {
			return err
		}
		if !p.LookupDue(tx.Now()) {
			return nil
		}
		p.LookedUpAt = tx.Now()
		if err := tx.UpdatePayment(p); err != nil {
			return err
		}
		claimed = true
		return nil
	})
	return claimed, err
}
