package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
)

// printPath is the printable tickets of booking id.
func printPath(id string) string { return "/bookings/" + id + "/print" }

// printedTickets are the [data-ticket] of a print page.
func printedTickets(t *testing.T, res response) *goquery.Selection {
	t.Helper()
	return res.doc(t).Find("[data-ticket]")
}

// TestPrintAccess: the print page opens to the session that made the
// booking, to its key whoever asks, and to signed-in staff and admins; a
// wrong or empty key is 404 for everyone, the owner too, and so is a
// stranger without the key. The booking page links to it, with the key
// when it was opened by key.
func TestPrintAccess(t *testing.T) {
	a := newAdminApp(t)
	a.addStaff(t)
	c := a.client()
	p := c.mustPay("A1", "A2")
	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)
	b := a.booking(p)
	path := printPath(b.ID)

	stranger := a.client()
	staff := a.client()
	wantStatus(t, staff.login(staffEmail, staffPassword), http.StatusSeeOther)
	admin := a.client()
	admin.mustLogin()
	for _, tc := range []struct {
		name string
		c    *client
		path string
	}{
		{"the session that made it", c, path},
		{"its key", stranger, path + "?key=" + url.QueryEscape(b.Key)},
		{"staff", staff, path},
		{"an admin", admin, path},
		{"staff, asking to print at once", staff, path + "?print=1"},
	} {
		res := tc.c.get(tc.path)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %s is %d, want 200", tc.name, tc.path, res.StatusCode)
			continue
		}
		if n := printedTickets(t, res).Length(); n != 2 {
			t.Errorf("%s: %d tickets, want 2", tc.name, n)
		}
	}
	for _, tc := range []struct {
		name string
		c    *client
		q    string
	}{
		{"a stranger", stranger, ""},
		{"a stranger, empty key", stranger, "?key="},
		{"a stranger, wrong key", stranger, "?key=wrong"},
		{"a stranger, key cut short", stranger, "?key=" + url.QueryEscape(b.Key[:len(b.Key)-1])},
		{"the owner, wrong key", c, "?key=wrong"},
		{"staff, wrong key", staff, "?key=wrong"},
	} {
		res := tc.c.get(path + tc.q)
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %s%s is %d, want 404", tc.name, path, tc.q, res.StatusCode)
		}
		if printedTickets(t, res).Length() != 0 {
			t.Errorf("%s: the 404 shows tickets", tc.name)
		}
	}
	wantStatus(t, stranger.get(printPath("no-such-booking")), http.StatusNotFound)
	wantStatus(t, staff.get(printPath("no-such-booking")), http.StatusNotFound)

	// The booking page links to it; opened by key, with the key.
	if href, _ := c.get("/bookings/" + b.ID).doc(t).Find("[data-print-link]").Attr("href"); href != path {
		t.Errorf("the booking page links to print at %q, want %s", href, path)
	}
	byKey := "?key=" + url.QueryEscape(b.Key)
	if href, _ := stranger.get("/bookings/" + b.ID + byKey).doc(t).Find("[data-print-link]").Attr("href"); href != path+byKey {
		t.Errorf("the booking page opened by key links to print at %q, want %s", href, path+byKey)
	}
	// ?print=1 asks the page to open the print dialog; without it, not.
	if staff.get(path+"?print=1").doc(t).Find("[data-print][data-autoprint]").Length() != 1 {
		t.Error("?print=1 does not mark the page data-autoprint")
	}
	if c.get(path).doc(t).Find("[data-autoprint]").Length() != 0 {
		t.Error("the page is data-autoprint without ?print=1")
	}
}

