package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"

	"github.com/labstack/echo/v4"
)

// A visitor's CSRF token is the session's once the session is stored, and
// until then the token in the CSRF cookie (double submit): reading a page
// must not write a session (SPEC §12), and a form needs a token before
// there is anything to keep. A session stored from a request adopts the
// cookie's token (sessionManager.commit), so pages already open keep
// working.
//
// The cookie's token is signed (signedToken): random bits and their HMAC
// under the key every process shares (Options.SigningKey), so a client
// cannot make up a cookie-and-field pair that passes. A stored session's
// token needs no signature: the session itself lives on the server. No
// token owns anything: holds and bookings belong to the visitor id the
// server mints into the session (keyVisitor).
//
// Pages never carry the token itself but the token under a fresh one-time
// pad (maskToken), different in every response: responses are compressed,
// and a secret repeated verbatim in compressed responses that also reflect
// what an attacker sends can be read off their sizes (BREACH).
//
// Before the token is compared, net/http's CrossOriginProtection refuses a
// state-changing request that a browser says comes from another site
// (Sec-Fetch-Site), or whose Origin is not this server's: a second layer
// that holds even if a token leaked.

// errCSRF is a state-changing request without the visitor's token.
var errCSRF = echo.NewHTTPError(http.StatusForbidden, "csrf token missing or wrong")

// errCrossOrigin is a state-changing request from another site.
var errCrossOrigin = echo.NewHTTPError(http.StatusForbidden, "cross-origin request refused")

// csrf refuses a state-changing request unless it carries the visitor's
// token, masked or not, as form field _csrf (in the body) or header
// X-CSRF-Token.
func (s *Server) csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
			return next(c)
		}
		if csrfExempt[c.Path()] {
			return next(c)
		}
		if err := s.crossOrigin.Check(c.Request()); err != nil {
			return errCrossOrigin
		}
		want := s.rawCSRFToken(c, false)
		// Never from the query string: a token in a URL leaks into logs.
		got := c.Request().Header.Get("X-CSRF-Token")
		if got == "" {
			got = c.Request().PostFormValue("_csrf")
		}
		if want == "" || !tokenMatches(want, got) {
			return errCSRF
		}
		return next(c)
	}
}

// csrfToken returns the visitor's CSRF token, masked afresh, for a page to
// put in <meta name="csrf-token"> and in its forms. A visitor without one
// gets one in the CSRF cookie, not in the session; a HEAD gets none (it has
// no body to put it in).
func (s *Server) csrfToken(c echo.Context) string {
	return maskToken(s.rawCSRFToken(c, true))
}

// existingCSRFToken is csrfToken without making a token: "" for a visitor
// who has none. Error pages use it: a scanner's requests must leave
// nothing behind, not even a cookie.
func (s *Server) existingCSRFToken(c echo.Context) string {
	return maskToken(s.rawCSRFToken(c, false))
}

// rawCSRFToken is the visitor's token: the session's, else the CSRF
// cookie's, else, when mint is set, a new one in a new cookie.
func (s *Server) rawCSRFToken(c echo.Context, mint bool) string {
	if !s.sessions.loaded(c) {
		return ""
	}
	if t := s.sessions.GetString(c.Request().Context(), keyCSRF); t != "" {
		return t
	}
	if t := s.sessions.cookieToken(c); t != "" {
		return t
	}
	if !mint || c.Request().Method == http.MethodHead {
		return ""
	}
	t := s.sessions.signedToken()
	c.Set(ctxCSRFCookie, t)
	c.SetCookie(&http.Cookie{
		Name:     s.sessions.csrfCookie,
		Value:    t,
		Path:     "/",
		HttpOnly: true,
		Secure:   s.secure(),
		SameSite: http.SameSiteLaxMode,
	})
	return t
}

const ctxCSRFCookie = "web.csrf_cookie"

// cookieToken is the token of the request's CSRF cookie, or the one this
// response sets; "" when there is none or it is not a token signed with
// our key.
func (sm *sessionManager) cookieToken(c echo.Context) string {
	if t, ok := c.Get(ctxCSRFCookie).(string); ok {
		return t
	}
	var t string
	if ck, err := c.Request().Cookie(sm.csrfCookie); err == nil && sm.signedByUs(ck.Value) {
		t = ck.Value
	}
	c.Set(ctxCSRFCookie, t)
	return t
}

// randomToken returns a new CSRF token for a stored session, which needs no
// signature: the session lives on the server.
func randomToken() string {
	var b [tokenRandom + tokenMAC]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// A signed token is tokenRandom random bytes and the first tokenMAC bytes
// of their HMAC-SHA256, base64url: 43 characters.
const (
	tokenRandom = 16
	tokenMAC    = 16
)

// signedToken returns a new token for the CSRF cookie, signed with the
// shared key.
func (sm *sessionManager) signedToken() string {
	var b [tokenRandom + tokenMAC]byte
	_, _ = rand.Read(b[:tokenRandom]) // crypto/rand.Read never fails on supported platforms
	copy(b[tokenRandom:], sm.tokenMAC(b[:tokenRandom]))
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// signedByUs reports whether t is a token signedToken made with this key,
// comparing the signature in constant time.
func (sm *sessionManager) signedByUs(t string) bool {
	b, err := base64.RawURLEncoding.DecodeString(t)
	if err != nil || len(b) != tokenRandom+tokenMAC {
		return false
	}
	return hmac.Equal(b[tokenRandom:], sm.tokenMAC(b[:tokenRandom]))
}

func (sm *sessionManager) tokenMAC(random []byte) []byte {
	m := hmac.New(sha256.New, sm.signingKey)
	m.Write([]byte("boxoffice csrf cookie\x00"))
	m.Write(random)
	return m.Sum(nil)[:tokenMAC]
}

// browserKey names the visitor's browser for the per-session hold limit
// without writing its token anywhere: a digest of its CSRF token, which a
// visitor keeps from the first page, through the session it gets at its
// first hold, to Pay and beyond. "" when it has no token.
func (s *Server) browserKey(c echo.Context) string {
	t := s.rawCSRFToken(c, false)
	if t == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(t))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// maskToken returns token under a one-time pad: base64url(pad ‖ pad⊕token)
// with a random pad, so that no two responses carry the same string.
func maskToken(token string) string {
	if token == "" {
		return ""
	}
	n := len(token)
	b := make([]byte, 2*n)
	_, _ = rand.Read(b[:n])
	for i := range n {
		b[n+i] = b[i] ^ token[i]
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// tokenMatches reports, in constant time, whether got is want masked
// (maskToken) or want itself. Accepting the bare token costs nothing
// against BREACH, which reads secrets out of what the server writes, and
// the server writes only masked ones; anyone holding a masked token can
// unmask it anyway. It keeps pages from before masking working.
func tokenMatches(want, got string) bool {
	if want == "" || got == "" {
		return false
	}
	n := len(want)
	if b, err := base64.RawURLEncoding.DecodeString(got); err == nil && len(b) == 2*n {
		for i := range n {
			b[n+i] ^= b[i]
		}
		return subtle.ConstantTimeCompare(b[n:], []byte(want)) == 1
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
