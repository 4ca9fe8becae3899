package booking

// AdminTx is what the admin account steps read and write in a transaction.
type AdminTx interface {
	// AdminAccount is the account with id; ErrAdminNotFound when none.
	AdminAccount(id string) (Admin, error)
	// AdminEmailTaken reports whether an account has the normalized email.
	AdminEmailTaken(email string) (bool, error)
	// CountAdmins counts the accounts with the admin role.
	CountAdmins() (int, error)

	// InsertAdmin stores a new account.
	InsertAdmin(a Admin) error
	// SetAdmin stores a's password hash, role, session version and
	// UpdatedAt.
	SetAdmin(a Admin) error
	// DeleteAdminAccount deletes the account with id.
	DeleteAdminAccount(id string) error
}
