package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"boxoffice/internal/booking"
)

const paymentColumns = `id, hold_id, booking_id, owner, amount, currency, state, created_at,
	checkout_ref, checkout_closed_at, charge_ref, looked_up_at, checkout_attempt, checkout_expires_at`

func scanPayment(r scanner) (booking.Payment, error) {
	var (
		p                                          booking.Payment
		createdAt, closedAt, lookedUpAt, expiresAt sql.NullInt64
	)
	err := r.Scan(&p.ID, &p.HoldID, &p.BookingID, &p.Owner, &p.Amount, &p.Currency, &p.State, &createdAt,
		&p.CheckoutRef, &closedAt, &p.ChargeRef, &lookedUpAt, &p.CheckoutAttempt, &expiresAt)
	p.CreatedAt, p.CheckoutClosedAt, p.LookedUpAt = fromNanos(createdAt), fromNanos(closedAt), fromNanos(lookedUpAt)
	p.CheckoutExpiresAt = fromNanos(expiresAt)
	return p, err
}

func getPayment(ctx context.Context, q rowQuerier, paymentID string) (booking.Payment, error) {
	p, err := scanPayment(q.QueryRowContext(ctx, `SELECT `+paymentColumns+` FROM payments WHERE id = ?`, paymentID))
	return p, notFound(err, booking.ErrPaymentNotFound)
}

// Payment returns a payment by id.
func (s *Store) Payment(ctx context.Context, paymentID string) (booking.Payment, error) {
	p, err := getPayment(ctx, s.read, paymentID)
	return p, wrapErr("payment", err)
}

