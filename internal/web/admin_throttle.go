package web

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/labstack/echo/v4"
)

// Limits of sign-in, counted in fixed windows by the same Limiter as
// HOLD_RATE: in the database, so that they hold across every process.
//
// Failures are what is limited, per account and client address: whoever
// knows an admin's email can only lock that account out for their own
// address, never for the admin at theirs. Every attempt is counted per
// address too, atomically, which bounds a guesser spraying accounts, or
// racing many attempts at one account before their failures are counted,
// to signInsPerAddress a window. There is no limit on an account's
// failures from everywhere: it would let anyone with enough addresses
// lock the admin out everywhere.
const (
	signInWindow          = 15 * time.Minute
	signInsPerAddress     = 20 // attempts from one address, whatever their outcome
	failuresPerAccountAt  = 5  // failed attempts at one account from one address
	signInKeyPrefix       = "admin-login:"
	signInAddressKeyPart  = "addr:"
	signInFailureKeyPart  = "fail:"
	signInFailureAtSuffix = ":at:"
)

// signInKey is the limiter key of an account as typed (hashed, so that
// the table holds no addresses and known and unknown emails look alike)
// and this client's address: its failures from there.
func signInKey(c echo.Context, email string) string {
	sum := sha256.Sum256([]byte(email))
	return signInKeyPrefix + signInFailureKeyPart + hex.EncodeToString(sum[:16]) + signInFailureAtSuffix + addressKey(c)
}

// allowSignIn decides, before the password is checked, whether an attempt
// may be made: it counts the attempt against the client's address, and
// reads, without counting, the account's failures from this address. Over
// either limit it says how long to wait, and the
// password is not checked, even a right one. A limiter that fails refuses
// the attempt (the error is returned): nothing is lost by waiting, and the
// sign-in needs the same database.
func (s *Server) allowSignIn(c echo.Context, email string) (wait time.Duration, err error) {
	ctx := c.Request().Context()
	ok, retry, err := s.limiter.Allow(ctx, signInKeyPrefix+signInAddressKeyPart+addressKey(c), signInsPerAddress, signInWindow)
	switch {
	case err != nil:
		return 0, errorf("web: admin sign-in limiter: %w", err)
	case !ok:
		return max(retry, time.Second), nil
	}
	n, retry, err := s.limiter.Count(ctx, signInKey(c, email))
	if err != nil {
		return 0, errorf("web: admin sign-in limiter: %w", err)
	}
	if n >= failuresPerAccountAt {
		return max(retry, time.Second), nil
	}
	return 0, nil
}

// signInFailed counts a failed attempt against the account from this
// address.
func (s *Server) signInFailed(c echo.Context, email string) error {
	_, _, err := s.limiter.Allow(c.Request().Context(), signInKey(c, email), failuresPerAccountAt, signInWindow)
	if err != nil {
		return errorf("web: admin sign-in limiter: %w", err)
	}
	return nil
}
