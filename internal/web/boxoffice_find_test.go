package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// found lists the bookings the counter's search found, in its order.
func found(d *goquery.Document) []string {
	var ids []string
	d.Find("[data-found-booking]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-found-booking")
		ids = append(ids, id)
	})
	return ids
}

// TestCounterFind: the counter finds a booking to print again (SPEC §16,
// "Printing") by its ticket code, typed in any case and without its
// dash, or by the customer's email, any case, the newest first; each
// found booking has its show, seats, state and channel, its print page
// (which opens to staff) and, when sold at the counter, the sale's page.
// An unknown code or address finds none (200); what is neither is 422
// with why; anonymous visitors are sent to sign in.
func TestCounterFind(t *testing.T) {
	a := newCounterApp(t)
	staff := a.staffClient(staffEmail, staffPassword)
	first := bookingIDOf(staff.mustSell(staff.mustCounterHold("A1", "A2"), url.Values{"method": {"cash"}, "email": {"ana.k@example.com"}}))
	a.clock.Advance(time.Minute)
	second := bookingIDOf(staff.mustSell(staff.mustCounterHold("B1"), url.Values{"method": {"card"}, "email": {"Ana.K@Example.com"}}))
	staff.mustSell(staff.mustCounterHold("C2"), url.Values{"method": {"cash"}, "email": {"someone@example.com"}})
	online := a.bookAt(typedShowID, "D1")

	find := func(c *client, q string) response {
		t.Helper()
		return c.get("/admin/boxoffice?show=" + typedShowID + "&find=" + url.QueryEscape(q))
	}

	// By code: one booking, with its seats, state, channel and links.
	stored, err := a.store.Booking(t.Context(), first)
	if err != nil {
		t.Fatal(err)
	}
	typed := strings.ToLower(strings.ReplaceAll(stored.TicketCode, "-", ""))
	res := find(staff, typed)
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)
	if got := found(d); len(got) != 1 || got[0] != first {
		t.Fatalf("found by code %q: %v, want %s", typed, got, first)
	}
	item := d.Find(`[data-found-booking="` + first + `"]`)
	if s, _ := item.Attr("data-state"); s != "confirmed" {
		t.Errorf("data-state %q, want confirmed", s)
	}
	if ch, _ := item.Attr("data-channel"); ch != "box_office" {
		t.Errorf("data-channel %q, want box_office", ch)
	}
	var seats []string
	item.Find("[data-seat-id]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-seat-id")
		seats = append(seats, id)
	})
	if strings.Join(seats, ",") != "A1,A2" {
		t.Errorf("seats listed %v, want A1, A2", seats)
	}
	if !strings.Contains(item.Text(), "Monsoon Express") || !strings.Contains(item.Text(), "Audi 1") {
		t.Errorf("the found booking does not name its show: %q", item.Text())
	}
	printHref, _ := item.Find("a[data-print-url]").Attr("href")
	if printHref != "/bookings/"+first+"/print?print=1" {
		t.Errorf("print link %q, want /bookings/%s/print?print=1", printHref, first)
	}
	if href, _ := item.Find("a[data-counter-url]").Attr("href"); href != "/admin/boxoffice/bookings/"+first {
		t.Errorf("the sale's link %q, want /admin/boxoffice/bookings/%s", href, first)
	}
	pr := staff.get(printHref)
	wantStatus(t, pr, http.StatusOK)
	if n := pr.doc(t).Find("[data-ticket]").Length(); n != 2 {
		t.Errorf("the print page has %d tickets, want 2", n)
	}
	// The map is still there, on the same show.
	if d.Find(`form[action="/admin/boxoffice/holds"] input[name="seat"]`).Length() == 0 {
		t.Error("the search's page lost the seat map")
	}

	// By email, any case: both of the customer's bookings, the newest first.
	res = find(staff, "  ANA.K@example.COM ")
	wantStatus(t, res, http.StatusOK)
	if got := found(res.doc(t)); strings.Join(got, ",") != second+","+first {
		t.Errorf("found by email: %v, want %s then %s", got, second, first)
	}

	// An online booking: found, printable, no sale page at the counter.
	d = find(staff, online.TicketCode).doc(t)
	item = d.Find(`[data-found-booking="` + online.ID + `"]`)
	if ch, _ := item.Attr("data-channel"); ch != "online" {
		t.Errorf("the online booking's data-channel %q, want online", ch)
	}
	if item.Find("a[data-print-url]").Length() != 1 || item.Find("a[data-counter-url]").Length() != 0 {
		t.Error("the online booking should have a print link and no box office link")
	}

	// Unknown: none, 200, and says so.
	for _, q := range []string{"ZZZZ-ZZZZ", "nobody@example.com"} {
		res := find(staff, q)
		wantStatus(t, res, http.StatusOK)
		d := res.doc(t)
		if n := len(found(d)); n != 0 || !strings.Contains(d.Find("[data-counter-find]").Text(), "No booking") {
			t.Errorf("find %q: %d found, message %q; want none, said so", q, n, d.Find("[data-counter-find]").Text())
		}
	}
	// Empty or garbage: 422 with why, the page whole.
	for _, q := range []string{"", "   ", "hello", "ana@", "<script>", strings.Repeat("x", 5000)} {
		res := find(staff, q)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		d := res.doc(t)
		if msg := strings.TrimSpace(d.Find("[data-counter-find] .notice").Text()); msg == "" {
			t.Errorf("find %q: no message", q)
		}
		if d.Find(`select[name="show"]`).Length() != 1 {
			t.Errorf("find %q: the page lost the show choice", q)
		}
	}

	// Admins may too; anonymous visitors are sent to sign in.
	admin := a.staffClient(adminEmail, adminPassword)
	if got := found(find(admin, "ana.k@example.com").doc(t)); len(got) != 2 {
		t.Errorf("an admin's search found %v, want 2 bookings", got)
	}
	res = find(a.client(), "ana.k@example.com")
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/admin/login") {
		t.Errorf("anonymous search went to %q, want the sign-in", loc)
	}
}
