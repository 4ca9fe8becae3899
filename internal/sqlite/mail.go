package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"boxoffice/internal/booking"
)

const mailColumns = `id, kind, booking_id, recipient, created_at, attempts, next_at, claimed_until, sent_at, gave_up_at, last_error`

func scanMail(r scanner) (booking.Mail, error) {
	var (
		m                                  booking.Mail
		created, next, claimed, sent, gave sql.NullInt64
	)
	err := r.Scan(&m.ID, &m.Kind, &m.BookingID, &m.To, &created, &m.Attempts, &next, &claimed, &sent, &gave, &m.LastError)
	m.CreatedAt, m.NextAt, m.ClaimedUntil = fromNanos(created), fromNanos(next), fromNanos(claimed)
	m.SentAt, m.GaveUpAt = fromNanos(sent), fromNanos(gave)
	return m, err
}

// queueMail adds m in the caller's transaction, unless its id is there.
func queueMail(ctx context.Context, tx *sql.Tx, m booking.Mail) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO mail (id, kind, booking_id, recipient, created_at, next_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		m.ID, m.Kind, m.BookingID, m.To, nanos(m.CreatedAt), nanos(m.NextAt))
	return err
}

// mailDue selects what booking.Mail.Due allows at ?1, through mail_due.
const mailDue = `sent_at IS NULL AND gave_up_at IS NULL AND next_at <= ?1 AND (claimed_until IS NULL OR claimed_until <= ?1)`

// MailDue reports whether any mail is due at now, on the read connection.
func (s *Store) MailDue(ctx context.Context, now time.Time) (bool, error) {
	var one int
	err := s.read.QueryRowContext(ctx, `SELECT 1 FROM mail WHERE `+mailDue+` LIMIT 1`, nanos(now)).Scan(&one)
	switch {
	case err == sql.ErrNoRows:
		return false, nil
	case err != nil:
		return false, fmt.Errorf("sqlite: mail due: %w", err)
	}
	return true, nil
}

// Mail returns one mail.
func (s *Store) Mail(ctx context.Context, id string) (booking.Mail, error) {
	m, err := scanMail(s.read.QueryRowContext(ctx, `SELECT `+mailColumns+` FROM mail WHERE id = ?`, id))
	return m, wrapErr("mail", notFound(err, booking.ErrMailNotFound))
}
