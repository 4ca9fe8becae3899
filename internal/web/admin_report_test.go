package web_test

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
	"boxoffice/internal/payment"
)

// reportShow stores a show of movie at theatre th starting at start (a
// time in the theatre's zone), priced with typedPrices.
func (a *app) reportShow(id string, th booking.Theatre, m booking.Movie, start time.Time) {
	a.t.Helper()
	show, seats := testShow()
	show.ID, show.Movie, show.Theatre, show.StartsAt = id, m, th, start
	show.Theatre.Currency = ""
	for i := range seats {
		seats[i].ShowID = id
	}
	if err := booking.CreatePricedShowStep(context.Background(), a.store, time.Now, show, seats, typedPrices); err != nil {
		a.t.Fatalf("CreatePricedShowStep: %v", err)
	}
}

// bookTypedAt is bookTyped for any show.
func (a *app) bookTypedAt(showID string, types booking.TypeChoice, seats ...string) booking.Booking {
	a.t.Helper()
	ctx := context.Background()
	owner := booking.NewID()
	holdID, err := a.svc.HoldSeats(ctx, showID, owner, seats)
	if err != nil {
		a.t.Fatalf("HoldSeats: %v", err)
	}
	started, err := a.svc.StartTypedPayment(ctx, holdID, owner, testEmail, types)
	if err != nil {
		a.t.Fatalf("StartTypedPayment: %v", err)
	}
	p := started.Payment
	s, err := a.svc.SettlePayment(ctx, booking.PaymentEvent{
		ID: booking.NewID(), Type: booking.EventPaymentSucceeded, PaymentID: p.ID,
		HoldID: holdID, Amount: p.Amount, Currency: p.Currency,
	})
	if err != nil || s.Effect != booking.EffectBooked {
		a.t.Fatalf("SettlePayment: %v, %v", s.Effect, err)
	}
	return s.Booking
}

// row is a film report row's cells by data-col: counts and minor units.
type row map[string]int64

// filmReportRows reads the film report's rows of film at theatre by
// data-day, and how many rows there were.
func filmReportRows(t *testing.T, d *goquery.Document, film, theatre string) (map[string]row, int) {
	t.Helper()
	got := map[string]row{}
	rows := d.Find(`[data-film="` + film + `"][data-theatre="` + theatre + `"][data-day]`)
	for i := range rows.Length() {
		r := rows.Eq(i)
		day, _ := r.Attr("data-day")
		got[day] = row{}
		cells := r.Find("[data-col]")
		for j := range cells.Length() {
			col, _ := cells.Eq(j).Attr("data-col")
			v, _ := cells.Eq(j).Attr("data-value")
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Errorf("day %s, %s: data-value %q is no number", day, col, v)
			}
			got[day][col] = n
		}
	}
	return got, rows.Length()
}

