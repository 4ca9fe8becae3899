package sqlite

import "boxoffice/internal/booking"

// The admin account steps' reads and writes (booking.AdminTx).

func (t *tx) AdminAccount(id string) (booking.Admin, error) {
	a, err := scanAdmin(t.tx.QueryRowContext(t.ctx, `SELECT `+adminColumns+` FROM admins WHERE id = ?`, id))
	return a, notFound(err, booking.ErrAdminNotFound)
}

func (t *tx) AdminEmailTaken(email string) (bool, error) {
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT count(*) FROM admins WHERE email = ?`, email).Scan(&n)
	return n > 0, err
}

func (t *tx) CountAdmins() (int, error) {
	var n int
	err := t.tx.QueryRowContext(t.ctx, `SELECT count(*) FROM admins WHERE role = 'admin'`).Scan(&n)
	return n, err
}

func (t *tx) InsertAdmin(a booking.Admin) error {
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO admins (`+adminColumns+`) VALUES (?,?,?,?,?,?,?)`,
		a.ID, a.Email, a.PasswordHash, a.Role, a.SessionVersion, nanos(a.CreatedAt), nanos(a.UpdatedAt))
	return err
}

func (t *tx) SetAdmin(a booking.Admin) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE admins SET password_hash = ?, role = ?, session_version = ?, updated_at = ? WHERE id = ?`,
		a.PasswordHash, a.Role, a.SessionVersion, nanos(a.UpdatedAt), a.ID)
	return err
}

func (t *tx) DeleteAdminAccount(id string) error {
	_, err := t.tx.ExecContext(t.ctx, `DELETE FROM admins WHERE id = ?`, id)
	return err
}
