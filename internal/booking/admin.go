package booking

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Admin is an account of the people who run a cinema. Its Role says what it
// may do: an admin everything, staff only the door. Moviegoers have no
// account.
type Admin struct {
	ID           string
	Email        string // normalized: see NormalizeEmail
	PasswordHash string // bcrypt
	Role         Role
	// SessionVersion counts the changes of password and role. A session
	// remembers the version it signed in at; once the account has moved on,
	// that session is signed out (see Admin.Apply).
	SessionVersion int64
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Role is what an account may do.
type Role string

const (
	// RoleAdmin may do everything: the catalog, occupancy, refunds, the
	// accounts and the door.
	RoleAdmin Role = "admin"
	// RoleStaff is front of house: it admits tickets at the door and
	// sells, refunds and cashes up at the box office (SPEC §16).
	RoleStaff Role = "staff"
)

// Roles lists the roles, the most powerful first.
var Roles = []Role{RoleAdmin, RoleStaff}

// ParseRole returns the role named s.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles {
		if string(r) == s {
			return r, nil
		}
	}
	return "", InvalidFields{{Field: "role", Message: "Choose admin or staff."}}
}

// Label is the role's name for people.
func (r Role) Label() string {
	switch r {
	case RoleAdmin:
		return "Admin"
	case RoleStaff:
		return "Door staff"
	}
	return string(r)
}

// AdminUpdate is a change of one account: a new password hash, a new role,
// or both (an empty field keeps what is there).
type AdminUpdate struct {
	ID           string
	PasswordHash string
	Role         Role
	At           time.Time
}

// ErrLastAdmin refuses a change that would leave nobody able to run the
// cinema.
var ErrLastAdmin = &Error{Code: ECONFLICT, Message: "At least one account must stay an admin."}

// ErrAdminExists is a new account with an email another account has.
var ErrAdminExists = &Error{Code: ECONFLICT, Message: "There is an account with this email already."}

// Apply returns a as it is after u, given how many accounts (a among them)
// have the admin role now, and whether anything changed. A change of
// password or role moves SessionVersion on, which signs out every session
// of a signed in before it. Stores call it inside the step that writes the
// result, so two admins demoting each other at once cannot both succeed.
func (a Admin) Apply(u AdminUpdate, admins int) (Admin, bool, error) {
	changed := false
	if u.PasswordHash != "" && u.PasswordHash != a.PasswordHash {
		a.PasswordHash, changed = u.PasswordHash, true
	}
	if u.Role != "" && u.Role != a.Role {
		if a.Role == RoleAdmin && admins <= 1 {
			return a, false, ErrLastAdmin
		}
		a.Role, changed = u.Role, true
	}
	if changed {
		a.SessionVersion++
		a.UpdatedAt = u.At
	}
	return a, changed, nil
}

// CheckDelete says whether a may be deleted, given how many accounts (a
// among them) have the admin role.
func (a Admin) CheckDelete(admins int) error {
	if a.Role == RoleAdmin && admins <= 1 {
		return ErrLastAdmin
	}
	return nil
}

// ErrAdminNotFound is what stores answer for an unknown admin. Sign-in never
// shows it: see ErrBadCredentials.
var ErrAdminNotFound = &Error{Code: ENOTFOUND, Message: "There is no such admin."}

// ErrBadCredentials is the one answer to a failed sign-in, whether the
// email is unknown or the password wrong, so that nobody learns which
// accounts exist.
var ErrBadCredentials = &Error{Code: EUNAUTHORIZED, Message: "The email or password is not right."}

// NormalizeEmail is the form an admin's email is stored and looked up in:
// trimmed and lower-cased, so that "Ops@Example.com " signs in as
// ops@example.com.
func NormalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// ValidateAdmin checks an account before it is stored: an email that looks
// like one and a password bcrypt can hash whole (8 characters to 72 bytes).
// The problems name the form's fields, email and password.
func ValidateAdmin(email, password string) error {
	var f fields
	at := strings.LastIndexByte(email, '@')
	if at <= 0 || at == len(email)-1 || len(email) > 254 || strings.ContainsAny(email, " \t\r\n<>") {
		f.add("email", "%q is not an email address.", Truncate(email, 40))
	} else if msg := refusedText("The email address", email); msg != "" {
		f.add("email", "%s", msg)
	}
	f.password(password)
	return f.err()
}

// ValidatePassword checks a new password as ValidateAdmin does.
func ValidatePassword(password string) error {
	var f fields
	f.password(password)
	return f.err()
}

func (f *fields) password(password string) {
	switch {
	case len([]rune(password)) < 8:
		f.add("password", "The password needs at least 8 characters.")
	case len(password) > 72:
		f.add("password", "The password may have at most 72 bytes.")
	}
}

// Admins signs admins in and keeps their accounts: the rules about
// passwords live here, the adapters only store hashes.
type Admins struct {
	store Store
	clock Clock
	cost  int

	dummyOnce sync.Once
	dummy     []byte
}