// TestFilmReport: bookings sold online as child and adult at a theatre
// taxed 18 %, one of them refunded after its show was cancelled, make the
// film report (SPEC §17, §20) of the week: every cell of the page and of
// its CSV, days by show date in the theatre's zone, rent by the week of
// the run.
func TestFilmReport(t *testing.T) {
	a := newAdminApp(t)
	ctx := context.Background()
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	th := booking.Theatre{ID: "regal", Name: "Regal", City: "Delhi", TimeZone: "Asia/Kolkata", Currency: "INR"}
	if err := booking.SaveTheatreTaxStep(ctx, a.store, time.Now, th, booking.TaxRates{Rate: 1800}); err != nil {
		t.Fatal(err)
	}
	m := booking.Movie{ID: "monsoon", Title: "=Monsoon Express", RuntimeMin: 148} // a title a spreadsheet would run
	if err := booking.SaveMovieRentStep(ctx, a.store, time.Now, m, []int{50, 45, 40}); err != nil {
		t.Fatal(err)
	}
	// Report weeks from Friday: 2036-03-14 is a Friday.
	a.reportShow("s0", th, m, time.Date(2036, 3, 13, 23, 30, 0, 0, kolkata)) // Thursday: the previous week, week 1 of the run
	a.reportShow("s1", th, m, time.Date(2036, 3, 14, 0, 30, 0, 0, kolkata))  // Friday here, Thursday in UTC: week 2
	a.reportShow("s2", th, m, time.Date(2036, 3, 16, 19, 0, 0, 0, kolkata))  // cancelled

	a.bookTypedAt("s0", booking.TypeChoice{"A1": "adult"}, "A1")
	// Sold online over HTTP: hold, Pay with a child and an adult, the
	// provider's signed callback.
	buyer := a.client()
	res := buyer.post("/shows/s1/holds", url.Values{"_csrf": {buyer.csrf()}, "seat": {"A1", "A2"}})
	wantStatus(t, res, http.StatusSeeOther)
	checkout := payTyped(t, buyer, res.Header.Get("Location"), "A1", "child", "A2", "adult")
	paid, err := a.store.Payment(ctx, strings.TrimPrefix(checkout, payment.CheckoutPath))
	if err != nil {
		t.Fatalf("the payment of %s: %v", checkout, err)
	}
	wantStatus(t, a.deliver(a.event(paid, booking.EventPaymentSucceeded)), http.StatusOK)
	sold := a.booking(paid)
	if sold.State != booking.BookingConfirmed || sold.Amount != 270_00 {
		t.Fatalf("the online booking is %s for %d; want confirmed for 27000", sold.State, sold.Amount)
	}
	refunded := a.bookTypedAt("s2", booking.TypeChoice{"B1": "adult"}, "B1")
	for _, tk := range sold.Tickets {
		if tk.TaxRate != 1800 {
			t.Errorf("seat %s sold at the rate %v; want the theatre's 18 %%", tk.SeatID, tk.TaxRate)
		}
	}

	// A payment for s1 that lands after its hold lapsed and its seat was
	// taken: due a refund, then refunded, on a show that counts.
	owner := booking.NewID()
	holdID, err := a.svc.HoldSeats(ctx, "s1", owner, []string{"B1"})
	if err != nil {
		t.Fatal(err)
	}
	started, err := a.svc.StartTypedPayment(ctx, holdID, owner, testEmail, booking.TypeChoice{"B1": "adult"})
	if err != nil {
		t.Fatal(err)
	}
	a.clock.Advance(16 * time.Minute)
	if _, err := a.svc.HoldSeats(ctx, "s1", booking.NewID(), []string{"B1"}); err != nil {
		t.Fatal(err)
	}
	p := started.Payment
	st, err := a.svc.SettlePayment(ctx, booking.PaymentEvent{ID: booking.NewID(), Type: booking.EventPaymentSucceeded,
		PaymentID: p.ID, HoldID: holdID, Amount: p.Amount, Currency: p.Currency})
	if err != nil || st.Effect != booking.EffectRefundDue {
		t.Fatalf("the late payment: %v, %v; want refund_due", st.Effect, err)
	}
	late := st.Booking.ID

	admin := a.client()
	admin.mustLogin()
	tok := admin.adminCSRF()
	wantStatus(t, admin.post("/admin/shows/s2/cancel", url.Values{"_csrf": {tok}, "confirm": {"yes"}}), http.StatusSeeOther)
	for _, id := range []string{refunded.ID, late} {
		wantStatus(t, admin.post("/admin/bookings/"+id+"/refund", url.Values{"_csrf": {tok}}), http.StatusSeeOther)
		if b, _ := a.store.Booking(ctx, id); b.State != booking.BookingRefunded {
			t.Fatalf("booking %s is %s; want refunded", id, b.State)
		}
	}

	// Tax at 18 % included: 90.00 → 13.73, 180.00 → 27.46.
	zero := row{"shows": 0, "admissions": 0, "comps": 0, "gross": 0, "tax": 0, "net": 0, "rent": 0}
	friday := row{"shows": 1, "admissions": 2, "comps": 0, "gross": 270_00, "tax": 13_73 + 27_46, "net": 228_81, "rent": 102_96} // 45 % of 228.81 = 102.9645
	previous := row{"shows": 1, "admissions": 1, "comps": 0, "gross": 180_00, "tax": 27_46, "net": 152_54, "rent": 76_27}        // 50 % of 152.54
	toDate := row{"shows": 2, "admissions": 3, "comps": 0, "gross": 450_00, "tax": 68_65, "net": 381_35, "rent": 179_23}
	want := map[string]row{
		"2036-03-14": friday, "2036-03-15": zero, "2036-03-16": zero, "2036-03-17": zero,
		"2036-03-18": zero, "2036-03-19": zero, "2036-03-20": zero,
		"week": friday, "previous": previous, "to-date": toDate,
	}

	res = admin.get("/admin/reports/films?week=2036-03-14")
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)
	got, n := filmReportRows(t, d, "monsoon", "regal")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the film report's cells (-want +got):\n%s", diff)
	}
	if n != 10 {
		t.Errorf("%d report rows of the film; want 10: seven days and three totals", n)
	}
	// The app's own test show (m1 at t1, unsold) is a film of the week too.
	if n := d.Find(`[data-film="m1"][data-theatre="t1"][data-day="2036-03-15"] [data-col="shows"][data-value="1"]`).Length(); n != 1 {
		t.Errorf("the app's test show is not counted as a show on its day")
	}
	if d.Find(`.admin-bar a[href="/admin/reports/films"]`).Length() != 1 {
		t.Error("the admin navigation does not link the film report")
	}

	// The CSV: one row per day, money in major units with its currency.
	res = admin.get("/admin/reports/films?week=2036-03-14&format=csv")
	wantStatus(t, res, http.StatusOK)
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("Content-Type %q", ct)
	}
	all, err := csv.NewReader(strings.NewReader(res.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1+2*7 {
		t.Errorf("%d CSV records; want a header and a row per day for each of two films", len(all))
	}
	var records [][]string
	for i, r := range all {
		if i == 0 || r[0] == "monsoon" {
			records = append(records, r)
		}
	}
	wantCSV := filmReportCSV(want, []string{"monsoon", "'=Monsoon Express", "regal", "Regal"}, "2", "45")
	if diff := cmp.Diff(wantCSV, records); diff != "" {
		t.Errorf("the film report's CSV (-want +got):\n%s", diff)
	}
	if records[1][8] != "270.00" {
		t.Errorf("gross in the CSV %q; want 270.00", records[1][8])
	}

	// A day that is not a week's first: 422 naming that week's first day,
	// on the report's page, with its picker at that week and links to that
	// week's report and back to this week's. A week that is no date, or a
	// format there is none of, is refused there too.
	for _, tt := range []struct{ query, says, week, picker string }{
		{"week=2036-03-17", "the week of 2036-03-17 starts on 2036-03-14", "/admin/reports/films?week=2036-03-14", "2036-03-14"},
		{"week=soon", "YYYY-MM-DD", "", "2026-03-13"}, // this week (the clock is at Saturday 2026-03-14)
		{"week=2036-03-14&format=xlsx", "csv", "/admin/reports/films?week=2036-03-14", "2036-03-14"},
	} {
		res := admin.get("/admin/reports/films?" + tt.query)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		d := res.doc(t)
		if msg := d.Find(`[data-refused] [role="alert"]`).Text(); !strings.Contains(msg, tt.says) {
			t.Errorf("%s: the refusal %q does not say %q", tt.query, msg, tt.says)
		}
		if v, _ := d.Find(`form[data-week-picker] input[name="week"]`).Attr("value"); v != tt.picker {
			t.Errorf("%s: the page's week picker is at %q; want %q", tt.query, v, tt.picker)
		}
		if href, _ := d.Find(`[data-refused] a[data-rel="week"]`).Attr("href"); href != tt.week {
			t.Errorf("%s: the link to the week named %q; want %q", tt.query, href, tt.week)
		}
		if d.Find(`[data-refused] a[data-rel="back"][href="/admin/reports/films"]`).Length() != 1 {
			t.Errorf("%s: no link back to this week's report", tt.query)
		}
		if d.Find("[data-film]").Length() != 0 || d.Find("[data-csv]").Length() != 0 {
			t.Errorf("%s: the refused page shows a report or its CSV", tt.query)
		}
	}
}

// TestFilmReportAtTheCounter: at a theatre taxed 18 % whose film rents at
// 50 % in its first week, the box office sells over HTTP for cash (an
// adult and a comp type priced 0), for card (two paid seats), as a comp
// (method comp) and for cash again, refunded at the counter: the film
// report (SPEC §17, §20) counts the paid seats as admissions, the comp
// seats as comps, leaves the refunded booking out, and every cell of the
// page and of its CSV says so.
func TestFilmReportAtTheCounter(t *testing.T) {
	a := newCounterApp(t)
	ctx := context.Background()
	admin := a.staffClient(adminEmail, adminPassword)
	tok := admin.adminCSRF()
	// The typed show, the app's only one: m1 at t1 (UTC), Saturday
	// 2036-03-15 at 14:00, in the report week from Friday 2036-03-14. The
	// movie is in the catalogue, so that its page can give it terms.
	if _, err := a.svc.Catalog().SaveMovie(ctx, booking.Movie{ID: "m1", Title: "Monsoon Express", RuntimeMin: 148}); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, admin.post("/admin/theatres/t1", url.Values{"_csrf": {tok}, "name": {"Lalbagh Cinemas"}, "city": {"Bengaluru"},
		"time_zone": {"UTC"}, "currency": {"INR"}, "tax_rate": {"18"}}), http.StatusSeeOther)
	wantStatus(t, admin.post("/admin/movies/m1", url.Values{"_csrf": {tok}, "title": {"Monsoon Express"}, "runtime": {"148"},
		"rent": {"50,45,40"}}), http.StatusSeeOther)

	staff := a.staffClient(staffEmail, staffPassword)
	cash := staff.mustSell(staff.mustCounterHold("C1", "C2"), url.Values{"method": {"cash"}, "type_C1": {"adult"}, "type_C2": {"comp"}})
	card := staff.mustSell(staff.mustCounterHold("E1", "E2"), url.Values{"method": {"card"}, "type_E1": {"adult"}, "type_E2": {"child"}})
	staff.mustSell(staff.mustCounterHold("D2"), url.Values{"method": {"comp"}, "reason": {"critic"}, "type_D2": {"comp"}})
	refunded := staff.mustSell(staff.mustCounterHold("A1"), url.Values{"method": {"cash"}, "type_A1": {"adult"}})
	wantStatus(t, staff.post("/admin/boxoffice/bookings/"+bookingIDOf(refunded)+"/refund",
		url.Values{"_csrf": {staff.counterCSRF()}, "method": {"cash"}}), http.StatusSeeOther)
	if b, _ := a.store.Booking(ctx, bookingIDOf(refunded)); b.State != booking.BookingRefunded {
		t.Fatalf("the refunded sale is %s", b.State)
	}
	for path, amount := range map[string]booking.Money{cash: 180_00, card: 375_00} {
		b, err := a.store.Booking(ctx, bookingIDOf(path))
		if err != nil || b.State != booking.BookingConfirmed || b.Amount != amount {
			t.Fatalf("the sale %s is %s for %d (%v); want confirmed for %d", path, b.State, b.Amount, err, amount)
		}
		for _, tk := range b.Tickets {
			if tk.TaxRate != 1800 {
				t.Errorf("seat %s sold at the rate %v; want the theatre's 18 %%", tk.SeatID, tk.TaxRate)
			}
		}
	}

	// Tax at 18 % included: 180.00 → 27.46, 250.00 → 38.14, 125.00 →
	// 19.07, a comp 0. Rent: 50 % of 470.33 = 235.165 → 235.17.
	zero := row{"shows": 0, "admissions": 0, "comps": 0, "gross": 0, "tax": 0, "net": 0, "rent": 0}
	saturday := row{"shows": 1, "admissions": 3, "comps": 2, "gross": 555_00, "tax": 84_67, "net": 470_33, "rent": 235_17}
	want := map[string]row{
		"2036-03-14": zero, "2036-03-15": saturday, "2036-03-16": zero, "2036-03-17": zero,
		"2036-03-18": zero, "2036-03-19": zero, "2036-03-20": zero,
		"week": saturday, "previous": zero, "to-date": saturday,
	}
	res := admin.get("/admin/reports/films?week=2036-03-14")
	wantStatus(t, res, http.StatusOK)
	got, n := filmReportRows(t, res.doc(t), "m1", "t1")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the film report's cells (-want +got):\n%s", diff)
	}
	if n != 10 {
		t.Errorf("%d report rows of the film; want 10: seven days and three totals", n)
	}

	res = admin.get("/admin/reports/films?week=2036-03-14&format=csv")
	wantStatus(t, res, http.StatusOK)
	records, err := csv.NewReader(strings.NewReader(res.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantCSV := filmReportCSV(want, []string{"m1", "Monsoon Express", "t1", "Lalbagh Cinemas"}, "1", "50")
	if diff := cmp.Diff(wantCSV, records); diff != "" {
		t.Errorf("the film report's CSV (-want +got):\n%s", diff)
	}
	if saturday := records[2]; saturday[7] != "2" || saturday[8] != "555.00" || saturday[9] != "84.67" || saturday[11] != "235.17" {
		t.Errorf("the CSV's Saturday %v; want 2 comps, gross 555.00, tax 84.67, rent 235.17", saturday)
	}
}

// filmReportCSV is the film report's CSV of the week from 2036-03-14 as
// want has its days (cells by column, minor units) for one film at one
// theatre (film id, film, theatre id, theatre as the CSV writes them),
// in its week of run at rent percent pct: the header and a row a day.
func filmReportCSV(want map[string]row, film []string, week, pct string) [][]string {
	major := func(v int64) string { return booking.Money(v).Major("INR") }
	rows := [][]string{{"film_id", "film", "theatre_id", "theatre", "day", "shows", "admissions", "comps",
		"gross", "tax", "net", "rent", "currency", "week_of_run", "rent_percent"}}
	for i := range 7 {
		day := time.Date(2036, 3, 14+i, 0, 0, 0, 0, time.UTC).Format(booking.DateLayout)
		r := want[day]
		rows = append(rows, append(slices.Clone(film), day,
			strconv.FormatInt(r["shows"], 10), strconv.FormatInt(r["admissions"], 10), strconv.FormatInt(r["comps"], 10),
			major(r["gross"]), major(r["tax"]), major(r["net"]), major(r["rent"]), "INR", week, pct))
	}
	return rows
}
