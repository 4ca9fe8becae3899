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

// CreateAdmin inserts a new account; the email's UNIQUE constraint refuses
// a second one.
func (s *Store) CreateAdmin(ctx context.Context, a booking.Admin) error {
	return s.inTx(ctx, "create admin", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO admins (`+adminColumns+`) VALUES (?,?,?,?,?,?,?)`,
			a.ID, a.Email, a.PasswordHash, a.Role, a.SessionVersion, nanos(a.CreatedAt), nanos(a.UpdatedAt))
		if isConstraint(err) {
			return booking.ErrAdminExists
		}
		return err
	})
}

// UpdateAdmin reads the account and the number of admins, lets
// booking.Admin.Apply decide, and writes, in one write transaction.
func (s *Store) UpdateAdmin(ctx context.Context, u booking.AdminUpdate) (booking.Admin, error) {
	var out booking.Admin
	err := s.inTx(ctx, "update admin", func(tx *sql.Tx) error {
		a, admins, err := adminAndCount(ctx, tx, u.ID)
		if err != nil {
			return err
		}
		next, changed, err := a.Apply(u, admins)
		if err != nil || !changed {
			out = a
			return err
		}
		out = next
		_, err = tx.ExecContext(ctx, `UPDATE admins SET password_hash = ?, role = ?, session_version = ?, updated_at = ? WHERE id = ?`,
			next.PasswordHash, next.Role, next.SessionVersion, nanos(next.UpdatedAt), next.ID)
		return err
	})
	if err != nil {
		return booking.Admin{}, err
	}
	return out, nil
}

// DeleteAdmin deletes an account that booking.Admin.CheckDelete allows, in
// one write transaction.
func (s *Store) DeleteAdmin(ctx context.Context, id string) error {
	return s.inTx(ctx, "delete admin", func(tx *sql.Tx) error {
		a, admins, err := adminAndCount(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := a.CheckDelete(admins); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM admins WHERE id = ?`, id)
		return err
	})
}

func adminAndCount(ctx context.Context, tx *sql.Tx, id string) (booking.Admin, int, error) {
	a, err := scanAdmin(tx.QueryRowContext(ctx, `SELECT `+adminColumns+` FROM admins WHERE id = ?`, id))
	if err != nil {
		return a, 0, notFound(err, booking.ErrAdminNotFound)
	}
	var admins int
	err = tx.QueryRowContext(ctx, `SELECT count(*) FROM admins WHERE role = 'admin'`).Scan(&admins)
	return a, admins, err
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
