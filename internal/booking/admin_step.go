package booking

import (
	"context"
	"time"
)

// CreateAdminStep stores a new account in one step; an email in use is
// ErrAdminExists. Two creations of one email at once both insert it under
// the email's unique index, so in MongoDB one conflicts, runs again and
// finds it taken.
func CreateAdminStep(ctx context.Context, st Transactor, clock func() time.Time, a Admin) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		taken, err := tx.AdminEmailTaken(a.Email)
		if err != nil {
			return err
		}
		if taken {
			return ErrAdminExists
		}
		return tx.InsertAdmin(a)
	})
}

// UpdateAdminStep applies Admin.Apply to the account u.ID in one step that
// counts the accounts with the admin role, so that two changes at once can
// never leave none. It returns the account as stored. Serialised on
// "admins" when the role changes: two demotions at once each count the
// other's account, which neither writes.
func UpdateAdminStep(ctx context.Context, st Transactor, clock func() time.Time, u AdminUpdate) (Admin, error) {
	var out Admin
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		a, err := tx.AdminAccount(u.ID)
		if err != nil {
			return err
		}
		admins, err := tx.CountAdmins()
		if err != nil {
			return err
		}
		next, changed, err := a.Apply(u, admins)
		if err != nil {
			return err
		}
		out = next
		if !changed {
			return nil
		}
		if next.Role != a.Role {
			if err := tx.Serialize("admins"); err != nil {
				return err
			}
		}
		return tx.SetAdmin(next)
	})
	if err != nil {
		return Admin{}, err
	}
	return out, nil
}

// DeleteAdminStep deletes an account when Admin.CheckDelete allows, in one
// step as UpdateAdminStep, serialised on "admins" when it deletes an
// admin.
func DeleteAdminStep(ctx context.Context, st Transactor, clock func() time.Time, id string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		a, err := tx.AdminAccount(id)
		if err != nil {
			return err
		}
		admins, err := tx.CountAdmins()
		if err != nil {
			return err
		}
		if err := a.CheckDelete(admins); err != nil {
			return err
		}
		if a.Role == RoleAdmin {
			if err := tx.Serialize("admins"); err != nil {
				return err
			}
		}
		return tx.DeleteAdminAccount(id)
	})
}
