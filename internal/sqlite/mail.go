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

// QueueMail adds m, unless a mail with its id is there already.
func (s *Store) QueueMail(ctx context.Context, m booking.Mail) error {
	return s.inTx(ctx, "queue mail", func(tx *sql.Tx) error { return queueMail(ctx, tx, m) })
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

// ClaimMail claims up to limit due mails in one write transaction: two
// processes claiming at once take turns at the write lock, and the second
// finds the first's claims.
func (s *Store) ClaimMail(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]booking.Mail, error) {
	var list []booking.Mail
	err := s.inTx(ctx, "claim mail", func(tx *sql.Tx) error {
		list = list[:0]
		rows, err := tx.QueryContext(ctx, `UPDATE mail SET claimed_until = ?2, attempts = attempts + 1
			WHERE id IN (SELECT id FROM mail WHERE `+mailDue+` ORDER BY next_at, id LIMIT ?3)
			RETURNING `+mailColumns, nanos(now), nanos(now.Add(lease)), limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			m, err := scanMail(rows)
			if err != nil {
				return err
			}
			list = append(list, m)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// MailSent records that mail id was sent at now.
func (s *Store) MailSent(ctx context.Context, id string, now time.Time) error {
	return s.inTx(ctx, "mail sent", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE mail SET sent_at = ?, claimed_until = NULL, last_error = '' WHERE id = ?`, nanos(now), id)
		return err
	})
}

// MailFailed stores m as booking.Mail.Failed left it.
func (s *Store) MailFailed(ctx context.Context, m booking.Mail) error {
	return s.inTx(ctx, "mail failed", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE mail SET next_at = ?, claimed_until = ?, gave_up_at = ?, last_error = ?
			WHERE id = ? AND sent_at IS NULL`,
			nanos(m.NextAt), nanos(m.ClaimedUntil), nanos(m.GaveUpAt), m.LastError, m.ID)
		return err
	})
}

// Mail returns one mail.
func (s *Store) Mail(ctx context.Context, id string) (booking.Mail, error) {
	m, err := scanMail(s.read.QueryRowContext(ctx, `SELECT `+mailColumns+` FROM mail WHERE id = ?`, id))
	return m, wrapErr("mail", notFound(err, booking.ErrMailNotFound))
}
