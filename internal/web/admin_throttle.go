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
// address too (a guesser spraying accounts), and failures per account from
// everywhere, high enough that only guessing from many addresses reaches
// it.
const (
	signInWindow          = 15 * time.Minute
	signInsPerAddress     = 20  // attempts from one address, whatever their outcome
	failuresPerAccountAt  = 5   // failed attempts at one account from one address
	failuresPerAccount    = 100 // failed attempts at one account from all addresses
	signInKeyPrefix       = "admin-login:"
	signInAddressKeyPart  = "addr:"
	signInFailureKeyPart  = "fail:"
	signInFailureAtSuffix = ":at:"
)

// signInKeys are the limiter keys of an account as typed (hashed, so that
// the table holds no addresses and known and unknown emails look alike):
// its failures from this client's address, and from everywhere.
func signInKeys(c echo.Context, email string) (at, all string) {
	sum := sha256.Sum256([]byte(email))
	all = signInKeyPrefix + signInFailureKeyPart + hex.EncodeToString(sum[:16])
	return all + signInFailureAtSuffix + addressKey(c), all
}

// allowSignIn decides, before the password is checked, whether an attempt
// may be made: it counts the attempt against the client's address, and
// reads, without counting, the account's failures from this address and
// from everywhere. Over any limit it says how long to wait, and the
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
	at, all := signInKeys(c, email)
	for _, k := range []struct {
		key   string
		limit int
	}{{at, failuresPerAccountAt}, {all, failuresPerAccount}} {
		n, retry, err := s.limiter.Count(ctx, k.key)
		if err != nil {
			return 0, errorf("web: admin sign-in limiter: %w", err)
		}
		if n >= k.limit {
			return max(retry, time.Second), nil
		}
	}
	return 0, nil
}

// signInFailed counts a failed attempt against the account, from this
// address and from everywhere.
func (s *Server) signInFailed(c echo.Context, email string) error {
	at, all := signInKeys(c, email)
	_, _, err := allowEach(c.Request().Context(), s.limiter, []string{at, all}, []int{failuresPerAccountAt, failuresPerAccount}, signInWindow)
	if err != nil {
		return errorf("web: admin sign-in limiter: %w", err)
	}
	return nil
}
