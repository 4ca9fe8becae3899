package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// Session keys of a signed-in account. Only a sign-in puts them there, so a
// moviegoer's session never has them.
const (
	keyAdmin        = "admin"         // the account's id
	keyAdminVersion = "admin_version" // its SessionVersion when this session signed in
	keyAdminSeen    = "admin_seen"    // Unix seconds of its last request, refreshed at most every adminSeenEvery
)

// DefaultAdminIdle is how long an admin's session lasts without a request
// when Options.AdminIdle is 0.
const DefaultAdminIdle = 30 * time.Minute

// adminSeenEvery is how stale the last-request time may get: a session is
// written at most this often to keep it alive, not on every request.
const adminSeenEvery = time.Minute

const (
	adminLoginPath = "/admin/login"
	adminHomePath  = "/admin"
	doorPath       = "/admin/checkin"
)

// homeOf is where an account goes after signing in: the door is all that
// staff may use.
func homeOf(adm booking.Admin) string {
	if adm.Role == booking.RoleStaff {
		return doorPath
	}
	return adminHomePath
}

// Why a session was signed out, for the sign-in page (?ended=).
const (
	endedIdle    = "idle"
	endedChanged = "changed"
)

// handleAdminLogin is GET /admin/login: the sign-in form, or the home page
// of an account already signed in.
func (s *Server) handleAdminLogin(c echo.Context) error {
	adm, _, err := s.signedIn(c)
	switch {
	case err != nil:
		return err
	case adm.ID != "":
		return c.Redirect(http.StatusSeeOther, homeOf(adm))
	}
	loc := localizer(c)
	var notice *model.Notice
	switch c.QueryParam("ended") {
	case endedIdle:
		notice = &model.Notice{Kind: "info", Text: loc.F("login.ended_idle", "Wait", localWait(loc, s.adminIdle))}
	case endedChanged:
		notice = &model.Notice{Kind: "info", Text: loc.T("login.ended_changed")}
	}
	return s.renderLogin(c, http.StatusOK, "", notice)
}

func (s *Server) renderLogin(c echo.Context, status int, email string, notice *model.Notice) error {
	return s.render(c, status, pages.AdminLogin(model.AdminLogin{
		Page: s.page(c, localizer(c).T("login.title")), Action: adminLoginPath, Email: email, Notice: notice,
	}))
}

// handleAdminLoginSubmit is POST /admin/login (the CSRF middleware has
// checked _csrf). Wrong password and unknown email get the same answer in
// about the same time; attempts are limited per address, and failures per
// account (allowSignIn, signInFailed), across processes. A success renews the session token, so
// a token planted before sign-in is worth nothing after.
func (s *Server) handleAdminLoginSubmit(c echo.Context) error {
	ctx := c.Request().Context()
	email := booking.NormalizeEmail(c.Request().PostFormValue("email"))
	password := c.Request().PostFormValue("password")
	wait, err := s.allowSignIn(c, email)
	if err != nil {
		return err
	}
	if wait > 0 {
		c.Response().Header().Set("Retry-After", retryAfterSeconds(wait))
		return s.renderLogin(c, http.StatusTooManyRequests, email, &model.Notice{Kind: "error",
			Text: localizer(c).F("login.too_many", "Wait", localWait(localizer(c), wait))})
	}
	adm, err := s.admins.Authenticate(ctx, email, password)
	switch {
	case errors.Is(err, booking.ErrBadCredentials):
		if ferr := s.signInFailed(c, email); ferr != nil {
			return ferr
		}
		s.log.WarnContext(ctx, "admin sign-in failed", "addr", c.RealIP(), "request_id", requestIDOf(c))
		return s.renderLogin(c, http.StatusUnauthorized, email, &model.Notice{Kind: "error", Text: localizer(c).T("login.bad_credentials")})
	case err != nil:
		return err
	}
	if err := s.sessions.RenewToken(ctx); err != nil {
		return errorf("web: renew session token at sign-in: %w", err)
	}
	s.sessions.Put(ctx, keyCSRF, randomToken())
	s.remember(c, adm)
	s.log.InfoContext(ctx, "admin signed in", "admin", adm.Email, "role", adm.Role, "request_id", requestIDOf(c))
	return redirect(c, homeOf(adm))
}

// remember makes this session the signed-in session of adm as it is now:
// after a sign-in, or after this session changed adm's own password or
// role, which ends its other sessions but not this one.
func (s *Server) remember(c echo.Context, adm booking.Admin) {
	ctx := c.Request().Context()
	s.sessions.Put(ctx, keyAdmin, adm.ID)
	s.sessions.Put(ctx, keyAdminVersion, strconv.FormatInt(adm.SessionVersion, 10))
	s.sessions.Put(ctx, keyAdminSeen, strconv.FormatInt(s.svc.Now().Now.Unix(), 10))
}

// forget signs the session out, keeping its visitor id and CSRF token.
func (s *Server) forget(c echo.Context) {
	ctx := c.Request().Context()
	s.sessions.Remove(ctx, keyAdmin)
	s.sessions.Remove(ctx, keyAdminVersion)
	s.sessions.Remove(ctx, keyAdminSeen)
}

