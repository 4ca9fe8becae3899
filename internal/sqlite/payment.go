package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"boxoffice/internal/booking"
)

const paymentColumns = `id, hold_id, booking_id, owner, amount, currency, state, created_at,
	checkout_ref, checkout_closed_at, charge_ref, looked_up_at, checkout_attempt, checkout_expires_at, tickets, replaced_at, provider, method`

func scanPayment(r scanner) (booking.Payment, error) {
	var (
		p                                                      booking.Payment
		createdAt, closedAt, lookedUpAt, expiresAt, replacedAt sql.NullInt64
		tickets                                                string
	)
	err := r.Scan(&p.ID, &p.HoldID, &p.BookingID, &p.Owner, &p.Amount, &p.Currency, &p.State, &createdAt,
		&p.CheckoutRef, &closedAt, &p.ChargeRef, &lookedUpAt, &p.CheckoutAttempt, &expiresAt, &tickets, &replacedAt, &p.Provider, &p.Method)
	if err != nil {
		return p, err
	}
	p.CreatedAt, p.CheckoutClosedAt, p.LookedUpAt = fromNanos(createdAt), fromNanos(closedAt), fromNanos(lookedUpAt)
	p.CheckoutExpiresAt, p.ReplacedAt = fromNanos(expiresAt), fromNanos(replacedAt)
	p.Tickets, err = decodeTickets(tickets)
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

// PendingTickets reads the tickets of the hold's latest pending payment
// not replaced, through payments_hold.
func (s *Store) PendingTickets(ctx context.Context, holdID string) ([]booking.SeatTicket, error) {
	var tickets string
	err := s.read.QueryRowContext(ctx, `SELECT tickets FROM payments INDEXED BY payments_hold
		WHERE hold_id = ? AND state = 'pending' AND replaced_at IS NULL
		ORDER BY created_at DESC, id DESC LIMIT 1`, holdID).Scan(&tickets)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, wrapErr("pending tickets", err)
	}
	ts, err := decodeTickets(tickets)
	return ts, wrapErr("pending tickets", err)
}

// encodeTickets is a payment's or booking's seats as sold, as their tickets
// column keeps them (0029_seat_tickets.sql): "" for none.
func encodeTickets(tickets []booking.SeatTicket) (string, error) {
	if len(tickets) == 0 {
		return "", nil
	}
	b, err := json.Marshal(tickets)
	return string(b), err
}

// decodeTickets reads a tickets column.
func decodeTickets(s string) ([]booking.SeatTicket, error) {
	if s == "" {
		return nil, nil
	}
	var out []booking.SeatTicket
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("tickets %.40q: %w", s, err)
	}
	return out, nil
}
