package web

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/labstack/echo/v4"
)

// Limits of admin sign-in attempts, counted in fixed windows by the same
// Limiter as HOLD_RATE: in the database, so that they hold across every
// process. An address gets more than an account, as many people may share
// one (a NAT, an office).
const (
	signInWindow         = 15 * time.Minute
	signInsPerAccount    = 5
	signInsPerAddress    = 20
	signInKeyPrefix      = "admin-login:"
	signInAccountKeyPart = "account:"
	signInAddressKeyPart = "addr:"
)

// allowSignIn counts a sign-in attempt against the client's address, then
// against the account (the email as typed, known or not, so that the
// answer tells nothing about which exist), and refuses it with how long to
// wait once either is over its limit. Every attempt counts, before the
// password is checked: a limiter can only count, so failures alone could
// not be told apart without letting a locked-out guesser keep trying; an
// admin signs in seldom. An address over its limit is refused before the
// account is counted, so a guesser spraying emails from one address cannot
// lock out accounts beyond its own twenty tries.
//
// A limiter that fails refuses the attempt (the error is returned): unlike
// holds, nothing is lost by waiting, and the sign-in itself needs the same
// database.
func (s *Server) allowSignIn(c echo.Context, email string) (wait time.Duration, err error) {
	ctx := c.Request().Context()
	sum := sha256.Sum256([]byte(email)) // bounded, and no addresses in the table
	ok, retry, err := allowEach(ctx, s.limiter, []string{
		signInKeyPrefix + signInAddressKeyPart + addressKey(c),
		signInKeyPrefix + signInAccountKeyPart + hex.EncodeToString(sum[:16]),
	}, []int{signInsPerAddress, signInsPerAccount}, signInWindow)
	switch {
	case err != nil:
		return 0, errorf("web: admin sign-in limiter: %w", err)
	case !ok:
		return max(retry, time.Second), nil
	}
	return 0, nil
}
