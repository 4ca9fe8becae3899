package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// Theatres in the catalog: the form, create, update and delete.

func theatreFields(t booking.Theatre, tax booking.TaxText) []model.Field {
	return []model.Field{
		{Name: "name", Label: "Name", Value: t.Name},
		{Name: "city", Label: "City", Value: t.City},
		{Name: "time_zone", Label: "Time zone", Value: t.TimeZone, List: theatreZones, Autocomplete: "off",
			Hint: "IANA name, like Asia/Kolkata or Europe/London (type to choose from the list, or any other IANA name): show times are entered and shown in it."},
		{Name: "currency", Label: "Currency", Value: t.Currency, Hint: "ISO 4217 code, one of " + strings.Join(booking.Currencies(), ", ") + ": its shows are priced in it. It can change only while the theatre has no show and no price card."},
		{Name: "tax_rate", Label: "Tax rate (%)", Value: tax.Rate, Hint: "Included in its prices, up to two decimals, like 18 or 12.5; 0 for none. A seat keeps the rate it was sold at."},
		{Name: "tax_above", Label: "Second rate above (price)", Value: tax.Above, Hint: "Optional: a price above which the second rate applies instead (India's GST taxes a ticket by its price). Empty for none."},
		{Name: "tax_rate_above", Label: "Second tax rate (%)", Value: tax.AboveRate, Hint: "The rate on prices above that threshold."},
	}
}

// taxText is t's tax rates as its form shows them.
func taxText(t booking.Theatre) booking.TaxText {
	out := booking.TaxText{Rate: t.Tax.Rate.String()}
	if t.Tax.Above > 0 {
		out.Above, out.AboveRate = t.Tax.Above.Major(t.Currency), t.Tax.AboveRate.String()
	}
	return out
}

// theatreZones are the time zones the theatre form suggests: the common
// ones of the places cinemas are, by region, each an IANA name that
// time.LoadLocation knows (the binary embeds time/tzdata). Any other IANA
// name may still be typed.
var theatreZones = []string{
	"Asia/Kolkata", "Asia/Dubai", "Asia/Karachi", "Asia/Dhaka", "Asia/Kathmandu", "Asia/Colombo",
	"Asia/Bangkok", "Asia/Jakarta", "Asia/Singapore", "Asia/Kuala_Lumpur", "Asia/Manila", "Asia/Hong_Kong",
	"Asia/Shanghai", "Asia/Taipei", "Asia/Seoul", "Asia/Tokyo", "Asia/Riyadh", "Asia/Tehran", "Asia/Jerusalem",
	"Australia/Perth", "Australia/Adelaide", "Australia/Brisbane", "Australia/Sydney", "Australia/Melbourne", "Pacific/Auckland",
	"Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Paris", "Europe/Berlin", "Europe/Madrid", "Europe/Rome",
	"Europe/Amsterdam", "Europe/Brussels", "Europe/Zurich", "Europe/Vienna", "Europe/Stockholm", "Europe/Warsaw",
	"Europe/Athens", "Europe/Helsinki", "Europe/Istanbul", "Europe/Moscow",
	"Africa/Cairo", "Africa/Johannesburg", "Africa/Lagos", "Africa/Nairobi", "Africa/Casablanca",
	"America/New_York", "America/Toronto", "America/Chicago", "America/Mexico_City", "America/Denver", "America/Phoenix",
	"America/Los_Angeles", "America/Vancouver", "America/Anchorage", "Pacific/Honolulu",
	"America/Bogota", "America/Lima", "America/Santiago", "America/Buenos_Aires", "America/Sao_Paulo",
	"UTC",
}

func theatreFromForm(c echo.Context) (booking.Theatre, booking.TaxText) {
	return booking.Theatre{Name: c.FormValue("name"), City: c.FormValue("city"), TimeZone: c.FormValue("time_zone"), Currency: c.FormValue("currency")},
		booking.TaxText{Rate: c.FormValue("tax_rate"), Above: c.FormValue("tax_above"), AboveRate: c.FormValue("tax_rate_above")}
}

// handleAdminTheatreNew is GET /admin/theatres/new.
func (s *Server) handleAdminTheatreNew(c echo.Context) error {
	return s.render(c, http.StatusOK, pages.AdminForm(s.form(c, "New theatre", "/admin/theatres", "Create theatre",
		theatreFields(booking.Theatre{TimeZone: s.defaultZoneName(), Currency: "INR"}, booking.TaxText{Rate: "0"}), nil)))
}

// defaultZoneName is the server's zone (TZ) as an IANA name for a new
// theatre's form, "" when it has none ("Local").
func (s *Server) defaultZoneName() string {
	if name := s.loc.String(); name != "Local" && name != "" {
		return name
	}
	return ""
}

// handleAdminTheatreCreate is POST /admin/theatres.
func (s *Server) handleAdminTheatreCreate(c echo.Context) error {
	t, tax := theatreFromForm(c)
	_, err := s.catalog.SaveTheatreTaxed(c.Request().Context(), t, tax)
	if ok, err := saveOrShow(err, func(err error) error {
		return s.render(c, formStatus(err), pages.AdminForm(s.form(c, "New theatre", "/admin/theatres", "Create theatre", theatreFields(t, tax), err)))
	}); !ok {
		return err
	}
	return redirect(c, catalogPath+"?saved="+urlQuery(t.Name))
}

// handleAdminTheatre is GET /admin/theatres/:id.
func (s *Server) handleAdminTheatre(c echo.Context) error {
	t, err := s.catalog.Theatre(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.AdminForm(s.theatreForm(c, t, taxText(t), nil)))
}

func (s *Server) theatreForm(c echo.Context, t booking.Theatre, tax booking.TaxText, err error) model.AdminForm {
	f := s.form(c, "Theatre "+t.Name, "/admin/theatres/"+t.ID, "Save theatre", theatreFields(t, tax), err)
	f.DeleteAction = "/admin/theatres/" + t.ID + "/delete"
	f.Links = []model.Option{{Value: typesURL(t.ID), Label: "Ticket types"}, {Value: cardsURL(t.ID), Label: "Price cards"}}
	return f
}

// handleAdminTheatreUpdate is POST /admin/theatres/:id.
func (s *Server) handleAdminTheatreUpdate(c echo.Context) error {
	ctx := c.Request().Context()
	old, err := s.catalog.Theatre(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	t, tax := theatreFromForm(c)
	t.ID = old.ID
	_, err = s.catalog.SaveTheatreTaxed(ctx, t, tax)
	if ok, err := saveOrShow(err, func(err error) error {
		return s.render(c, formStatus(err), pages.AdminForm(s.theatreForm(c, t, tax, err)))
	}); !ok {
		return err
	}
	return redirect(c, catalogPath+"?saved="+urlQuery(t.Name))
}

// handleAdminTheatreDelete is POST /admin/theatres/:id/delete.
func (s *Server) handleAdminTheatreDelete(c echo.Context) error {
	return s.deleted(c, s.catalog.DeleteTheatre(c.Request().Context(), c.Param("id")))
}
