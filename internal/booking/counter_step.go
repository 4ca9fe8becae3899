package booking

import (
	"context"
	"fmt"
	"time"
)

// CounterTx is what the box office's steps (SPEC §16) write besides the
// hold and payment records.
type CounterTx interface {
	// FreeBookedSeats sets the seats of b's show booked by b back to
	// available, and says how many.
	FreeBookedSeats(b Booking) (int, error)
}

// CounterStore is what the box office reads outside a step.
type CounterStore interface {
	// BoxOfficeBookings are the box-office bookings of theatre theatreID's
	// shows sold in [from, to) or refunded in [from, to), in no
	// particular order: what a cash-up adds up.
	BoxOfficeBookings(ctx context.Context, theatreID string, from, to time.Time) ([]Booking, error)
	// BookingsByEmail are the bookings, of any channel and state, whose
	// email is email with the case of ASCII letters ignored (MongoDB's
	// collation ignores the case of other letters too), the newest
	// first (by created_at, then id, both descending), at most limit:
	// the counter finds a customer's bookings to print them again. An
	// empty email finds none.
	BookingsByEmail(ctx context.Context, email string, limit int) ([]Booking, error)
}

// SellAtCounterStep is Sell at the box office (SPEC §16), one atomic step
// that settles the counter's hold as a payment success does: the staff
// session's counter hold (ErrNotOwner for anyone else, and for a hold
// made online), its show open at the counter (Show.CheckAtCounter) and
// the hold standing, the sale checked (CheckCounterSale) and priced among
// the types sold at the box office (PriceCounterTickets), each seat with
// the tax rate of the show's theatre now (TaxTicketsIn); then, when each
// of its seats is still locked by it (however old the lock) or free by
// the seat rule, all become booked, the hold completed, and a succeeded
// payment (ProviderBoxOffice) and a confirmed booking (ChannelBoxOffice)
// are stored, the ticket mailed when the sale has an email. A seat lost
// meanwhile is an *UnavailableError naming it, and nothing changes: the
// hold keeps the seats it still has. sale.TicketCode taken by another
// booking is ErrTicketCodeTaken (the caller tries again with a fresh one).
//
// It writes the seats it books and the hold, so an online hold taking a
// seat, or the session's next counter hold replacing this one, conflicts
// with it; it books on a show it only reads, so it serialises on the
// show's sale with the cancellation, as settlement does.
func SellAtCounterStep(ctx context.Context, st Transactor, clock func() time.Time, sale CounterSale, rules Rules) (Booking, error) {
	var out Booking
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		m := rules.At(tx.Now())
		h, err := tx.Hold(sale.HoldID)
		if err != nil {
			return err
		}
		if err := h.CheckOwner(sale.Owner); err != nil {
			return err
		}
		if !h.Counter {
			return ErrNotOwner
		}
		if h.State == HoldCompleted {
			// This very step committed already, its answer lost: the
			// booking it made is the answer.
			if b, err := tx.PaymentBooking(sale.BookingID); err == nil && b.HoldID == h.ID {
				out = b
				return nil
			}
		}
		show, err := tx.SaleFacts(h.ShowID)
		if err != nil {
			return err
		}
		if err := show.CheckAtCounter(m); err != nil {
			return err
		}
		if err := h.CheckStanding(); err != nil {
			return err
		}
		if err := CheckCounterSale(sale); err != nil {
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
		tickets, err := PriceCounterTickets(h, seats, prices, sale.Types, sale.Method)
		if err != nil {
			return err
		}
		if tickets, err = TaxTicketsIn(tx, h.ShowID, tickets); err != nil {
			return err
		}
		if lost := LostSeats(h, seats, m); len(lost) > 0 {
			return &UnavailableError{Seats: lost}
		}
		if err := tx.Serialize(saleKey(h.ShowID, h.ID)); err != nil {
			return err
		}
		n, err := tx.BookSeats(h, sale.BookingID)
		if err != nil {
			return err
		}
		if n != len(h.SeatIDs) {
			// LostSeats has just seen every one of them free or locked by
			// this hold: never a seat booked twice.
			return fmt.Errorf("booking %d of %d seats of counter hold %s: %w", n, len(h.SeatIDs), h.ID, errIntegrity)
		}
		if err := tx.SetHoldState(h.ID, HoldCompleted); err != nil {
			return err
		}
		p, b := NewCounterSale(h, sale, tickets, m.Now)
		if err := tx.InsertPayment(p); err != nil {
			return err
		}
		// Stored pending, then confirmed with its ticket code: the update
		// is where a store answers ErrTicketCodeTaken, and the change
		// queues the ticket's mail (saveBooking).
		pending := b
		pending.State, pending.TicketCode = BookingPending, ""
		if err := tx.InsertBooking(pending); err != nil {
			return err
		}
		if err := saveBooking(tx, pending, b); err != nil {
			return err
		}
		out = b
		return nil
	})
	if err != nil {
		return Booking{}, err
	}
	return out, nil
}

// CounterRefundStep is a refund at the counter (SPEC §16), one atomic
// step: DecideCounterRefund decides on box-office booking bookingID and
// its show at the transaction's instant; the booking becomes refunded by
// by, with method, its mail queued, and before the show starts its seats
// become available again. It writes the booking, so the door admitting it
// at once, or a second refund, conflicts with it.
func CounterRefundStep(ctx context.Context, st Transactor, clock func() time.Time, bookingID, by string, method Method, rules Rules) (Booking, error) {
	var out Booking
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		m := rules.At(tx.Now())
		b, err := tx.PaymentBooking(bookingID)
		if err != nil {
			return err
		}
		show, err := tx.SaleFacts(b.ShowID)
		if err != nil {
			return integrity(fmt.Sprintf("show %s of booking %s", b.ShowID, b.ID), err)
		}
		nb, free, err := DecideCounterRefund(b, show, by, method, m)
		if err != nil {
			return err
		}
		if free {
			if _, err := tx.FreeBookedSeats(b); err != nil {
				return err
			}
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
