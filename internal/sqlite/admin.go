package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"boxoffice/internal/booking"
)

const adminColumns = `id, email, password_hash, role, session_version, created_at, updated_at`

func scanAdmin(r scanner) (booking.Admin, error) {
	var (
		a                    booking.Admin
		createdAt, updatedAt sql.NullInt64
	)
	err := r.Scan(&a.ID, &a.Email, &a.PasswordHash, &a.Role, &a.SessionVersion, &createdAt, &updatedAt)
	a.CreatedAt, a.UpdatedAt = fromNanos(createdAt), fromNanos(updatedAt)
	return a, err
}

// ListAdmins lists the accounts by email.
func (s *Store) ListAdmins(ctx context.Context) ([]booking.Admin, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+adminColumns+` FROM admins ORDER BY email`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list admins: %w", err)
	}
	defer rows.Close()
	list := []booking.Admin{}
	for rows.Next() {
		a, err := scanAdmin(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: list admins: %w", err)
		}
		list = append(list, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list admins: %w", err)
	}
	return list, nil
}

// AdminByEmail returns the admin with a normalized email.
func (s *Store) AdminByEmail(ctx context.Context, email string) (booking.Admin, error) {
	a, err := scanAdmin(s.read.QueryRowContext(ctx, `SELECT `+adminColumns+` FROM admins WHERE email = ?`, email))
	if err != nil {
		return booking.Admin{}, wrapErr("admin by email", notFound(err, booking.ErrAdminNotFound))
	}
	return a, nil
}

// AdminByID returns the admin with id.
func (s *Store) AdminByID(ctx context.Context, id string) (booking.Admin, error) {
	a, err := scanAdmin(s.read.QueryRowContext(ctx, `SELECT `+adminColumns+` FROM admins WHERE id = ?`, id))
	if err != nil {
		return booking.Admin{}, wrapErr("admin", notFound(err, booking.ErrAdminNotFound))
	}
	return a, nil
}

// ShowBookings lists a show's bookings, oldest first, through bookings_show.
func (s *Store) ShowBookings(ctx context.Context, showID string) ([]booking.Booking, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+bookingColumns+` FROM bookings
		WHERE show_id = ? ORDER BY created_at, id`, showID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: show bookings: %w", err)
	}
	defer rows.Close()
	list := []booking.Booking{}
	for rows.Next() {
		b, err := scanBooking(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: show bookings: %w", err)
		}
		list = append(list, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: show bookings: %w", err)
	}
	return list, nil
}

// RefundQueue lists the refund_due bookings of every show, the longest
// waiting first, through bookings_refund_due (partial: refund_due rows
// alone, in the order listed), so a page reads only its rows.
func (s *Store) RefundQueue(ctx context.Context, limit, offset int) ([]booking.Booking, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.read.QueryContext(ctx, refundQueueSQL, limit, max(offset, 0))
	if err != nil {
		return nil, fmt.Errorf("sqlite: refund queue: %w", err)
	}
	defer rows.Close()
	list := []booking.Booking{}
	for rows.Next() {
		b, err := scanBooking(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: refund queue: %w", err)
		}
		list = append(list, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: refund queue: %w", err)
	}
	return list, nil
}

// refundQueueSQL is RefundQueue's query: limit (-1 for all), offset.
const refundQueueSQL = `SELECT ` + bookingColumns + ` FROM bookings INDEXED BY bookings_refund_due
	WHERE state = 'refund_due' ORDER BY updated_at, id LIMIT ? OFFSET ?`