// NewAdmins returns Admins on store. cost is bcrypt's work factor;
// bcrypt.DefaultCost (10) when it is 0. Tests pass bcrypt.MinCost.
func NewAdmins(store Store, clock Clock, cost int) *Admins {
	if clock == nil {
		clock = SystemClock{}
	}
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	return &Admins{store: store, clock: clock, cost: cost}
}

// Ensure makes sure an account email exists with password and role: it is
// created, or changed where it differs. An account that already has this
// password and role is left exactly as it is, so restarting with
// ADMIN_PASSWORD set signs nobody out.
func (a *Admins) Ensure(ctx context.Context, email, password string, role Role) (Admin, error) {
	email = NormalizeEmail(email)
	if err := ValidateAdmin(email, password); err != nil {
		return Admin{}, err
	}
	for attempt := 0; ; attempt++ {
		adm, err := a.store.AdminByEmail(ctx, email)
		switch {
		case errors.Is(err, ErrAdminNotFound):
			adm, err = a.Create(ctx, email, password, role)
			if errors.Is(err, ErrAdminExists) && attempt == 0 {
				continue // another process made it just now: update that one
			}
			return adm, err
		case err != nil:
			return Admin{}, err
		}
		u := AdminUpdate{ID: adm.ID, Role: role}
		if bcrypt.CompareHashAndPassword([]byte(adm.PasswordHash), []byte(password)) != nil {
			if u.PasswordHash, err = a.hash(password); err != nil {
				return Admin{}, err
			}
		}
		if u.PasswordHash == "" && role == adm.Role {
			return adm, nil
		}
		return a.Update(ctx, u)
	}
}

// Create adds an account; an email in use is ErrAdminExists.
func (a *Admins) Create(ctx context.Context, email, password string, role Role) (Admin, error) {
	email = NormalizeEmail(email)
	if err := ValidateAdmin(email, password); err != nil {
		return Admin{}, err
	}
	if _, err := ParseRole(string(role)); err != nil {
		return Admin{}, err
	}
	hash, err := a.hash(password)
	if err != nil {
		return Admin{}, err
	}
	now := a.clock.Now()
	adm := Admin{ID: NewID(), Email: email, PasswordHash: string(hash), Role: role, CreatedAt: now, UpdatedAt: now}
	if err := CreateAdminStep(ctx, a.store, a.clock.Now, adm); err != nil {
		return Admin{}, err
	}
	return adm, nil
}

// Update changes an account's password (when u.PasswordHash is set, see
// HashPassword) or role, ending its other sessions (Admin.Apply).
func (a *Admins) Update(ctx context.Context, u AdminUpdate) (Admin, error) {
	if u.Role != "" {
		if _, err := ParseRole(string(u.Role)); err != nil {
			return Admin{}, err
		}
	}
	u.At = a.clock.Now()
	return UpdateAdminStep(ctx, a.store, a.clock.Now, u)
}

// HashPassword checks and hashes a new password for Update.
func (a *Admins) HashPassword(password string) (string, error) {
	if err := ValidatePassword(password); err != nil {
		return "", err
	}
	return a.hash(password)
}

// Delete removes an account, unless it is the last admin.
func (a *Admins) Delete(ctx context.Context, id string) error {
	return DeleteAdminStep(ctx, a.store, a.clock.Now, id)
}

// List lists the accounts by email.
func (a *Admins) List(ctx context.Context) ([]Admin, error) {
	return a.store.ListAdmins(ctx)
}

func (a *Admins) hash(password string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(password), a.cost)
	return string(h), err
}

// Authenticate returns the admin whose email and password these are, or
// ErrBadCredentials. An unknown email costs a bcrypt comparison too, against
// a hash of nothing anyone knows, so the time taken does not tell whether
// the account exists.
func (a *Admins) Authenticate(ctx context.Context, email, password string) (Admin, error) {
	adm, err := a.store.AdminByEmail(ctx, NormalizeEmail(email))
	switch {
	case errors.Is(err, ErrAdminNotFound):
		_ = bcrypt.CompareHashAndPassword(a.dummyHash(), []byte(password))
		return Admin{}, ErrBadCredentials
	case err != nil:
		return Admin{}, err
	}
	if bcrypt.CompareHashAndPassword([]byte(adm.PasswordHash), []byte(password)) != nil {
		return Admin{}, ErrBadCredentials
	}
	return adm, nil
}

// Admin returns the admin with id: a signed-in session names one, and an
// admin removed since is signed out by this failing.
func (a *Admins) Admin(ctx context.Context, id string) (Admin, error) {
	return a.store.AdminByID(ctx, id)
}

func (a *Admins) dummyHash() []byte {
	a.dummyOnce.Do(func() {
		var secret [18]byte
		_, _ = rand.Read(secret[:])
		a.dummy, _ = bcrypt.GenerateFromPassword(secret[:], a.cost)
	})
	return a.dummy
}
