package web_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
)

// salesKey names a sales report row by its §20 hooks.
type salesKey struct{ theatre, day, channel, method, typ string }

// salesCells are a row's cells: bookings, seats, gross, refunds.
type salesCells map[string]int64

// salesReportRows reads the sales report page's rows by their hooks.
func salesReportRows(t *testing.T, c *client, path string) map[salesKey]salesCells {
	t.Helper()
	res := c.get(path)
	wantStatus(t, res, http.StatusOK)
	rows := res.doc(t).Find(`tr[data-theatre][data-day][data-channel][data-method][data-ticket-type]`)
	got := map[salesKey]salesCells{}
	for i := range rows.Length() {
		r := rows.Eq(i)
		var k salesKey
		k.theatre, _ = r.Attr("data-theatre")
		k.day, _ = r.Attr("data-day")
		k.channel, _ = r.Attr("data-channel")
		k.method, _ = r.Attr("data-method")
		k.typ, _ = r.Attr("data-ticket-type")
		if _, dup := got[k]; dup {
			t.Errorf("two rows %+v", k)
		}
		got[k] = salesCells{}
		cells := r.Find("[data-col]")
		for j := range cells.Length() {
			col, _ := cells.Eq(j).Attr("data-col")
			v, _ := cells.Eq(j).Attr("data-value")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Errorf("%+v, %s: data-value %q is no number", k, col, v)
			}
			got[k][col] = n
		}
	}
	return got
}

