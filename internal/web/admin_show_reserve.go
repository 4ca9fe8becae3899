package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
)

// handleAdminShowReserve is POST /admin/shows/:showID/reserve (SPEC §20's
// reserve hook), fields seat (repeated) and reserve: house, blocked or
// none (release to online sale). 303 to the show's admin page; seats that
// cannot be reserved are 409, the page marking each with data-conflict;
// an unknown reserve or seat 422. Nothing changes unless all of it can.
func (s *Server) handleAdminShowReserve(c echo.Context) error {
	ctx := c.Request().Context()
	showID := c.Param("showID")
	form, err := c.FormParams()
	if err != nil {
		return booking.Errorf(booking.EINVALID, "The form could not be read.")
	}
	r, err := booking.ParseReserve(strings.TrimSpace(form.Get("reserve")))
	if err != nil {
		return err
	}
	ids := form["seat"]
	err = s.svc.ReserveSeats(ctx, showID, ids, r)
	var conflict *booking.ReserveConflictError
	if errors.As(err, &conflict) {
		notice := &model.Notice{Kind: "error", Text: conflict.Error()}
		return s.renderAdminShowSent(c, http.StatusConflict, notice, adminShowSent{conflicts: conflict.Seats})
	}
	if err != nil {
		return err
	}
	s.log.InfoContext(ctx, "seats reserved", "show_id", showID, "seats", strings.Join(booking.NormalizeSeatIDs(ids), ","),
		"reserve", form.Get("reserve"), "admin", currentAdmin(c).Email, "request_id", requestIDOf(c))
	return redirect(c, adminShowURL(showID)+"?reserved=1")
}

// handleAdminShowCutoff is POST /admin/shows/:showID/cutoff (SPEC §20's
// online cut-off hook), field seats: a whole number, 0 turning it off.
// 303 to the show's admin page; anything else 422 with the page and its
// form again.
func (s *Server) handleAdminShowCutoff(c echo.Context) error {
	ctx := c.Request().Context()
	showID := c.Param("showID")
	raw := strings.TrimSpace(c.FormValue("seats"))
	n, perr := strconv.Atoi(raw)
	var err error
	if perr != nil || n < 0 {
		err = booking.InvalidFields{{Field: "seats", Message: "The online cut-off is a whole number of seats, 0 or more (0 turns it off)."}}
	} else {
		err = s.svc.SetOnlineCutoff(ctx, showID, n)
	}
	if err == nil {
		s.log.InfoContext(ctx, "online cut-off set", "show_id", showID, "seats", n, "admin", currentAdmin(c).Email,
			"request_id", requestIDOf(c))
		return redirect(c, adminShowURL(showID)+"?cutoff=1")
	}
	status, serr := accountStatus(err)
	if serr != nil {
		return serr
	}
	field := cutoffField(raw)
	field.Error = booking.ErrorMessage(err)
	return s.renderAdminShowSent(c, status, refusal(err), adminShowSent{cutoff: &field})
}

func cutoffField(value string) model.Field {
	return model.Field{Name: "seats", Label: "Online cut-off (seats)", Value: value,
		Hint: "Online sales stop while at most this many seats are available online; the counter sells the rest. 0: no cut-off."}
}

// cutoffModel is the show's online cut-off on its admin page, with its
// form (sent, when not nil, as the admin sent it).
func cutoffModel(show booking.Show, occ booking.Occupancy, sent *model.Field) model.OnlineCutoff {
	o := model.OnlineCutoff{Seats: show.OnlineCutoff, Closed: show.OnlineClosedAt(occ.Available),
		Action: adminShowURL(show.ID) + "/cutoff", Field: cutoffField(strconv.Itoa(show.OnlineCutoff))}
	if sent != nil {
		o.Field = *sent
	}
	return o
}
