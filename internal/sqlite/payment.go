package sqlite

import (
	"context"
	"database/sql"

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
