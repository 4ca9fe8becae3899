package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// keyAdmin is the session key of the signed-in admin's id. Only a sign-in
// puts it there, so a moviegoer's session never has it.
const keyAdmin = "admin"

const adminLoginPath = "/admin/login"

// handleAdminLogin is GET /admin/login: the sign-in form, or the overview
// for an admin already signed in.
func (s *Server) handleAdminLogin(c echo.Context) error {
	if s.sessions.GetString(c.Request().Context(), keyAdmin) != "" {
		return c.Redirect(http.StatusSeeOther, "/admin")
	}
	return s.renderLogin(c, http.StatusOK, "", nil)
}

func (s *Server) renderLogin(c echo.Context, status int, email string, notice *model.Notice) error {
	return s.render(c, status, pages.AdminLogin(model.AdminLogin{
		Page: s.page(c, "Admin sign-in"), Action: adminLoginPath, Email: email, Notice: notice,
	}))
}

// handleAdminLoginSubmit is POST /admin/login (the CSRF middleware has
// checked _csrf). Wrong password and unknown email get the same answer in
// about the same time; attempts are limited per address and per account
// (allowSignIn), across processes. A success renews the session token, so
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
			Text: fmt.Sprintf("Too many sign-in attempts. Please wait %s and try again.", waitText(wait))})
	}
	adm, err := s.admins.Authenticate(ctx, email, password)
	switch {
	case errors.Is(err, booking.ErrBadCredentials):
		s.log.WarnContext(ctx, "admin sign-in failed", "addr", c.RealIP(), "request_id", requestIDOf(c))
		return s.renderLogin(c, http.StatusUnauthorized, email, &model.Notice{Kind: "error", Text: booking.ErrorMessage(err)})
	case err != nil:
		return err
	}
	if err := s.sessions.RenewToken(ctx); err != nil {
		return errorf("web: renew session token at sign-in: %w", err)
	}
	s.sessions.Put(ctx, keyAdmin, adm.ID)
	s.sessions.Put(ctx, keyCSRF, randomToken())
	s.log.InfoContext(ctx, "admin signed in", "admin", adm.Email, "request_id", requestIDOf(c))
	return redirect(c, "/admin")
}

// waitText is a wait for people: "40 seconds", "12 minutes".
func waitText(d time.Duration) string {
	secs := int((d + time.Second - 1) / time.Second)
	switch {
	case secs == 1:
		return "1 second"
	case secs < 90:
		return strconv.Itoa(secs) + " seconds"
	default:
		return strconv.Itoa((secs+59)/60) + " minutes"
	}
}

// handleAdminLogout is POST /admin/logout: the session forgets the admin and
// gets a new token and CSRF token.
func (s *Server) handleAdminLogout(c echo.Context) error {
	ctx := c.Request().Context()
	if err := s.sessions.RenewToken(ctx); err != nil {
		return errorf("web: renew session token at sign-out: %w", err)
	}
	s.sessions.Remove(ctx, keyAdmin)
	s.sessions.Put(ctx, keyCSRF, randomToken())
	return redirect(c, adminLoginPath)
}

const ctxAdmin = "web.admin"

// adminOnly lets a request through to next only for a signed-in admin who
// still exists; anyone else goes to the sign-in page (303).
func (s *Server) adminOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		id := s.sessions.GetString(ctx, keyAdmin)
		if id == "" {
			return redirect(c, adminLoginPath)
		}
		adm, err := s.admins.Admin(ctx, id)
		switch {
		case errors.Is(err, booking.ErrAdminNotFound):
			s.sessions.Remove(ctx, keyAdmin)
			return redirect(c, adminLoginPath)
		case err != nil:
			return err
		}
		c.Set(ctxAdmin, adm)
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// adminPage is what every admin page's layout needs.
func (s *Server) adminPage(c echo.Context, title string) model.AdminPage {
	adm, _ := c.Get(ctxAdmin).(booking.Admin)
	return model.AdminPage{Page: s.page(c, title), Email: adm.Email, LogoutAction: "/admin/logout"}
}

func currentAdmin(c echo.Context) booking.Admin {
	adm, _ := c.Get(ctxAdmin).(booking.Admin)
	return adm
}
