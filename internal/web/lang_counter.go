package web

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
)

// What the sign-in, the door and the box office share to speak the
// page's language (SPEC §19): waits, and a show's date with its month and
// weekday names in the language.

// localWait is waitText in loc's language: "40 seconds", "12 minutes",
// "1 hour 30 minutes" (from 90 seconds on, rounded up to the minute).
func localWait(loc *i18n.Localizer, d time.Duration) string {
	secs := int((d + time.Second - 1) / time.Second)
	if secs < 90 {
		return loc.N("login.seconds", secs)
	}
	mins := (secs + 59) / 60
	var parts []string
	if h := mins / 60; h > 0 {
		parts = append(parts, loc.N("login.hours", h))
	}
	if m := mins % 60; m > 0 {
		parts = append(parts, loc.N("login.minutes", m))
	}
	return strings.Join(parts, " ")
}

// counterAdminShow is adminShowModel with its date in loc's language.
func (s *Server) counterAdminShow(loc *i18n.Localizer, sh booking.Show) model.Show {
	m := s.adminShowModel(sh)
	t, _ := s.showClock(sh)
	m.Date = loc.Date(t, "Mon 2 Jan")
	return m
}

// counterErrors are the domain's refusals the counter's pages say in
// their language, by sentinel.
var counterErrors = errorTexts{
	{booking.ErrBoxOfficeClosed, "counter.err.closed"},
	{booking.ErrShowCancelled, "counter.err.show_cancelled"},
	{booking.ErrHoldExpired, "counter.err.hold_expired"},
	{booking.ErrHoldReleased, "counter.err.hold_released"},
	{booking.ErrHoldReplaced, "counter.err.hold_replaced"},
	{booking.ErrHoldCompleted, "counter.err.hold_completed"},
	{booking.ErrRefundOnline, "counter.err.refund_online"},
	{booking.ErrAlreadyRefunded, "counter.err.already_refunded"},
	{booking.ErrRefundAdmitted, "counter.err.refund_admitted"},
	{booking.ErrRefundUnconfirmed, "counter.err.refund_unconfirmed"},
	{booking.ErrRefundStarted, "counter.err.refund_started"},
}

// counterText is what the domain says of err at the box office, in the
// page's language: a refusal of a hold, a sale or a refund. English, and
// an error without a message here, read as the domain wrote them.
func counterText(c echo.Context, err error) string {
	loc := localizer(c)
	if err == nil || loc.Lang == i18n.English {
		return booking.ErrorMessage(err)
	}
	var (
		taken  *booking.UnavailableError
		choice *booking.TypeChoiceError
	)
	switch {
	case errors.As(err, &taken):
		return loc.N("counter.err.taken", len(taken.Seats), "Seats", strings.Join(taken.Seats, ", "))
	case errors.As(err, &choice):
		method, reason := c.FormValue("method"), c.FormValue("reason")
		switch {
		case choice.Rule == booking.RuleAccompanied:
			return loc.T("counter.err.accompanied")
		case choice.Seat != "":
			typ := fmt.Sprintf("%q", booking.Truncate(c.FormValue(typeField(choice.Seat)), 20))
			return loc.F("counter.err.not_offered", "Seat", choice.Seat, "Type", typ)
		case choice.Rule == booking.RuleReason && strings.TrimSpace(reason) == "":
			return loc.T("counter.err.reason_required")
		case choice.Rule == booking.RuleReason:
			return loc.F("counter.err.reason_too_long", "Max", maxCompReasonRunes)
		case choice.Rule == booking.RuleMethod && strings.HasSuffix(c.Path(), "/refund"):
			return loc.T("counter.err.refund_method")
		case choice.Rule == booking.RuleMethod && slices.Contains([]string{"cash", "card", "comp"}, method):
			return loc.F("counter.err.card_ref_too_long", "Max", maxCardRefRunes)
		case choice.Rule == booking.RuleMethod:
			return loc.T("counter.err.method")
		}
	}
	if id, ok := counterErrors.find(err); ok {
		return loc.T(id)
	}
	return booking.ErrorMessage(err)
}

// The longest comp reason and card reference the counter takes
// (booking.CheckCounterSale), as its refusals name them.
const (
	maxCompReasonRunes = 120
	maxCardRefRunes    = 40
)

// counterFindText is Service.FindAtCounter's refusal (EINVALID) of the
// search q in loc's language: nothing typed, an @ that is not an email
// address, or neither a ticket code nor an email address.
func counterFindText(loc *i18n.Localizer, q string, err error) string {
	if loc.Lang == i18n.English {
		return booking.ErrorMessage(err)
	}
	q = strings.TrimSpace(q)
	quoted := fmt.Sprintf("%q", booking.Truncate(q, 60))
	switch {
	case q == "":
		return loc.T("counter.err.find_empty")
	case strings.Contains(q, "@"):
		return loc.F("counter.err.find_not_email", "Query", quoted)
	}
	return loc.F("counter.err.find_neither", "Query", quoted)
}
