package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"boxoffice/internal/booking"
)

// The outboxes' reads and writes (booking.OutboxTx): the mail (SPEC §11)
// and the sandbox's callbacks (SPEC §6).

func (t *tx) Mail(id string) (booking.Mail, error) {
	m, err := scanMail(t.tx.QueryRowContext(t.ctx, `SELECT `+mailColumns+` FROM mail WHERE id = ?`, id))
	return m, notFound(err, booking.ErrMailNotFound)
}

func (t *tx) DueMail(now time.Time, limit int) ([]booking.Mail, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+mailColumns+` FROM mail WHERE `+mailDue+` ORDER BY next_at, id LIMIT ?2`, nanos(now), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []booking.Mail
	for rows.Next() {
		m, err := scanMail(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, m)
	}
	return list, rows.Err()
}

func (t *tx) InsertMail(m booking.Mail) error { return queueMail(t.ctx, t.tx, m) }

func (t *tx) UpdateMail(m booking.Mail) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE mail SET attempts = ?, next_at = ?, claimed_until = ?, sent_at = ?, gave_up_at = ?, last_error = ?
		WHERE id = ?`,
		m.Attempts, nanos(m.NextAt), nanos(m.ClaimedUntil), nanos(m.SentAt), nanos(m.GaveUpAt), m.LastError, m.ID)
	return err
}

const outboxColumns = `payment_id, event_id, type, body, created_at, attempts, next_at, claimed_until, delivered_at, gave_up_at, last_error`

func scanOutbound(r scanner) (booking.OutboundCallback, error) {
	var (
		c                                       booking.OutboundCallback
		created, next, claimed, delivered, gave sql.NullInt64
	)
	err := r.Scan(&c.PaymentID, &c.EventID, &c.Type, &c.Body, &created, &c.Attempts, &next, &claimed, &delivered, &gave, &c.LastError)
	c.CreatedAt, c.NextAt, c.ClaimedUntil = fromNanos(created), fromNanos(next), fromNanos(claimed)
	c.DeliveredAt, c.GaveUpAt = fromNanos(delivered), fromNanos(gave)
	return c, err
}

// outboundDue selects what booking.OutboundCallback.Due allows at ?1,
// through callback_outbox_due.
const outboundDue = `delivered_at IS NULL AND gave_up_at IS NULL AND next_at <= ?1 AND (claimed_until IS NULL OR claimed_until <= ?1)`

func (t *tx) OutboundCallback(paymentID string) (booking.OutboundCallback, error) {
	c, err := scanOutbound(t.tx.QueryRowContext(t.ctx, `SELECT `+outboxColumns+` FROM callback_outbox WHERE payment_id = ?`, paymentID))
	return c, notFound(err, booking.ErrCallbackNotFound)
}

func (t *tx) DueCallbacks(now time.Time, limit int) ([]booking.OutboundCallback, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+outboxColumns+` FROM callback_outbox WHERE `+outboundDue+`
		ORDER BY next_at, payment_id LIMIT ?2`, nanos(now), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []booking.OutboundCallback
	for rows.Next() {
		c, err := scanOutbound(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, c)
	}
	return list, rows.Err()
}

func (t *tx) InsertOutboundCallback(c booking.OutboundCallback) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO callback_outbox (`+outboxColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.PaymentID, c.EventID, c.Type, c.Body, nanos(c.CreatedAt), c.Attempts, nanos(c.NextAt), nanos(c.ClaimedUntil),
		nanos(c.DeliveredAt), nanos(c.GaveUpAt), c.LastError)
	return err
}

func (t *tx) UpdateOutboundCallback(c booking.OutboundCallback) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE callback_outbox SET attempts = ?, next_at = ?, claimed_until = ?, delivered_at = ?,
		gave_up_at = ?, last_error = ? WHERE payment_id = ?`,
		c.Attempts, nanos(c.NextAt), nanos(c.ClaimedUntil), nanos(c.DeliveredAt), nanos(c.GaveUpAt), c.LastError, c.PaymentID)
	return err
}

// CallbacksDue reports whether any callback is due at now, on the read
// connection.
func (s *Store) CallbacksDue(ctx context.Context, now time.Time) (bool, error) {
	var one int
	err := s.read.QueryRowContext(ctx, `SELECT 1 FROM callback_outbox WHERE `+outboundDue+` LIMIT 1`, nanos(now)).Scan(&one)
	switch {
	case err == sql.ErrNoRows:
		return false, nil
	case err != nil:
		return false, fmt.Errorf("sqlite: callbacks due: %w", err)
	}
	return true, nil
}

// OutboundCallback returns a payment's callback, on the read connection.
func (s *Store) OutboundCallback(ctx context.Context, paymentID string) (booking.OutboundCallback, error) {
	c, err := scanOutbound(s.read.QueryRowContext(ctx, `SELECT `+outboxColumns+` FROM callback_outbox WHERE payment_id = ?`, paymentID))
	return c, wrapErr("outbound callback", notFound(err, booking.ErrCallbackNotFound))
}
