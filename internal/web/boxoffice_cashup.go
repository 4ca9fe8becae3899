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

// cashUpCols are the cash-up's columns (SPEC §20), in order.
var cashUpCols = []string{"sales", "seats", "cash", "card", "comp", "cash_refunds", "card_refunds", "net"}

// handleCashUp is GET /admin/boxoffice/cashup?date=YYYY-MM-DD&theatre=ID
// (&format=csv): per staff account, the box-office day of that theatre's
// shows (SPEC §16); staff see their own row, admins everyone's. The
// theatre may be left out when there is one; the date defaults to today
// in the theatre's zone.
func (s *Server) handleCashUp(c echo.Context) error {
	ctx, loc := c.Request().Context(), localizer(c)
	theatres, err := s.catalog.ListTheatres(ctx)
	if err != nil {
		return err
	}
	m := model.CashUp{AdminPage: s.adminPage(c, loc.T("counter.cashup.title"))}
	id := c.QueryParam("theatre")
	if id == "" && len(theatres) > 0 {
		id = theatres[0].ID
	}
	var th booking.Theatre
	found := false
	for _, t := range theatres {
		m.Theatres = append(m.Theatres, model.Option{Value: t.ID, Label: t.Name, Selected: t.ID == id})
		if t.ID == id {
			th, found = t, true
		}
	}
	switch {
	case len(theatres) == 0:
		m.Notice = &model.Notice{Kind: "info", Text: loc.T("counter.cashup.no_theatre")}
		return s.render(c, http.StatusOK, pages.CashUpPage(m))
	case !found:
		return booking.Errorf(booking.ENOTFOUND, "%s", loc.T("counter.cashup.no_such_theatre"))
	case len(theatres) > 1 && c.QueryParam("theatre") == "" && c.QueryParam("format") == "csv":
		return booking.Errorf(booking.EINVALID, "Choose a theatre: theatre=ID.")
	}
	m.Theatre = th.Name
	m.Date = c.QueryParam("date")
	if m.Date == "" {
		loc, err := th.Location()
		if err != nil {
			loc = time.Local
		}
		m.Date = s.svc.Now().Now.In(loc).Format(time.DateOnly)
	}
	staff := ""
	if adm := currentAdmin(c); adm.Role != booking.RoleAdmin {
		staff = adm.Email
	}
	rows, err := s.svc.CashUp(ctx, th, m.Date, staff)
	if err != nil {
		return err
	}
	if c.QueryParam("format") == "csv" {
		return writeCashUpCSV(c, th, m.Date, rows)
	}
	if day, err := time.Parse(time.DateOnly, m.Date); err == nil {
		m.DateLabel = loc.Date(day, "Monday 2 January 2006")
	}
	q := url.Values{"date": {m.Date}, "theatre": {th.ID}, "format": {"csv"}}
	m.CSVURL = counterCashUp + "?" + q.Encode()
	for _, r := range rows {
		row := model.CashUpRow{Staff: r.Staff}
		for i, v := range cashUpValues(r) {
			text := strconv.FormatInt(v, 10)
			if col := cashUpCols[i]; col != "sales" && col != "seats" && col != "comp" {
				text = loc.Money(v, th.Currency)
			}
			row.Cells = append(row.Cells, model.CashUpCell{Col: cashUpCols[i], Value: v, Text: text})
		}
		m.Rows = append(m.Rows, row)
	}
	return s.render(c, http.StatusOK, pages.CashUpPage(m))
}

// cashUpValues are r's cells in cashUpCols' order: counts, and amounts in
// minor units.
func cashUpValues(r booking.CashUpRow) []int64 {
	return []int64{int64(r.Sales), int64(r.Seats), int64(r.Cash), int64(r.Card), int64(r.Comp),
		int64(r.CashRefunds), int64(r.CardRefunds), int64(r.Net())}
}

// writeCashUpCSV writes the cash-up as CSV: a header, then one line per
// staff account, amounts in minor units.
func writeCashUpCSV(c echo.Context, th booking.Theatre, date string, rows []booking.CashUpRow) error {
	cw := csv.NewWriter(startCSV(c, "cashup-"+safeFilePart(th.ID)+"-"+safeFilePart(date)))
	if err := cw.Write(append([]string{"date", "theatre", "staff", "currency"}, cashUpCols...)); err != nil {
		return err
	}
	for _, r := range rows {
		line := []string{date, csvCell(th.ID), csvCell(r.Staff), th.Currency}
		for _, v := range cashUpValues(r) {
			line = append(line, strconv.FormatInt(v, 10))
		}
		if err := cw.Write(line); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
