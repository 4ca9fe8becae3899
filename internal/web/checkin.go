package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// handleDoor is GET /admin/checkin?show=ID&code=CODE: the door, for staff
// and admins. Without show it admits to the first show starting within two
// hours or running now; with code it looks the ticket up and admits
// nothing.
func (s *Server) handleDoor(c echo.Context) error {
	showID := c.QueryParam("show")
	m, err := s.doorModel(c, showID, c.QueryParams().Has("show"))
	if err != nil {
		return err
	}
	if code := c.QueryParam("code"); strings.TrimSpace(code) != "" {
		ck, err := s.svc.LookUpTicket(c.Request().Context(), code, m.ShowID)
		if err != nil {
			return err
		}
		m.Result = s.doorResult(ck, code, m.ShowID)
	}
	return s.renderDoor(c, http.StatusOK, m)
}

// handleDoorAdmit is POST /admin/checkin, fields code and show ("" or
// absent for any show): the ticket is admitted at once, exactly once
// however many doors scan it. An unknown code is 200 and refused; only no
// code at all is 422.
func (s *Server) handleDoorAdmit(c echo.Context) error {
	ctx := c.Request().Context()
	code, showID := c.FormValue("code"), c.FormValue("show")
	m, err := s.doorModel(c, showID, true)
	if err != nil {
		return err
	}
	if strings.TrimSpace(code) == "" {
		m.CodeErr = "Type or scan a ticket code."
		return s.renderDoor(c, http.StatusUnprocessableEntity, m)
	}
	ck, err := s.svc.AdmitTicket(ctx, code, showID, currentAdmin(c).Email)
	if err != nil {
		return err
	}
	m.Result = s.doorResult(ck, code, showID)
	if ck.Result == booking.CheckinAdmitted {
		m.Count.Admitted += len(ck.Booking.SeatIDs) // counted before the admission
		s.log.InfoContext(ctx, "ticket admitted", "booking", ck.Booking.ID, "show", ck.Booking.ShowID, "by", currentAdmin(c).Email, "request_id", requestIDOf(c))
	}
	return s.renderDoor(c, http.StatusOK, m)
}

func (s *Server) renderDoor(c echo.Context, status int, m model.Door) error {
	// The camera is for this page only (Permissions-Policy elsewhere
	// denies it).
	c.Response().Header().Set("Permissions-Policy", "camera=(self), microphone=(), geolocation=(), payment=()")
	return s.render(c, status, pages.Door(m))
}

// doorModel is the door with its show chooser: the shows starting within
// two hours or running now, the chosen one (given, or by default the
// first of those) even when it is not among them, and "any show".
func (s *Server) doorModel(c echo.Context, showID string, given bool) (model.Door, error) {
	ctx := c.Request().Context()
	shows, err := s.svc.DoorShows(ctx)
	if err != nil {
		return model.Door{}, err
	}
	if !given && len(shows) > 0 {
		showID = shows[0].ID
	}
	m := model.Door{AdminPage: s.adminPage(c, "Door"), ShowID: showID}
	listed := false
	for _, sh := range shows {
		listed = listed || sh.ID == showID
		m.Shows = append(m.Shows, model.Option{Value: sh.ID, Label: s.doorShowLabel(sh), Selected: sh.ID == showID})
	}
	if showID != "" && !listed {
		sh, err := s.svc.Show(ctx, showID)
		switch {
		case booking.ErrorCode(err) == booking.ENOTFOUND:
			return model.Door{}, booking.Errorf(booking.EINVALID, "There is no such show to admit to; choose one from the list.")
		case err != nil:
			return model.Door{}, err
		}
		m.Shows = append([]model.Option{{Value: sh.ID, Label: s.doorShowLabel(sh), Selected: true}}, m.Shows...)
	}
	m.Shows = append(m.Shows, model.Option{Value: "", Label: "Any show (no check of the show)", Selected: showID == ""})
	if showID != "" {
		if m.Count, err = s.svc.DoorCount(ctx, showID); err != nil {
			return model.Door{}, err
		}
		m.Counted = true
	}
	return m, nil
}

// doorShowLabel names a show for the door: time, film and screen.
func (s *Server) doorShowLabel(sh booking.Show) string {
	v := s.showModel(sh)
	return v.When() + " · " + v.Title + " · " + v.Screen + " · " + v.Theatre
}

// doorResult says what the door found, in words for the person at it and
// in SPEC §11's hooks.
func (s *Server) doorResult(ck booking.Checkin, typed, showID string) *model.DoorResult {
	r := &model.DoorResult{Checkin: string(ck.Result), Reason: string(ck.Reason), Code: ck.Code}
	if r.Code == "" {
		r.Code = booking.Truncate(strings.TrimSpace(typed), 20)
	}
	b := ck.Booking
	if ck.Show.ID != "" {
		v := s.showModel(ck.Show)
		r.Show = v.Title + " · " + v.When() + " · " + v.Screen + ", " + v.Theatre
		n := len(b.SeatIDs)
		r.Seats = strconv.Itoa(n) + " seat" + plural(n) + ": " + strings.Join(b.SeatIDs, ", ")
	}
	switch ck.Result {
	case booking.CheckinValid:
		r.Headline, r.AdmitForm = "Valid ticket, not yet admitted", true
	case booking.CheckinAdmitted:
		r.Headline = "Admitted"
	case booking.CheckinAlready:
		r.AdmittedAt = serverNow(b.AdmittedAt)
		r.Headline = "Already admitted"
		r.Detail = "Admitted at " + b.AdmittedAt.In(s.showLocation(ck.Show)).Format("15:04, Mon 2 Jan") + " by " + b.AdmittedBy + "."
	case booking.CheckinRefused:
		switch ck.Reason {
		case booking.RefusedUnknown:
			r.Headline, r.Detail = "Unknown ticket", "No booking has this code. Check that it was typed right."
		case booking.RefusedOtherShow:
			r.Headline, r.Detail = "Not for this show", "This ticket is for another show."
		case booking.RefusedNotConfirmed:
			r.Headline, r.Detail = "Not paid", "This booking was never confirmed."
		case booking.RefusedRefunded:
			r.Headline, r.Detail = "Refunded", "This booking was refunded (or is due a refund), so the ticket is void."
		case booking.RefusedCancelled:
			r.Headline, r.Detail = "Show cancelled", "This ticket's show was cancelled."
		}
	}
	return r
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
