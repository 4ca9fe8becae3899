package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

const accountsPath = "/admin/accounts"

func accountURL(id string) string { return accountsPath + "/" + id }

// accountForm is the form of a new account (isNew) or of a change to one.
func accountForm(action string, isNew bool, email string, role booking.Role, err error) model.AccountForm {
	f := model.AccountForm{
		Action:   action,
		Password: model.Field{Name: "password", Label: "Password", Autocomplete: "new-password", Hint: "At least 8 characters."},
		Role:     model.Field{Name: "role", Label: "Role"},
		Submit:   "Save account",
	}
	if isNew {
		f.Email = model.Field{Name: "email", Label: "Email", Value: email, Autocomplete: "off"}
		f.Submit = "Add account"
	} else {
		f.Password.Label, f.Password.Hint = "New password", "Leave empty to keep the password. At least 8 characters."
	}
	for _, r := range booking.Roles {
		f.Roles = append(f.Roles, model.Option{Value: string(r), Label: r.Label(), Selected: r == role})
	}
	var inv booking.InvalidFields
	if errors.As(err, &inv) {
		f.Email.Error, f.Password.Error, f.Role.Error = inv.For("email"), inv.For("password"), inv.For("role")
	}
	if errors.Is(err, booking.ErrAdminExists) {
		f.Email.Error = booking.ErrorMessage(err)
	}
	return f
}

// refusal is the notice over a form whose save was refused.
func refusal(err error) *model.Notice {
	if err == nil {
		return nil
	}
	return &model.Notice{Kind: "error", Text: "Nothing was saved: " + booking.ErrorMessage(err)}
}

// accountStatus is the status of a form shown again after err: 422 for
// the input, 409 for a rule about the accounts (the last admin, an email in
// use); any other error is not the person's and is returned.
func accountStatus(err error) (int, error) {
	switch booking.ErrorCode(err) {
	case booking.EINVALID:
		return http.StatusUnprocessableEntity, nil
	case booking.ECONFLICT:
		return http.StatusConflict, nil
	}
	return 0, err
}

// handleAdminAccounts is GET /admin/accounts: every account, and the form
// that adds one.
func (s *Server) handleAdminAccounts(c echo.Context) error {
	var notice *model.Notice
	if e := c.QueryParam("saved"); e != "" {
		notice = &model.Notice{Kind: "info", Text: booking.Truncate(e, 80) + " saved."}
	}
	if e := c.QueryParam("deleted"); e != "" {
		notice = &model.Notice{Kind: "info", Text: booking.Truncate(e, 80) + " deleted."}
	}
	return s.renderAccounts(c, http.StatusOK, notice, accountForm(accountsPath, true, "", booking.RoleStaff, nil))
}

func (s *Server) renderAccounts(c echo.Context, status int, notice *model.Notice, form model.AccountForm) error {
	list, err := s.admins.List(c.Request().Context())
	if err != nil {
		return err
	}
	me := currentAdmin(c)
	m := model.AdminAccounts{AdminPage: s.adminPage(c, "Accounts"), Notice: notice, New: form}
	for _, a := range list {
		m.Accounts = append(m.Accounts, model.AdminAccountRow{
			Email: a.Email, Role: string(a.Role), RoleLabel: a.Role.Label(), URL: accountURL(a.ID),
			Since: a.CreatedAt.In(s.loc).Format("2 Jan 2006"), You: a.ID == me.ID,
		})
	}
	return s.render(c, status, pages.AdminAccounts(m))
}