// StartPayment creates a pending payment and booking for owner's hold if
// Hold.CheckPayable allows it at m. A hold that already has a pending
// payment gets that one back, so that pressing Pay twice starts one payment.
func (s *Store) StartPayment(ctx context.Context, holdID, owner string, ids booking.PaymentStart, m booking.Moment) (booking.Payment, booking.Booking, error) {
	var (
		p booking.Payment
		b booking.Booking
	)
	err := s.inTx(ctx, "start payment", func(tx *sql.Tx) error {
		h, err := getOwnHold(ctx, tx, holdID, owner)
		if err != nil {
			return err
		}
		// The show first: a cancelled show or closed sales is why,
		// whatever became of the hold meanwhile.
		if _, err := s.checkOnSale(ctx, tx, h.ShowID, m); err != nil {
			return err
		}
		if err := h.CheckPayable(m); err != nil {
			return err
		}
		p, err = scanPayment(tx.QueryRowContext(ctx, `SELECT `+paymentColumns+` FROM payments
			WHERE hold_id = ? AND state = ? ORDER BY created_at LIMIT 1`, h.ID, booking.PaymentPending))
		switch {
		case err == nil:
			if b, err = getBooking(ctx, tx, p.BookingID); err != nil {
				return err
			}
			if ids.Email == "" || ids.Email == b.Email {
				return nil
			}
			nb := b
			nb.Email = ids.Email
			if err := updateBooking(ctx, tx, b, nb); err != nil {
				return err
			}
			b = nb
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		p, b = booking.NewPayment(h, ids, m.Now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO payments (`+paymentColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			p.ID, p.HoldID, p.BookingID, p.Owner, int64(p.Amount), p.Currency, p.State, nanos(p.CreatedAt),
			p.CheckoutRef, nanos(p.CheckoutClosedAt), p.ChargeRef, nanos(p.LookedUpAt),
			p.CheckoutAttempt, nanos(p.CheckoutExpiresAt)); err != nil {
			return err
		}
		return insertBooking(ctx, tx, b)
	})
	if err != nil {
		return booking.Payment{}, booking.Booking{}, err
	}
	return p, b, nil
}

// SettlePayment applies a verified provider event once. In one transaction
// it checks whether the event id was seen, reads the payment, its hold, its
// booking and the hold's seats, lets booking.DecideSettlement decide, writes
// the effect and records the event id with it. Errors (unknown payment,
// mismatch, booking.ErrTicketCodeTaken) roll back, so nothing is recorded
// and a corrected retry of the provider, or of the service with a fresh
// ticket code, is still applied.
func (s *Store) SettlePayment(ctx context.Context, ev booking.PaymentEvent, ticketCode string, m booking.Moment) (booking.Settlement, error) {
	if ev.ID == "" {
		return booking.Settlement{}, booking.Errorf(booking.EINVALID, "The payment event has no id.")
	}
	var out booking.Settlement
	err := s.inTx(ctx, "settle payment", func(tx *sql.Tx) error {
		var err error
		out, err = s.settle(ctx, tx, ev, ticketCode, m)
		return err
	})
	if err != nil {
		return booking.Settlement{}, err
	}
	return out, nil
}

func (s *Store) settle(ctx context.Context, tx *sql.Tx, ev booking.PaymentEvent, ticketCode string, m booking.Moment) (booking.Settlement, error) {
	if dup, ok, err := recordedEvent(ctx, tx, ev.ID); err != nil || ok {
		return dup, err
	}
	p, err := getPayment(ctx, tx, ev.PaymentID)
	if err != nil {
		return booking.Settlement{}, err
	}
	if err := booking.CheckEvent(p, ev); err != nil {
		return booking.Settlement{}, err
	}
	h, err := getHold(ctx, tx, p.HoldID)
	if err != nil {
		return booking.Settlement{}, fmt.Errorf("hold %s of payment %s: %w", p.HoldID, p.ID, errors.Join(err, errIntegrity))
	}
	b, err := getBooking(ctx, tx, p.BookingID)
	if err != nil {
		return booking.Settlement{}, fmt.Errorf("booking %s of payment %s: %w", p.BookingID, p.ID, errors.Join(err, errIntegrity))
	}
	show, err := getShow(ctx, tx, h.ShowID)
	if err != nil {
		return booking.Settlement{}, fmt.Errorf("show %s of payment %s: %w", h.ShowID, p.ID, errors.Join(err, errIntegrity))
	}
	seats, err := seatsByID(ctx, tx, h.ShowID, h.SeatIDs)
	if err != nil {
		return booking.Settlement{}, err
	}

	st := booking.DecideSettlement(p, ev, show, h, seats, m)
	switch st.Effect {
	case booking.EffectBooked:
		if err := bookSeats(ctx, tx, h, b.ID); err != nil {
			return booking.Settlement{}, err
		}
	case booking.EffectRefundDue, booking.EffectReleased:
		if _, err := tx.StmtContext(ctx, s.stmts.releaseHold).ExecContext(ctx, h.ShowID, h.Owner, h.ID); err != nil {
			return booking.Settlement{}, err
		}
	}
	if nb := st.Apply(b, ticketCode, m.Now); nb.State != b.State || !nb.UpdatedAt.Equal(b.UpdatedAt) {
		if err := updateBooking(ctx, tx, b, nb); err != nil {
			return booking.Settlement{}, ticketTaken(err, nb.TicketCode != b.TicketCode)
		}
		b = nb
	}
	if st.Effect == booking.EffectCheckoutEnded && p.CheckoutClosedAt.IsZero() {
		if _, err := tx.ExecContext(ctx, `UPDATE payments SET checkout_closed_at = ? WHERE id = ?`, m.Now.UnixNano(), p.ID); err != nil {
			return booking.Settlement{}, err
		}
		p.CheckoutClosedAt = m.Now
	}
	if ps := booking.PaymentStateAfter(p, ev, st.Effect); ps != p.State {
		if ps == booking.PaymentSucceeded && ev.ChargeRef != "" {
			p.ChargeRef = ev.ChargeRef
		}
		if _, err := tx.ExecContext(ctx, `UPDATE payments SET state = ?, charge_ref = ? WHERE id = ?`, ps, p.ChargeRef, p.ID); err != nil {
			return booking.Settlement{}, err
		}
		p.State = ps
	}
	if hs := booking.HoldStateAfter(h, st.Effect); hs != h.State {
		if _, err := tx.ExecContext(ctx, `UPDATE holds SET state = ? WHERE id = ?`, hs, h.ID); err != nil {
			return booking.Settlement{}, err
		}
	}
	// A checkout that ended while its hold was live decided nothing for
	// good: the same event (a lookup's, asked again) is decided afresh
	// once the hold has ended.
	if st.Effect != booking.EffectCheckoutEnded {
		if _, err := tx.ExecContext(ctx, `INSERT INTO payment_events (id, payment_id, type, effect, reason, received_at)
		VALUES (?, ?, ?, ?, ?, ?)`, ev.ID, p.ID, ev.Type, st.Effect, st.Reason, m.Now.UnixNano()); err != nil {
			return booking.Settlement{}, err
		}
	}
	st.Payment, st.Booking = p, b
	return st, nil
}

// ticketTaken translates a UNIQUE violation of an update of a booking that
// set a new ticket code into booking.ErrTicketCodeTaken. The update keeps
// the booking's id, so the index bookings_ticket_code (0004_ticket_code.sql)
// is the only unique constraint it can violate.
func ticketTaken(err error, newCode bool) error {
	var e *sqlite.Error
	if newCode && errors.As(err, &e) && e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE {
		return booking.ErrTicketCodeTaken
	}
	return err
}

// errIntegrity marks rows that the schema says must exist but do not.
var errIntegrity = errors.New("database integrity")

// recordedEvent returns the settlement of an event id seen before, marked
// Duplicate, with the payment and booking as they are now.
func recordedEvent(ctx context.Context, tx *sql.Tx, eventID string) (booking.Settlement, bool, error) {
	var paymentID string
	var st booking.Settlement
	err := tx.QueryRowContext(ctx, `SELECT payment_id, effect, reason FROM payment_events WHERE id = ?`, eventID).
		Scan(&paymentID, &st.Effect, &st.Reason)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return booking.Settlement{}, false, nil
	case err != nil:
		return booking.Settlement{}, false, err
	}
	st.Duplicate = true
	if st.Payment, err = getPayment(ctx, tx, paymentID); err != nil {
		return booking.Settlement{}, false, err
	}
	if st.Booking, err = getBooking(ctx, tx, st.Payment.BookingID); err != nil {
		return booking.Settlement{}, false, err
	}
	return st, true, nil
}

// bookSeats marks the hold's seats booked. DecideSettlement has just seen
// every one of them free or locked by this hold; the status guard and the
// count make sure, inside the same transaction, that no seat is ever booked
// twice even if that were not so.
func bookSeats(ctx context.Context, tx *sql.Tx, h booking.Hold, bookingID string) error {
	args := make([]any, 0, len(h.SeatIDs)+2)
	args = append(args, bookingID, h.ShowID)
	for _, id := range h.SeatIDs {
		args = append(args, id)
	}
	res, err := tx.ExecContext(ctx, `UPDATE seats SET status = 'booked', booking_id = ?, hold_id = NULL, hold_owner = NULL, locked_at = NULL
		WHERE show_id = ? AND seat_id IN (`+placeholders(len(h.SeatIDs))+`) AND status <> 'booked'`, args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != int64(len(h.SeatIDs)) {
		return fmt.Errorf("booking %d of %d seats of hold %s: %w", n, len(h.SeatIDs), h.ID, errors.Join(err, errIntegrity))
	}
	return nil
}

// SettleRefund applies a verified refund event once: in one transaction it
// checks whether the event id was seen, reads the booking, lets
// booking.DecideRefundFailed decide, writes the booking and records the
// event id with the effect.
func (s *Store) SettleRefund(ctx context.Context, ev booking.RefundEvent, m booking.Moment) (booking.RefundSettlement, error) {
	if ev.ID == "" {
		return booking.RefundSettlement{}, booking.Errorf(booking.EINVALID, "The refund event has no id.")
	}
	var out booking.RefundSettlement
	err := s.inTx(ctx, "settle refund", func(tx *sql.Tx) error {
		var effect booking.Effect
		var reason, paymentID string
		err := tx.QueryRowContext(ctx, `SELECT payment_id, effect, reason FROM payment_events WHERE id = ?`, ev.ID).
			Scan(&paymentID, &effect, &reason)
		switch {
		case err == nil:
			p, err := getPayment(ctx, tx, paymentID)
			if err != nil {
				return err
			}
			b, err := getBooking(ctx, tx, p.BookingID)
			out = booking.RefundSettlement{Effect: effect, Reason: reason, Duplicate: true, Booking: b}
			return err
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		b, err := getBooking(ctx, tx, ev.BookingID)
		if err != nil {
			return err
		}
		st, nb := booking.DecideRefundFailed(b, ev, m.Now)
		if st.Effect != booking.EffectIgnored {
			if err := updateBooking(ctx, tx, b, nb); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO payment_events (id, payment_id, type, effect, reason, received_at)
			VALUES (?, ?, ?, ?, ?, ?)`, ev.ID, b.PaymentID, "refund.failed", st.Effect, st.Reason, m.Now.UnixNano()); err != nil {
			return err
		}
		out = st
		return nil
	})
	if err != nil {
		return booking.RefundSettlement{}, err
	}
	return out, nil
}
