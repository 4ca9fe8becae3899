package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// addShow adds a copy of testShow as show id, of movie (ID, title),
// starting at start.
func (a *app) addShow(t testing.TB, id string, movie booking.Movie, start time.Time) {
	t.Helper()
	show, seats := testShow()
	show.ID, show.StartsAt = id, start
	if movie.ID != "" {
		show.Movie = movie
	}
	for i := range seats {
		seats[i].ShowID = id
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
}

// cancelledShowApp is an admin app whose testShow had bookings of E1, E2
// (admitted at the door) and C1 and C2, and was then cancelled; the same
// film has another show on sale (show2) and one already cancelled
// (show3), another film one more (show4). It returns the two bookings.
func cancelledShowApp(t *testing.T) (a *app, admin *client, admitted, other booking.Booking) {
	t.Helper()
	a = newAdminApp(t)
	a.addShow(t, "show2", booking.Movie{}, testShowStart.Add(3*time.Hour))
	a.addShow(t, "show3", booking.Movie{}, testShowStart.Add(6*time.Hour))
	a.addShow(t, "show4", booking.Movie{ID: "m2", Title: "Another Film", RuntimeMin: 100}, testShowStart.Add(3*time.Hour))
	admitted, other = a.book("E1", "E2"), a.book("C1", "C2")
	admin = a.client()
	admin.mustLogin()
	if r, _, _ := checkin(t, admin.admit(admitted.TicketCode, testShowID)); r != "admitted" {
		t.Fatalf("the door answered %q before the cancellation", r)
	}
	for _, id := range []string{"show3", testShowID} {
		res := admin.post("/admin/shows/"+id+"/cancel", url.Values{"_csrf": {admin.adminCSRF()}, "confirm": {"yes"}})
		wantStatus(t, res, http.StatusSeeOther)
	}
	return a, admin, admitted, other
}

// bookingByLink opens b's page by its booking link, as its buyer would
// from the mail, on any device.
func (a *app) bookingByLink(t testing.TB, b booking.Booking) *goquery.Document {
	t.Helper()
	stored, err := a.store.Booking(context.Background(), b.ID)
	if err != nil {
		t.Fatal(err)
	}
	res := a.client().get("/bookings/" + b.ID + "?key=" + url.QueryEscape(stored.Key))
	wantStatus(t, res, http.StatusOK)
	return res.doc(t)
}

// TestCancelledBooking (SPEC §10): the page of a confirmed booking whose
// show was cancelled says so, not "We couldn't book your seats"; it says
// what becomes of the money (due, then refunded with when), and offers the
// film's other shows on sale instead of the cancelled show's map.
func TestCancelledBooking(t *testing.T) {
	a, admin, due, refunded := cancelledShowApp(t)
	a.clock.Set(testStart.Add(20 * time.Minute)) // the refund is made later
	wantStatus(t, admin.post("/admin/bookings/"+refunded.ID+"/refund", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)

	for _, tc := range []struct {
		name   string
		b      booking.Booking
		refund string
		says   []string
	}{
		{"refund due", due, "due", []string{"This show was cancelled", "₹500 you paid is due back to you", "refunded to the way you paid"}},
		{"refunded", refunded, "refunded", []string{"This show was cancelled", "₹360 you paid was refunded on Sat 14 Mar 2026, 12:20 UTC to the way you paid"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := a.bookingByLink(t, tc.b)
			sec := d.Find("#booking")
			text := strings.Join(strings.Fields(sec.Text()), " ")
			if v, _ := sec.Attr("data-show-state"); v != "cancelled" {
				t.Errorf("data-show-state %q, want cancelled", v)
			}
			for _, want := range tc.says {
				if !strings.Contains(text, want) {
					t.Errorf("the page does not say %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, "couldn't book") {
				t.Errorf("the page of a cancelled show's booking says it could not be booked:\n%s", text)
			}
			if v, _ := sec.Find("[data-refund]").Attr("data-refund"); v != tc.refund {
				t.Errorf("data-refund %q, want %q", v, tc.refund)
			}
			var offered []string
			sec.Find("[data-other-shows] a[data-show-id]").Each(func(_ int, s *goquery.Selection) {
				id, _ := s.Attr("data-show-id")
				href, _ := s.Attr("href")
				if href != "/shows/"+id {
					t.Errorf("other show %s links to %q", id, href)
				}
				offered = append(offered, id)
			})
			if diff := cmp.Diff([]string{"show2"}, offered); diff != "" {
				t.Errorf("other shows offered (-want +got):\n%s", diff)
			}
			if n := sec.Find(`a[href="/shows/` + testShowID + `"]`).Length(); n != 0 {
				t.Errorf("%d links to the cancelled show's map", n)
			}
		})
	}
	if title := a.bookingByLink(t, due).Find("title").Text(); !strings.HasPrefix(title, "Show cancelled") {
		t.Errorf("title %q", title)
	}
}

// TestCancelledBookingAtCounter: a box-office booking of a cancelled show
// is refunded at the counter, and its page says so.
func TestCancelledBookingAtCounter(t *testing.T) {
	a := newCounterApp(t)
	admin := a.staffClient(adminEmail, adminPassword)
	id := bookingIDOf(admin.mustSell(admin.mustCounterHold("A1"), url.Values{"method": {"cash"}, "email": {testEmail}}))
	wantStatus(t, admin.post("/admin/shows/"+typedShowID+"/cancel", url.Values{"_csrf": {admin.adminCSRF()}, "confirm": {"yes"}}), http.StatusSeeOther)
	d := a.bookingByLink(t, booking.Booking{ID: id})
	text := strings.Join(strings.Fields(d.Find("#booking").Text()), " ")
	if v, _ := d.Find("[data-refund]").Attr("data-refund"); v != "due" || !strings.Contains(text, "due back to you at the box office") {
		t.Errorf("data-refund %q, text:\n%s", v, text)
	}
}

// TestCancelledShowCounts: the admin page of a cancelled show counts
// truthfully: no seat booked, held, available or reserved, all of them
// off sale; what had been sold and where its refunds stand; and the door's
// admissions before the cancellation, not "2 of 0 booked seats".
func TestCancelledShowCounts(t *testing.T) {
	_, admin, _, _ := cancelledShowApp(t)
	d := admin.get("/admin/shows/" + testShowID).doc(t)
	got := map[string]string{}
	d.Find(".admin-counts [data-count]").Each(func(_ int, s *goquery.Selection) {
		k, _ := s.Attr("data-count")
		got[k] = strings.TrimSpace(s.Text())
	})
	want := map[string]string{"booked": "0", "held": "0", "available": "0", "reserved": "0", "off-sale": "30", "admitted": "2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts of the cancelled show (-want +got):\n%s", diff)
	}
	counts := strings.Join(strings.Fields(d.Find(".admin-counts").Text()), " ")
	if strings.Contains(counts, "of 0 booked") || !strings.Contains(counts, "2 seats admitted at the door before the cancellation") {
		t.Errorf("the door's line: %q", counts)
	}
	// The map says the same: no seat booked, E1 (its booking due a
	// refund) off sale.
	m := d.Find(".admin-seatmap")
	if n := m.Find(`.seat[data-state="booked"]`).Length(); n != 0 {
		t.Errorf("the cancelled show's map draws %d seats booked", n)
	}
	if st := m.Find(`.seat[data-seat-id="E1"]`).AttrOr("data-state", ""); st != "unavailable" {
		t.Errorf("E1, its booking cancelled, is %q on the map, want unavailable (off sale)", st)
	}
	if name := m.Find(`.seat[data-seat-id="E1"] input`).AttrOr("aria-label", ""); !strings.Contains(name, "off sale, the show is cancelled; booking") {
		t.Errorf("E1's name %q", name)
	}
	sold := d.Find("[data-cancelled-sold]")
	if v, _ := sold.Attr("data-cancelled-sold"); v != "4" {
		t.Errorf("data-cancelled-sold %q, want 4", v)
	}
	if v, _ := sold.Find("[data-refunds-due]").Attr("data-refunds-due"); v != "2" {
		t.Errorf("data-refunds-due %q, want 2", v)
	}
}