// handleAdminAccountCreate is POST /admin/accounts: email, password, role.
func (s *Server) handleAdminAccountCreate(c echo.Context) error {
	email, password := booking.NormalizeEmail(c.FormValue("email")), c.FormValue("password")
	role, err := booking.ParseRole(c.FormValue("role"))
	if err == nil {
		_, err = s.admins.Create(c.Request().Context(), email, password, role)
	}
	if err != nil {
		status, err2 := accountStatus(err)
		if err2 != nil {
			return err2
		}
		return s.renderAccounts(c, status, refusal(err), accountForm(accountsPath, true, email, role, err))
	}
	s.log.InfoContext(c.Request().Context(), "account added", "account", email, "role", role, "by", currentAdmin(c).Email, "request_id", requestIDOf(c))
	return redirect(c, accountsPath+"?saved="+urlQuery(email))
}

// handleAdminAccount is GET /admin/accounts/:id.
func (s *Server) handleAdminAccount(c echo.Context) error {
	a, err := s.admins.Admin(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return s.renderAccount(c, http.StatusOK, a, accountForm(accountURL(a.ID), false, a.Email, a.Role, nil), nil)
}

func (s *Server) renderAccount(c echo.Context, status int, a booking.Admin, form model.AccountForm, notice *model.Notice) error {
	me := currentAdmin(c)
	m := model.AdminAccount{AdminPage: s.adminPage(c, a.Email), Notice: notice, Email: a.Email, You: a.ID == me.ID, Form: form}
	if !m.You {
		m.DeleteAction = accountURL(a.ID) + "/delete"
	}
	return s.render(c, status, pages.AdminAccount(m))
}

// handleAdminAccountUpdate is POST /admin/accounts/:id: a role, and a new
// password or none. Either change signs the account out of its other
// sessions; the admin's own session, when the account is theirs, stays
// signed in (as staff, it goes to the door).
func (s *Server) handleAdminAccountUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	a, err := s.admins.Admin(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	role, err := booking.ParseRole(c.FormValue("role"))
	u := booking.AdminUpdate{ID: a.ID, Role: role}
	if p := c.FormValue("password"); err == nil && p != "" {
		u.PasswordHash, err = s.admins.HashPassword(p)
	}
	var saved booking.Admin
	if err == nil {
		saved, err = s.admins.Update(ctx, u)
	}
	if err != nil {
		status, err2 := accountStatus(err)
		if err2 != nil {
			return err2
		}
		if role == "" {
			role = a.Role
		}
		return s.renderAccount(c, status, a, accountForm(accountURL(a.ID), false, a.Email, role, err), refusal(err))
	}
	if saved.SessionVersion != a.SessionVersion {
		s.log.InfoContext(ctx, "account changed; its other sessions are signed out", "account", saved.Email, "role", saved.Role,
			"password_changed", u.PasswordHash != "", "by", currentAdmin(c).Email, "request_id", requestIDOf(c))
	}
	if saved.ID == currentAdmin(c).ID {
		s.remember(c, saved)
		if saved.Role != booking.RoleAdmin {
			return redirect(c, homeOf(saved))
		}
	}
	return redirect(c, accountsPath+"?saved="+urlQuery(saved.Email))
}

// errDeleteSelf keeps an admin from locking themselves out by accident.
var errDeleteSelf = &booking.Error{Code: booking.ECONFLICT, Message: "You cannot delete the account you are signed in with; another admin can."}

// handleAdminAccountDelete is POST /admin/accounts/:id/delete.
func (s *Server) handleAdminAccountDelete(c echo.Context) error {
	ctx := c.Request().Context()
	a, err := s.admins.Admin(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	if a.ID == currentAdmin(c).ID {
		err = errDeleteSelf
	} else {
		err = s.admins.Delete(ctx, a.ID)
	}
	if err != nil {
		status, err2 := accountStatus(err)
		if err2 != nil {
			return err2
		}
		return s.renderAccount(c, status, a, accountForm(accountURL(a.ID), false, a.Email, a.Role, nil), refusal(err))
	}
	s.log.InfoContext(ctx, "account deleted", "account", a.Email, "by", currentAdmin(c).Email, "request_id", requestIDOf(c))
	return redirect(c, accountsPath+"?deleted="+urlQuery(a.Email))
}
