package web

import (
	"context"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
)

// openingTime is how a sales opening is shown to people, in the show's
// theatre's zone.
const openingTime = "Mon 2 Jan 2006 15:04 MST"

// handleAdminShowOpens is POST /admin/shows/:showID/opens (SPEC §20's
// sales opening hook), field at: RFC 3339, or a datetime-local value read
// in the show's theatre's zone (the page's form); empty clears it. 303 to
// the show's admin page; a malformed time 422, a cancelled show or one an
// open on-sale covers 409, each with the page and its form again.
func (s *Server) handleAdminShowOpens(c echo.Context) error {
	ctx := c.Request().Context()
	showID := c.Param("showID")
	show, err := s.svc.Show(ctx, showID)
	if err != nil {
		return err
	}
	raw := strings.TrimSpace(c.FormValue("at"))
	field := openingField(raw)
	var at time.Time
	if raw != "" {
		var ok bool
		if at, ok = parseAdminTime(raw, s.showLocation(show)); !ok {
			err = booking.InvalidFields{{Field: "at", Message: "The sales opening must be a date and time (RFC 3339, or YYYY-MM-DDTHH:MM in the theatre's zone), or empty to clear it."}}
		}
	}
	if err == nil {
		if show, err = s.svc.SetSalesOpening(ctx, showID, at); err == nil {
			s.log.InfoContext(ctx, "sales opening set", "show_id", showID, "opens_at", at, "admin", currentAdmin(c).Email,
				"request_id", requestIDOf(c))
			return redirect(c, adminShowURL(showID)+"?opening=1")
		}
	}
	status, serr := accountStatus(err)
	if serr != nil {
		return serr
	}
	field.Error = booking.ErrorMessage(err)
	return s.renderAdminShow(c, status, refusal(err), &field)
}

func openingField(value string) model.Field {
	return model.Field{Name: "at", Label: "Sales open", Value: value,
		Hint: "Online sales start then; before it the seat map says when. Empty: on sale now."}
}

// salesOpeningModel is the show's sales opening on its admin page at now,
// with its form unless the show is cancelled or an open on-sale covers
// it; sent, when not nil, is the form as the admin sent it.
func (s *Server) salesOpeningModel(ctx context.Context, show booking.Show, now time.Time, sent *model.Field) (model.SalesOpening, error) {
	loc := s.showLocation(show)
	o := model.SalesOpening{Zone: loc.String(), Pending: show.NotOpenYet(now)}
	if !show.SalesOpenAt.IsZero() {
		o.At = show.SalesOpenAt.Format(time.RFC3339)
		o.Text = show.SalesOpenAt.In(loc).Format(openingTime)
	}
	if show.Cancelled() {
		return o, nil
	}
	open, err := s.svc.OpenOnSales(ctx, now)
	if err != nil {
		return o, err
	}
	for _, on := range open {
		if on.Covers(show.ID) {
			o.OnSale, o.OnSaleURL = on.Name, onSaleURL(on.ID)
			return o, nil
		}
	}
	o.Action = adminShowURL(show.ID) + "/opens"
	o.Field = openingField(localValue(show.SalesOpenAt, loc))
	if sent != nil {
		o.Field = *sent
	}
	if o.Zone == "" || o.Zone == "Local" {
		o.Zone, _ = now.In(loc).Zone()
	}
	return o, nil
}
