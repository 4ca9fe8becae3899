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

// Admin is a person who may see every show's occupancy, its bookings and
// the payment provider's callbacks, and mark refunds paid. Moviegoers have
// no account; admins do.
type Admin struct {
	ID           string
	Email        string // normalized: see NormalizeEmail
	PasswordHash string // bcrypt
	CreatedAt    time.Time
	UpdatedAt    time.Time
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
func ValidateAdmin(email, password string) error {
	at := strings.LastIndexByte(email, '@')
	if at <= 0 || at == len(email)-1 || len(email) > 254 || strings.ContainsAny(email, " \t\r\n") {
		return Errorf(EINVALID, "%q is not an email address.", truncate(email, 40))
	}
	if len([]rune(password)) < 8 {
		return Errorf(EINVALID, "The password needs at least 8 characters.")
	}
	if len(password) > 72 {
		return Errorf(EINVALID, "The password may have at most 72 bytes.")
	}
	return nil
}

// Admins signs admins in and keeps their accounts: the rules about
// passwords live here, the adapters only store hashes.
type Admins struct {
	store AdminStore
	clock Clock
	cost  int

	dummyOnce sync.Once
	dummy     []byte
}

// NewAdmins returns Admins on store. cost is bcrypt's work factor;
// bcrypt.DefaultCost (10) when it is 0. Tests pass bcrypt.MinCost.
func NewAdmins(store AdminStore, clock Clock, cost int) *Admins {
	if clock == nil {
		clock = SystemClock{}
	}
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	return &Admins{store: store, clock: clock, cost: cost}
}

// Ensure creates the admin email with password, or sets the password of the
// admin that has this email already.
func (a *Admins) Ensure(ctx context.Context, email, password string) (Admin, error) {
	email = NormalizeEmail(email)
	if err := ValidateAdmin(email, password); err != nil {
		return Admin{}, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), a.cost)
	if err != nil {
		return Admin{}, err
	}
	now := a.clock.Now()
	return a.store.UpsertAdmin(ctx, Admin{
		ID: NewID(), Email: email, PasswordHash: string(hash), CreatedAt: now, UpdatedAt: now,
	})
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