// signedIn returns the account this session is signed in as, or a zero
// Admin and, when the session was signed in until now, why it no longer
// is: the account was deleted (""), changed its password or role since
// (endedChanged), or this session sat idle longer than ADMIN_IDLE
// (endedIdle). A live session's last-request time is refreshed at most
// once every adminSeenEvery, so browsing the admin pages does not write
// the session on every request.
func (s *Server) signedIn(c echo.Context) (booking.Admin, string, error) {
	ctx := c.Request().Context()
	id := s.sessions.GetString(ctx, keyAdmin)
	if id == "" {
		return booking.Admin{}, "", nil
	}
	now := s.svc.Now().Now
	seen, _ := strconv.ParseInt(s.sessions.GetString(ctx, keyAdminSeen), 10, 64)
	if now.Sub(time.Unix(seen, 0)) > s.adminIdle {
		s.forget(c)
		return booking.Admin{}, endedIdle, nil
	}
	adm, err := s.admins.Admin(ctx, id)
	switch {
	case errors.Is(err, booking.ErrAdminNotFound):
		s.forget(c)
		return booking.Admin{}, "", nil
	case err != nil:
		return booking.Admin{}, "", err
	}
	if s.sessions.GetString(ctx, keyAdminVersion) != strconv.FormatInt(adm.SessionVersion, 10) {
		s.forget(c)
		return booking.Admin{}, endedChanged, nil
	}
	if now.Sub(time.Unix(seen, 0)) >= adminSeenEvery {
		s.sessions.Put(ctx, keyAdminSeen, strconv.FormatInt(now.Unix(), 10))
	}
	return adm, "", nil
}

// waitText is a wait for people: "40 seconds", "12 minutes", "1 hour 30
// minutes" (from 90 seconds on, rounded up to the minute).
func waitText(d time.Duration) string {
	secs := int((d + time.Second - 1) / time.Second)
	switch {
	case secs == 1:
		return "1 second"
	case secs < 90:
		return strconv.Itoa(secs) + " seconds"
	default:
		return durationText(time.Duration((secs+59)/60) * time.Minute)
	}
}

// handleAdminLogout is POST /admin/logout: the session forgets the account
// and gets a new token and CSRF token.
func (s *Server) handleAdminLogout(c echo.Context) error {
	ctx := c.Request().Context()
	if err := s.sessions.RenewToken(ctx); err != nil {
		return errorf("web: renew session token at sign-out: %w", err)
	}
	s.forget(c)
	s.sessions.Put(ctx, keyCSRF, randomToken())
	return redirect(c, adminLoginPath)
}

const ctxAdmin = "web.admin"

// adminOnly lets a request through to next only for a signed-in admin;
// anyone else goes to the sign-in page (303), and staff get 403.
func (s *Server) adminOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return s.signedInAs(booking.RoleAdmin, next)
}

// doorOnly lets a request through to next for any signed-in account: the
// door and the box office are for staff and admins.
func (s *Server) doorOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return s.signedInAs(booking.RoleStaff, next)
}

// errStaffOnly is a staff member on a page only admins may use.
var errStaffOnly = &booking.Error{Code: booking.EFORBIDDEN, Message: "This page is for admins. Your account is for the door and the box office."}

// signedInAs lets a request through to next for an account with role or a
// more powerful one (booking.Roles lists them so).
func (s *Server) signedInAs(role booking.Role, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		adm, ended, err := s.signedIn(c)
		switch {
		case err != nil:
			return err
		case adm.ID == "" && ended != "":
			return redirect(c, adminLoginPath+"?ended="+ended)
		case adm.ID == "":
			return redirect(c, adminLoginPath)
		}
		c.Set(ctxAdmin, adm)
		c.Response().Header().Set("Cache-Control", "no-store")
		if role == booking.RoleAdmin && adm.Role != booking.RoleAdmin {
			return errStaffOnly
		}
		return next(c)
	}
}

// adminPage is what every admin page's layout needs.
func (s *Server) adminPage(c echo.Context, title string) model.AdminPage {
	adm := currentAdmin(c)
	return model.AdminPage{Page: s.page(c, title), Email: adm.Email, LogoutAction: "/admin/logout", Admin: adm.Role == booking.RoleAdmin}
}

func currentAdmin(c echo.Context) booking.Admin {
	adm, _ := c.Get(ctxAdmin).(booking.Admin)
	return adm
}

// durationText is a duration the way people read it: "15 minutes",
// "1 hour 30 minutes", "45 seconds", to the second (rounded), the parts
// that are zero left out.
func durationText(d time.Duration) string {
	d = d.Round(time.Second)
	if d <= 0 {
		return "0 seconds"
	}
	var parts []string
	for _, u := range []struct {
		size time.Duration
		name string
	}{{time.Hour, "hour"}, {time.Minute, "minute"}, {time.Second, "second"}} {
		if n := int(d / u.size); n > 0 {
			part := strconv.Itoa(n) + " " + u.name
			if n != 1 {
				part += "s"
			}
			parts = append(parts, part)
			d -= time.Duration(n) * u.size
		}
	}
	return strings.Join(parts, " ")
}