// TestPrintUnconfirmed: a booking that is not confirmed (pending, declined)
// prints no ticket: 409 with why, and its booking page has no print link.
func TestPrintUnconfirmed(t *testing.T) {
	a := newApp(t)
	c, other := a.client(), a.client()
	pending := a.booking(c.mustPay("A1"))
	p := other.mustPay("B1")
	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentFailed)), http.StatusOK)
	failed := a.booking(p)
	for _, tc := range []struct {
		b booking.Booking
		c *client
	}{{pending, c}, {failed, other}} {
		b, c := tc.b, tc.c
		for _, q := range []string{"", "?key=" + url.QueryEscape(b.Key)} {
			res := c.get(printPath(b.ID) + q)
			if res.StatusCode != http.StatusConflict {
				t.Errorf("%s booking: print%s is %d, want 409", b.State, q, res.StatusCode)
				continue
			}
			d := res.doc(t)
			if n := d.Find("[data-ticket]").Length(); n != 0 {
				t.Errorf("%s booking: %d tickets printed, want none", b.State, n)
			}
			if state, _ := d.Find("[data-print]").Attr("data-state"); state != string(b.State) {
				t.Errorf("%s booking: the page says data-state %q", b.State, state)
			}
			if !strings.Contains(d.Find("main").Text(), "No tickets to print") {
				t.Errorf("%s booking: the page does not say there is nothing to print:\n%s", b.State, res.body)
			}
		}
		if c.get("/bookings/"+b.ID).doc(t).Find("[data-print-link]").Length() != 0 {
			t.Errorf("the %s booking's page links to print", b.State)
		}
	}
}

// zonedTypedShow is typedShow in a theatre in Asia/Kolkata, so that its
// time is shown in a zone other than the server's (UTC in tests).
func (a *app) zonedTypedShow() {
	a.t.Helper()
	show, seats := testShow()
	show.ID = typedShowID
	show.Theatre.TimeZone = "Asia/Kolkata"
	for i := range seats {
		seats[i].ShowID = typedShowID
	}
	if err := booking.CreatePricedShowStep(context.Background(), a.store, time.Now, show, seats, typedPrices); err != nil {
		a.t.Fatalf("CreatePricedShowStep: %v", err)
	}
}

// TestPrintTickets: a booking paid with two types prints one ticket per
// seat, each with the seat, its type and price (SPEC §20's data-ticket,
// data-seat-id, data-ticket-type, data-ticket-code, data-price), the film,
// theatre, screen, the time in the theatre's zone, the row and seat apart,
// the type's name and the price in the show's currency, and the QR code.
func TestPrintTickets(t *testing.T) {
	a := newApp(t)
	a.zonedTypedShow()
	b := a.bookTyped(booking.TypeChoice{"A2": "child", "D3": "adult"}, "A2", "D3")
	res := a.client().get(printPath(b.ID) + "?key=" + url.QueryEscape(b.Key))
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)

	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	at := testShowStart.In(kolkata)
	when := at.Format("Mon 2 Jan") + ", " + at.Format("15:04") + " IST"
	want := []struct{ seat, row, number, typ, name, price, shown string }{
		{"A2", "A", "2", "child", "Child", "9000", booking.Money(9000).Format("INR")},
		{"D3", "D", "3", "adult", "Adult", "25000", booking.Money(25000).Format("INR")},
	}
	tickets := d.Find("[data-ticket]")
	if tickets.Length() != len(want) {
		t.Fatalf("%d tickets, want %d:\n%s", tickets.Length(), len(want), res.body)
	}
	tickets.Each(func(i int, s *goquery.Selection) {
		w := want[i]
		attr := func(name string) string { v, _ := s.Attr(name); return v }
		if attr("data-seat-id") != w.seat || attr("data-ticket-type") != w.typ || attr("data-price") != w.price || attr("data-ticket-code") != b.TicketCode {
			t.Errorf("ticket %d: seat %q type %q price %q code %q, want %s %s %s %s", i,
				attr("data-seat-id"), attr("data-ticket-type"), attr("data-price"), attr("data-ticket-code"), w.seat, w.typ, w.price, b.TicketCode)
		}
		text := strings.Join(strings.Fields(s.Text()), " ")
		for _, part := range []string{"Monsoon Express", "Lalbagh Cinemas", "Audi 1", when, w.name, w.shown, b.TicketCode} {
			if !strings.Contains(text, part) {
				t.Errorf("ticket %s does not say %q: %s", w.seat, part, text)
			}
		}
		place := map[string]string{}
		s.Find(".print-ticket-seat dt").Each(func(_ int, dt *goquery.Selection) {
			place[dt.Text()] = dt.Next().Text()
		})
		if place["Row"] != w.row || place["Seat"] != w.number {
			t.Errorf("ticket %s says row %q seat %q, want %s %s", w.seat, place["Row"], place["Seat"], w.row, w.number)
		}
		if s.Find("svg.ticket-qr rect").Length() < 10 {
			t.Errorf("ticket %s has no QR code", w.seat)
		}
	})
}
