package web

import (
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// salesReportPath is the sales report (SPEC §17).
const salesReportPath = "/admin/reports/sales"

// handleAdminSalesReport is GET /admin/reports/sales?from=YYYY-MM-DD&to=
// YYYY-MM-DD (&format=csv): the sales report of those sale days, the last
// seven (through today) without them. A range that is not one
// (booking.ParseSalesRange) is 422 saying why, on the report's own page
// (refuseSalesReport).
func (s *Server) handleAdminSalesReport(c echo.Context) error {
	today := booking.DayOf(s.svc.Now().Now, s.loc)
	first, last, err := booking.ParseSalesRange(c.QueryParam("from"), c.QueryParam("to"), today)
	if err != nil {
		return s.refuseSalesReport(c, err, first, last)
	}
	asCSV, err := reportAsCSV(c)
	if err != nil {
		return s.refuseSalesReport(c, err, first, last)
	}
	r, err := s.svc.SalesReport(c.Request().Context(), first, last, s.providerName(), s.loc)
	if err != nil {
		return err
	}
	if asCSV {
		return writeSalesReportCSV(startCSV(c, "sales-"+first.Format(booking.DateLayout)+"-"+last.Format(booking.DateLayout)), r)
	}
	return s.render(c, http.StatusOK, pages.AdminSalesReport(s.salesReportModel(c, r)))
}

// refuseSalesReport answers a range or format the sales report refused
// (EINVALID) with 422 on the report's own page rather than the error
// page: the message, the pickers as they were filled in, a link to a
// range it can show when first and last are dates (the two swapped, the
// longest range that ends on last, or the page of a range refused only
// its format), and one back to the last seven days.
func (s *Server) refuseSalesReport(c echo.Context, err error, first, last time.Time) error {
	if booking.ErrorCode(err) != booking.EINVALID {
		return err
	}
	var links []model.ReportLink
	if !first.IsZero() && !last.IsZero() {
		fix := booking.SalesReport{From: first, To: last}
		label := "Show " + first.Format(booking.DateLayout) + " to " + last.Format(booking.DateLayout)
		switch days := int(last.Sub(first).Hours()/24) + 1; {
		case days < 1:
			fix.From, fix.To = last, first
			label = "Show " + last.Format(booking.DateLayout) + " to " + first.Format(booking.DateLayout)
		case days > booking.MaxSalesReportDays:
			fix.From = last.AddDate(0, 0, 1-booking.MaxSalesReportDays)
			label = "Show the " + strconv.Itoa(booking.MaxSalesReportDays) + " days to " + last.Format(booking.DateLayout)
		}
		links = append(links, model.ReportLink{URL: salesReportURL(fix, ""), Label: label, Rel: "range"})
	}
	links = append(links, model.ReportLink{URL: salesReportPath, Label: "Back to the last seven days", Rel: "back"})
	m := model.SalesReport{
		AdminPage: s.adminPage(c, "Sales report"),
		From:      c.QueryParam("from"),
		To:        c.QueryParam("to"),
		Refused:   &model.ReportRefusal{Message: booking.ErrorMessage(err), Links: links},
	}
	return s.render(c, http.StatusUnprocessableEntity, pages.AdminSalesReport(m))
}

// providerName is the configured payment provider's name (stripe,
// sandbox): the sales report's method of online payments stored without
// one.
func (s *Server) providerName() string {
	if s.opts.Payments == nil {
		return "none"
	}
	return s.opts.Payments.Name()
}

func salesReportURL(r booking.SalesReport, format string) string {
	q := url.Values{"from": {r.From.Format(booking.DateLayout)}, "to": {r.To.Format(booking.DateLayout)}}
	if format != "" {
		q.Set("format", format)
	}
	return salesReportPath + "?" + q.Encode()
}

var channelLabels = map[booking.Channel]string{
	booking.ChannelOnline: "Online", booking.ChannelBoxOffice: "Box office", booking.ChannelUnsold: "Unsold (refunded, never booked)",
}

func (s *Server) salesReportModel(c echo.Context, r booking.SalesReport) model.SalesReport {
	m := model.SalesReport{
		AdminPage: s.adminPage(c, "Sales report"),
		From:      r.From.Format(booking.DateLayout),
		To:        r.To.Format(booking.DateLayout),
		Label:     r.From.Format("Mon 2 Jan 2006") + " – " + r.To.Format("Mon 2 Jan 2006"),
		CSVURL:    salesReportURL(r, "csv"),
	}
	for _, row := range r.Rows {
		if n := len(m.Theatres); n == 0 || m.Theatres[n-1].TheatreID != row.TheatreID {
			m.Theatres = append(m.Theatres, model.SalesReportTheatre{TheatreID: row.TheatreID, Theatre: row.Theatre})
		}
		th := &m.Theatres[len(m.Theatres)-1]
		label := channelLabels[row.Channel]
		if label == "" {
			label = string(row.Channel)
		}
		th.Rows = append(th.Rows, model.SalesReportRow{
			Day: row.Day.Format(booking.DateLayout), DayLabel: row.Day.Format("Mon 2 Jan"),
			Channel: string(row.Channel), ChannelLbl: label, Method: row.Method, Currency: row.Currency,
			TicketType: row.TicketType, TypeName: row.TypeName, All: row.TicketType == booking.AllTypes,
			Cells: salesCells(row.SalesFigures, row.Currency),
		})
	}
	return m
}

// salesCells are f's columns (model.SalesReportColumns) in order.
func salesCells(f booking.SalesFigures, currency string) []model.FilmReportCell {
	count := func(col string, n int) model.FilmReportCell {
		return model.FilmReportCell{Col: col, Value: int64(n), Text: strconv.Itoa(n)}
	}
	money := func(col string, m booking.Money) model.FilmReportCell {
		return model.FilmReportCell{Col: col, Value: int64(m), Text: m.Format(currency)}
	}
	return []model.FilmReportCell{count("bookings", f.Bookings), count("seats", f.Seats), money("gross", f.Gross), money("refunds", f.Refunds)}
}

var salesCSVHeader = []string{"theatre_id", "theatre", "day", "channel", "method", "ticket_type", "type_name",
	"bookings", "seats", "gross", "refunds", "currency"}

// writeSalesReportCSV writes the rows of r as the page shows them, money
// in major units with its currency (SPEC §17), every cell through
// csvCell.
func writeSalesReportCSV(w interface{ Write([]byte) (int, error) }, r booking.SalesReport) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(salesCSVHeader); err != nil {
		return err
	}
	for _, row := range r.Rows {
		rec := []string{row.TheatreID, row.Theatre, row.Day.Format(booking.DateLayout), string(row.Channel), row.Method,
			row.TicketType, row.TypeName, strconv.Itoa(row.Bookings), strconv.Itoa(row.Seats),
			majorUnits(row.Gross, row.Currency), majorUnits(row.Refunds, row.Currency), row.Currency}
		for i := range rec {
			rec[i] = csvCell(rec[i])
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