// TestSalesReport: sales online (two types over HTTP, and a senior at
// another show) and at the counter (cash, card and a comp), a late payment, then,
// on the next day in the theatre's zone (still the same day in UTC), a
// show cancelled and its booking refunded in the refund queue, the late
// payment refunded there too, and the cash sale refunded at the counter:
// every cell of the sales report (SPEC §17, §20) and of its CSV; the film
// report's gross of a show sold on its own day agrees with the sales
// report's; a range that is not one is 422.
func TestSalesReport(t *testing.T) {
	a := newCounterApp(t)
	ctx := context.Background()
	// 12:00 UTC on 2026-03-14 is 17:30 in Kolkata.
	if _, err := a.svc.Catalog().SaveTheatre(ctx, booking.Theatre{ID: "t1", Name: "Lalbagh Cinemas", City: "Bengaluru", TimeZone: "Asia/Kolkata", Currency: "INR"}); err != nil {
		t.Fatal(err)
	}
	regal := booking.Theatre{ID: "regal", Name: "Regal", City: "Delhi", TimeZone: "Asia/Kolkata", Currency: "INR"}
	if _, err := a.svc.Catalog().SaveTheatre(ctx, regal); err != nil {
		t.Fatal(err)
	}
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	film := booking.Movie{ID: "tonight", Title: "Tonight", RuntimeMin: 100}
	a.reportShow("tonight", regal, film, time.Date(2026, 3, 14, 20, 0, 0, 0, kolkata))
	t1 := booking.Theatre{ID: "t1", Name: "Lalbagh Cinemas", City: "Bengaluru", TimeZone: "Asia/Kolkata"}
	a.reportShow("doomed", t1, booking.Movie{ID: "m1", Title: "Monsoon Express", RuntimeMin: 148}, testShowStart)

	// Online over HTTP: a child and an adult (90.00 + 180.00).
	buyer := a.client()
	tok, _ := buyer.get("/shows/" + typedShowID).doc(t).Find(`meta[name="csrf-token"]`).Attr("content")
	res := buyer.post("/shows/"+typedShowID+"/holds", url.Values{"_csrf": {tok}, "seat": {"A1", "A2"}})
	wantStatus(t, res, http.StatusSeeOther)
	form := url.Values{"_csrf": {tok}, "email": {testEmail}, "type_A1": {"child"}, "type_A2": {"adult"}}
	res = buyer.post(res.Header.Get("Location")+"/pay", form)
	wantStatus(t, res, http.StatusSeeOther)
	checkout := res.Header.Get("Location")
	paid, err := a.store.Payment(ctx, strings.TrimPrefix(checkout, payment.CheckoutPath))
	if err != nil {
		t.Fatalf("the payment of %s: %v", checkout, err)
	}
	wantStatus(t, a.deliver(a.event(paid, booking.EventPaymentSucceeded)), http.StatusOK)
	if b := a.booking(paid); b.State != booking.BookingConfirmed || b.Amount != 270_00 {
		t.Fatalf("the online booking is %s for %d; want confirmed for 27000", b.State, b.Amount)
	}
	// Online, a senior at another show, cancelled tomorrow: refunded.
	cancelled := a.bookTypedAt("doomed", booking.TypeChoice{"A1": "senior"}, "A1")

	// A payment that lands after its hold lapsed and its seat was taken:
	// due a refund, never a booking.
	owner := booking.NewID()
	holdID, err := a.svc.HoldSeats(ctx, typedShowID, owner, []string{"B2"})
	if err != nil {
		t.Fatal(err)
	}
	started, err := a.svc.StartTypedPayment(ctx, holdID, owner, testEmail, booking.TypeChoice{"B2": "adult"})
	if err != nil {
		t.Fatal(err)
	}
	a.clock.Advance(16 * time.Minute)
	if _, err := a.svc.HoldSeats(ctx, typedShowID, booking.NewID(), []string{"B2"}); err != nil {
		t.Fatal(err)
	}
	p := started.Payment
	st, err := a.svc.SettlePayment(ctx, booking.PaymentEvent{ID: booking.NewID(), Type: booking.EventPaymentSucceeded,
		PaymentID: p.ID, HoldID: holdID, Amount: p.Amount, Currency: p.Currency})
	if err != nil || st.Effect != booking.EffectRefundDue {
		t.Fatalf("the late payment: %v, %v; want refund_due", st.Effect, err)
	}
	late := st.Booking.ID

	// At the counter: cash (an adult and a child), card, a comp.
	staff := a.staffClient(staffEmail, staffPassword)
	cash := staff.mustSell(staff.mustCounterHold("C1", "C2"), url.Values{"method": {"cash"}, "type_C1": {"adult"}, "type_C2": {"child"}})
	staff.mustSell(staff.mustCounterHold("E1"), url.Values{"method": {"card"}, "type_E1": {"adult"}})
	staff.mustSell(staff.mustCounterHold("D2"), url.Values{"method": {"comp"}, "reason": {"critic"}, "type_D2": {"comp"}})
	// Tonight's show at Regal, sold at its counter today: an adult and a
	// comp type, for cash.
	res = staff.post("/admin/boxoffice/holds", url.Values{"_csrf": {staff.counterCSRF()}, "show": {"tonight"}, "seat": {"A1", "A2"}})
	wantStatus(t, res, http.StatusSeeOther)
	staff.mustSell(res.Header.Get("Location"), url.Values{"method": {"cash"}, "type_A1": {"adult"}, "type_A2": {"comp"}})

	// 21:00 UTC: 02:30 on the 15th in Kolkata.
	a.clock.Set(testStart.Add(9 * time.Hour))
	admin := a.staffClient(adminEmail, adminPassword)
	tok = admin.adminCSRF()
	wantStatus(t, admin.post("/admin/shows/doomed/cancel", url.Values{"_csrf": {tok}, "confirm": {"yes"}}), http.StatusSeeOther)
	for _, id := range []string{cancelled.ID, late} {
		wantStatus(t, admin.post("/admin/bookings/"+id+"/refund", url.Values{"_csrf": {tok}}), http.StatusSeeOther)
		if b, _ := a.store.Booking(ctx, id); b.State != booking.BookingRefunded {
			t.Fatalf("booking %s is %s; want refunded", id, b.State)
		}
	}
	wantStatus(t, staff.post("/admin/boxoffice/bookings/"+bookingIDOf(cash)+"/refund", url.Values{"_csrf": {staff.counterCSRF()}}), http.StatusSeeOther)

	const d1, d2 = "2026-03-14", "2026-03-15"
	fig := func(bookings, seats, gross, refunds int64) salesCells {
		return salesCells{"bookings": bookings, "seats": seats, "gross": gross, "refunds": refunds}
	}
	want := map[salesKey]salesCells{
		{"t1", d1, "online", "sandbox", "all"}:    fig(2, 3, 396_00, 0),
		{"t1", d1, "online", "sandbox", "adult"}:  fig(1, 1, 180_00, 0),
		{"t1", d1, "online", "sandbox", "senior"}: fig(1, 1, 126_00, 0),
		{"t1", d1, "online", "sandbox", "child"}:  fig(1, 1, 90_00, 0),
		{"t1", d1, "box_office", "card", "all"}:   fig(1, 1, 250_00, 0),
		{"t1", d1, "box_office", "card", "adult"}: fig(1, 1, 250_00, 0),
		{"t1", d1, "box_office", "cash", "all"}:   fig(1, 2, 270_00, 0),
		{"t1", d1, "box_office", "cash", "adult"}: fig(1, 1, 180_00, 0),
		{"t1", d1, "box_office", "cash", "child"}: fig(1, 1, 90_00, 0),
		{"t1", d1, "box_office", "comp", "all"}:   fig(1, 1, 0, 0),
		{"t1", d1, "box_office", "comp", "comp"}:  fig(1, 1, 0, 0),
		// The next day in Kolkata: the refunds, in the sales' rows.
		{"t1", d2, "online", "sandbox", "all"}:       fig(0, 0, 0, 126_00),
		{"t1", d2, "online", "sandbox", "senior"}:    fig(0, 0, 0, 126_00),
		{"t1", d2, "box_office", "cash", "all"}:      fig(0, 0, 0, 270_00),
		{"t1", d2, "box_office", "cash", "adult"}:    fig(0, 0, 0, 180_00),
		{"t1", d2, "box_office", "cash", "child"}:    fig(0, 0, 0, 90_00),
		{"t1", d2, "unsold", "sandbox", "all"}:       fig(0, 0, 0, 180_00),
		{"regal", d1, "box_office", "cash", "all"}:   fig(1, 2, 180_00, 0),
		{"regal", d1, "box_office", "cash", "adult"}: fig(1, 1, 180_00, 0),
		{"regal", d1, "box_office", "cash", "comp"}:  fig(1, 1, 0, 0),
	}
	got := salesReportRows(t, admin, "/admin/reports/sales?from="+d1+"&to="+d2)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the sales report's cells (-want +got):\n%s", diff)
	}
	// Without a range: the last seven days, through today in the zone
	// the server runs in (UTC: the 14th).
	def := salesReportRows(t, admin, "/admin/reports/sales")
	if def[salesKey{"t1", d1, "online", "sandbox", "all"}]["gross"] != 396_00 {
		t.Errorf("the default range lacks %s: %v", d1, def)
	}
	// One day: only its rows.
	for k := range salesReportRows(t, admin, "/admin/reports/sales?from="+d2+"&to="+d2) {
		if k.day != d2 {
			t.Errorf("the report of %s has a row of %s", d2, k.day)
		}
	}
	if d := admin.get("/admin/reports/films").doc(t); d.Find(`.admin-bar a[href="/admin/reports/sales"]`).Length() != 1 {
		t.Error("the admin navigation does not link the sales report")
	}

	// The CSV: the same rows, money in major units with its currency.
	res = admin.get("/admin/reports/sales?from=" + d1 + "&to=" + d2 + "&format=csv")
	wantStatus(t, res, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("Content-Type %q", ct)
	}
	records, err := csv.NewReader(strings.NewReader(res.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header := []string{"theatre_id", "theatre", "day", "channel", "method", "ticket_type", "type_name", "bookings", "seats", "gross", "refunds", "currency"}
	if len(records) == 0 || !cmp.Equal(records[0], header) {
		t.Fatalf("CSV header %v; want %v", records[:min(1, len(records))], header)
	}
	gotCSV := map[salesKey]salesCells{}
	minor := func(s string) int64 {
		whole, frac, ok := strings.Cut(s, ".")
		w, err1 := strconv.ParseInt(whole, 10, 64)
		f, err2 := strconv.ParseInt(frac, 10, 64)
		if !ok || len(frac) != 2 || err1 != nil || err2 != nil {
			t.Errorf("CSV amount %q is not in major units with two decimals", s)
		}
		return w*100 + f
	}
	for _, r := range records[1:] {
		if r[11] != "INR" {
			t.Errorf("CSV row %v: currency %q; want INR", r, r[11])
		}
		if _, err := time.Parse(booking.DateLayout, r[2]); err != nil {
			t.Errorf("CSV day %q is not YYYY-MM-DD", r[2])
		}
		bookings, _ := strconv.ParseInt(r[7], 10, 64)
		seats, _ := strconv.ParseInt(r[8], 10, 64)
		gotCSV[salesKey{r[0], r[2], r[3], r[4], r[5]}] = fig(bookings, seats, minor(r[9]), minor(r[10]))
	}
	if diff := cmp.Diff(want, gotCSV); diff != "" {
		t.Errorf("the sales report's CSV (-want +got):\n%s", diff)
	}

	// The film report of the week of the 14th counts tonight's show by its
	// date: the same gross as the sales of that day at Regal, all of them
	// for it.
	week := booking.WeekStart(time.Date(2026, 3, 14, 0, 0, 0, 0, time.UTC), time.Friday).Format(booking.DateLayout)
	res = admin.get("/admin/reports/films?week=" + week)
	wantStatus(t, res, http.StatusOK)
	filmGross, _ := res.doc(t).Find(`[data-film="tonight"][data-theatre="regal"][data-day="` + d1 + `"] [data-col="gross"]`).Attr("data-value")
	if sales := strconv.FormatInt(got[salesKey{"regal", d1, "box_office", "cash", "all"}]["gross"], 10); filmGross != sales || sales != "18000" {
		t.Errorf("the film report's gross of tonight's show %q; the sales report's of its day %q; want both 18000", filmGross, sales)
	}

	// Ranges that are not one: 422 saying why, on the report's page with
	// its pickers as filled in, a link to a range it can show when both
	// ends are dates, and one back to the last seven days.
	for q, tt := range map[string]struct{ why, fix string }{
		"from=2026-03-15&to=2026-03-14": {"before it starts", "/admin/reports/sales?from=2026-03-14&to=2026-03-15"},
		"from=2025-01-01&to=2026-03-14": {"at most 366", "/admin/reports/sales?from=2025-03-14&to=2026-03-14"},
		"from=14-03-2026":               {"YYYY-MM-DD", ""},
		"to=yesterday":                  {"YYYY-MM-DD", ""},
		"format=xlsx":                   {"csv", "/admin/reports/sales?from=2026-03-08&to=2026-03-14"},
	} {
		res := admin.get("/admin/reports/sales?" + q)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		d := res.doc(t)
		if msg := d.Find(`[data-refused] [role="alert"]`).Text(); !strings.Contains(msg, tt.why) {
			t.Errorf("the refusal of %s %q does not say %q", q, msg, tt.why)
		}
		if d.Find(`form[data-range-picker]`).Length() != 1 {
			t.Errorf("the refusal of %s has no range picker", q)
		}
		if href, _ := d.Find(`[data-refused] a[data-rel="range"]`).Attr("href"); href != tt.fix {
			t.Errorf("the refusal of %s links the range %q; want %q", q, href, tt.fix)
		}
		if d.Find(`[data-refused] a[data-rel="back"][href="/admin/reports/sales"]`).Length() != 1 {
			t.Errorf("the refusal of %s has no link back to the last seven days", q)
		}
		if d.Find("tr[data-theatre]").Length() != 0 || d.Find("[data-csv]").Length() != 0 {
			t.Errorf("the refusal of %s shows a report or its CSV", q)
		}
	}
	// Staff may not read it.
	wantStatus(t, staff.get("/admin/reports/sales"), http.StatusForbidden)
}
