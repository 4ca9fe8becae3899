package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"
)

// Session keys. Only this package reads or writes the session.
const (
	// keyVisitor is the owner of the visitor's holds and bookings: an id
	// the server mints at the visitor's first hold (handleHoldCreate) and
	// keeps only here, on the server, so that no value a client sends or
	// plants owns anything.
	keyVisitor = "visitor"
	keyCSRF    = "csrf"  // the token forms and htmx send back
	keyEmail   = "email" // the address last given at Pay, offered at the next checkout
)

// sessionManager is scs adapted to Echo: the session is loaded before the
// handler and committed just before the response is written, so that what
// the error handler does is saved too. A session is stored only once it
// holds something to keep (a visitor id for a hold, a sign-in, Pay's
// address): until then the visitor's CSRF token lives in csrfCookie
// (csrf.go), and a GET costs no database write (SPEC §12).
type sessionManager struct {
	*scs.SessionManager
	log          *slog.Logger
	refreshEvery time.Duration // see keepAlive
	csrfCookie   string        // the name of the CSRF cookie of visitors without a stored token
	// signingKey signs the CSRF cookie's token (signedToken); every
	// process has the same.
	signingKey []byte
	// now is the service's clock: a session's deadline is set and moved by
	// it (keepAlive, commit).
	now func() time.Time
}

// Cookie names. Over https they carry the __Host- prefix, which browsers
// accept only from a secure origin, with Path=/ and no Domain: a sibling
// subdomain (or a man in the middle of plain http) cannot plant one.
const (
	sessionCookieName = "boxoffice_session"
	csrfCookieName    = "boxoffice_csrf"
	hostCookiePrefix  = "__Host-"
)

func cookieName(name string, secure bool) string {
	if secure {
		return hostCookiePrefix + name
	}
	return name
}

func newSessionManager(store scs.Store, secure bool, idle time.Duration, signingKey []byte, now func() time.Time, log *slog.Logger) *sessionManager {
	sm := scs.New()
	if store != nil {
		sm.Store = store
	}
	sm.Codec = sessionCodec{}
	// No IdleTimeout: with one, scs marks every loaded session modified, so
	// each request (every poll) would rewrite it, and a slow read could write
	// back an older copy over a concurrent change. A session ends Lifetime
	// after its deadline was last moved, which the middleware does at most
	// once every refreshEvery (keepAlive).
	sm.Lifetime = idle
	sm.Cookie.Name = cookieName(sessionCookieName, secure)
	sm.Cookie.Domain = "" // __Host- forbids one, and no sibling host needs it
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = secure
	sm.Cookie.Path = "/"
	sm.Cookie.Persist = true
	return &sessionManager{SessionManager: sm, log: log, refreshEvery: min(sessionRefreshEvery, idle/10),
		csrfCookie: cookieName(csrfCookieName, secure), signingKey: signingKey, now: now}
}

// DefaultSessionIdle is how long a session lasts without a request when
// Options.SessionIdle is 0 (SESSION_IDLE).
const DefaultSessionIdle = 24 * time.Hour

// sessionRefreshEvery is how stale a session's deadline may get before a
// request moves it: the session is rewritten at most this often to stay
// alive, not on every request.
const sessionRefreshEvery = 5 * time.Minute

// keepAlive moves the deadline of a stored session to Lifetime from now,
// when it was last moved refreshEvery ago or more. A session not yet
// stored (a first visit) is left alone: it is written only if it gets
// something to keep.
func (sm *sessionManager) keepAlive(ctx context.Context) {
	if sm.Token(ctx) == "" {
		return
	}
	now := sm.now()
	if sm.Deadline(ctx).Sub(now) <= sm.Lifetime-sm.refreshEvery {
		sm.SetDeadline(ctx, now.Add(sm.Lifetime).UTC())
	}
}

// middleware loads the session of routes that use one. Errors are handled
// here, inside the session's scope, by onError.
func (sm *sessionManager) middleware(onError echo.HTTPErrorHandler) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if sessionless[c.Path()] {
				return next(c)
			}
			r := c.Request()
			var token string
			if ck, err := r.Cookie(sm.Cookie.Name); err == nil {
				token = ck.Value
			}
			ctx, err := sm.Load(r.Context(), token)
			if errors.Is(err, errSessionData) {
				// Written by another version, or damaged: the visitor
				// starts afresh (a new cookie replaces this one when the
				// new session is saved) rather than meet an error page.
				sm.log.WarnContext(r.Context(), "session data undecodable; starting a new session", "err", err, "request_id", requestIDOf(c))
				ctx, err = sm.Load(r.Context(), "")
			}
			if err != nil {
				return err
			}
			sm.keepAlive(ctx)
			c.SetRequest(r.WithContext(ctx))
			c.Set(ctxSessionLoaded, true)
			c.Response().Header().Add("Vary", "Cookie")
			c.Response().Before(func() { sm.commit(c) })
			if err := next(c); err != nil {
				onError(err, c)
			}
			if !c.Response().Committed {
				sm.commit(c)
			}
			return nil
		}
	}
}

// commit saves a changed session and sets its cookie, just before the
// response's headers are written. A failure can no longer change the
// response, so it is only logged.
//
// A session stored without a CSRF token of its own (made by this request,
// for a visitor who had only the cookie) adopts the cookie's token, so the
// pages already open keep working.
func (sm *sessionManager) commit(c echo.Context) {
	ctx := c.Request().Context()
	w := c.Response().Writer
	switch sm.Status(ctx) {
	case scs.Modified:
		if sm.Token(ctx) == "" {
			// A new session: scs set its deadline by the wall clock.
			sm.SetDeadline(ctx, sm.now().Add(sm.Lifetime).UTC())
		}
		if sm.GetString(ctx, keyCSRF) == "" {
			if t := sm.cookieToken(c); t != "" {
				sm.Put(ctx, keyCSRF, t)
			}
		}
		token, expiry, err := sm.Commit(ctx)
		if err != nil {
			sm.log.ErrorContext(ctx, "session commit failed", "err", err, "request_id", requestIDOf(c))
			return
		}
		// The deadline is on the service's clock, the cookie's expiry on
		// the browser's: the same span from now.
		sm.WriteSessionCookie(ctx, w, token, time.Now().Add(expiry.Sub(sm.now())))
	case scs.Destroyed:
		sm.WriteSessionCookie(ctx, w, "", time.Time{})
	}
}

// loaded reports whether the request went through the session middleware:
// routes in sessionless, and errors raised before it ran, have no session.
func (sm *sessionManager) loaded(c echo.Context) bool { return c.Get(ctxSessionLoaded) != nil }

const ctxSessionLoaded = "web.session"

// visitor returns the visitor id of the session, or "" when it has none yet.
func (s *Server) visitor(c echo.Context) string {
	if !s.sessions.loaded(c) {
		return ""
	}
	return s.sessions.GetString(c.Request().Context(), keyVisitor)
}
