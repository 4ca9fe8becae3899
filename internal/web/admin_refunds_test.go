package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
)

// refundQueueApp has 60 refund_due bookings of two cancelled shows, one
// seat each; the first of the second show was sold at the box office. It
// returns that one and an online one.
func refundQueueApp(t *testing.T, now time.Time) (a *app, counter, online booking.Booking) {
	t.Helper()
	a = newAdminApp(t)
	a.clock.Set(now)
	second := a.soonShow(t, "second", now.Add(30*time.Hour))
	var seats []string
	for _, r := range []string{"A", "B", "C", "D", "E"} {
		for n := 1; n <= 6; n++ {
			seats = append(seats, r+itoa(n))
		}
	}
	for _, seat := range seats {
		b := a.book(seat)
		if online.ID == "" {
			online = b
		}
		c := a.bookAt(second, seat)
		if counter.ID == "" {
			counter = c
			a.exec(`UPDATE bookings SET channel = 'box_office', method = 'cash' WHERE id = ?`, []any{c.ID})
		}
	}
	admin := a.client()
	admin.mustLogin()
	// The second show first, a second apart: its bookings, the
	// box-office one among them, wait longest and fill page 1 whatever
	// their ids (bookings made due a refund at one instant go by id).
	for _, id := range []string{second, testShowID} {
		wantStatus(t, admin.post("/admin/shows/"+id+"/cancel", url.Values{"_csrf": {admin.adminCSRF()}, "confirm": {"yes"}}), http.StatusSeeOther)
		a.clock.Set(a.clock.Now().Add(time.Second))
	}
	return a, counter, online
}

// TestAdminRefundQueue (issue 29, item 8): /admin/refunds lists every
// show's refund_due bookings, 50 a page with rel=next/prev, each with its
// show, amount, since when and channel; a box-office one says "refund at
// the counter" and links the counter, an online one has the show page's
// Refund and "refunded outside boxoffice" actions, which come back to the
// queue; it is linked from the admin bar, and admins' only.
func TestAdminRefundQueue(t *testing.T) {
	a, counter, online := refundQueueApp(t, testStart)
	admin := a.client()
	admin.mustLogin()

	res := admin.get("/admin/refunds")
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)
	if d.Find(`nav.admin-bar a[href="/admin/refunds"]`).Length() != 1 {
		t.Error("the admin bar does not link the refund queue")
	}
	items := d.Find("[data-refund-due][data-booking-id]")
	if items.Length() != 50 {
		t.Errorf("page 1 lists %d refunds due, want 50", items.Length())
	}
	if d.Find(`a[rel="prev"]`).Length() != 0 {
		t.Error("page 1 links a page before it")
	}
	next := d.Find(`a[rel="next"]`).AttrOr("href", "")
	if next != "/admin/refunds?page=2" {
		t.Fatalf("page 1's next page is %q", next)
	}
	d2 := admin.get(next).doc(t)
	if n := d2.Find("[data-refund-due][data-booking-id]").Length(); n != 10 || d2.Find(`a[rel="next"]`).Length() != 0 || d2.Find(`a[rel="prev"]`).AttrOr("href", "") != "/admin/refunds" {
		t.Errorf("page 2 lists %d refunds due (want 10), next %d, prev %q", n, d2.Find(`a[rel="next"]`).Length(), d2.Find(`a[rel="prev"]`).AttrOr("href", ""))
	}

	find := func(id string) *goquery.Selection {
		for _, doc := range []*goquery.Document{admin.get("/admin/refunds").doc(t), admin.get("/admin/refunds?page=2").doc(t)} {
			if it := doc.Find(`[data-refund-due][data-booking-id="` + id + `"]`); it.Length() == 1 {
				return it
			}
		}
		return nil
	}
	it := find(counter.ID)
	if it == nil {
		t.Fatalf("the box-office booking %s is not in the queue", counter.ID)
	}
	text := strings.Join(strings.Fields(it.Text()), " ")
	for _, want := range []string{"Monsoon Express", "₹180", "refund at the counter", "since"} {
		if !strings.Contains(text, want) {
			t.Errorf("the box-office refund reads %q, want %q in it", text, want)
		}
	}
	if ch, _ := it.Attr("data-channel"); ch != "box_office" {
		t.Errorf("the box-office refund has data-channel %q", ch)
	}
	if it.Find(`a[href="/admin/boxoffice/bookings/`+counter.ID+`"]`).Length() != 1 || it.Find("form").Length() != 0 {
		t.Error("the box-office refund does not link the counter, or offers a provider refund")
	}

	it = find(online.ID)
	if ch, _ := it.Attr("data-channel"); ch != "online" {
		t.Errorf("the online refund has data-channel %q", ch)
	}
	if !strings.Contains(it.Find(`a[href^="/admin/shows/"]`).Text(), "Monsoon Express") {
		t.Error("the online refund does not link its show")
	}
	refund := it.Find(`form[action="/admin/bookings/` + online.ID + `/refund?from=refunds"]`)
	elsewhere := it.Find(`form[action="/admin/bookings/` + online.ID + `/refunded?from=refunds"]`)
	if refund.Length() != 1 || elsewhere.Length() != 1 {
		t.Fatalf("the online refund offers %d refund and %d refunded-elsewhere forms, want 1 each", refund.Length(), elsewhere.Length())
	}
	res = admin.post("/admin/bookings/"+online.ID+"/refund?from=refunds", url.Values{"_csrf": {admin.adminCSRF()}})
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/admin/refunds") {
		t.Errorf("a refund from the queue goes back to %q, want the queue", loc)
	}
	if find(online.ID) != nil {
		t.Error("the refunded booking is still in the queue")
	}
	// From the show page, the same action still goes back to the show.
	other := admin.get("/admin/refunds").doc(t).Find(`[data-refund-due][data-channel="online"]`).First().AttrOr("data-booking-id", "")
	res = admin.post("/admin/bookings/"+other+"/refunded", url.Values{"_csrf": {admin.adminCSRF()}})
	wantStatus(t, res, http.StatusSeeOther)
	if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/admin/shows/") {
		t.Errorf("refunded elsewhere from the show page goes to %q, want the show", loc)
	}
	if find(other) != nil {
		t.Error("the booking refunded elsewhere is still in the queue")
	}

	wantStatus(t, admin.get("/admin/refunds?page=0"), http.StatusUnprocessableEntity)
	a.addStaff(t)
	staff := a.client()
	wantStatus(t, staff.login(staffEmail, staffPassword), http.StatusSeeOther)
	wantStatus(t, staff.get("/admin/refunds"), http.StatusForbidden)
}
