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

// suggested are the seat ids the map marks data-suggested, and whether
// each one's input is checked.
func suggested(t *testing.T, res response) []string {
	t.Helper()
	var ids []string
	res.doc(t).Find("[data-suggested]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-seat-id")
		if _, checked := s.Find(`input[name="seat"]`).Attr("checked"); !checked {
			t.Errorf("suggested seat %s is not ticked", id)
		}
		ids = append(ids, id)
	})
	return ids
}

// TestBestAvailable: ?best=N ticks the best block (hooks of SPEC §14); a
// party outside 1 to MAX_SEATS is 422; no block is 200 with a message;
// the ticked block can be held as it is.
func TestBestAvailable(t *testing.T) {
	a := newApp(t)
	c := a.client()
	// Five rows: the best row is D (index ⌊10/3⌋ = 3), whose D1 is a
	// wheelchair space: the best three together are D4-D6.
	res := c.get("/shows/" + testShowID + "?best=3")
	wantStatus(t, res, http.StatusOK)
	if got := strings.Join(suggested(t, res), ","); got != "D4,D5,D6" {
		t.Errorf("best 3: %s, want D4,D5,D6", got)
	}
	if got := strings.Join(suggested(t, c.get("/shows/"+testShowID+"?best=2&category=Classic")), ","); got != "C2,C3" && got != "C1,C2" {
		t.Errorf("best 2 Classic: %s, want two seats of row C", got)
	}
	if got := strings.Join(suggested(t, c.get("/shows/"+testShowID+"?best=1&wheelchair=1")), ","); got != "D1" {
		t.Errorf("best 1 with a wheelchair: %s, want D1", got)
	}
	for _, q := range []string{"0", "5", "many", ""} {
		res := c.get("/shows/" + testShowID + "?best=" + q)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		if n := len(suggested(t, res)); n != 0 {
			t.Errorf("best=%q suggested %d seats", q, n)
		}
	}
	// Take every Prime seat but the wheelchair space: no two Prime seats
	// together are left.
	a.book("D2", "D3", "D4", "D5")
	a.book("D6", "E1", "E2", "E3")
	a.book("E4", "E5", "E6")
	res = c.get("/shows/" + testShowID + "?best=2&category=Prime")
	wantStatus(t, res, http.StatusOK)
	if n := len(suggested(t, res)); n != 0 || !strings.Contains(res.doc(t).Find(".notice").Text(), "no 2 seats together") {
		t.Errorf("no block: %d suggested, notice %q", n, res.doc(t).Find(".notice").Text())
	}
	// Without JavaScript the ticked block is held as it is.
	ids := suggested(t, c.get("/shows/"+testShowID+"?best=3"))
	wantStatus(t, c.hold(ids...), http.StatusSeeOther)
}

// TestGaps: with SEAT_GAPS=refuse a hold that strands a seat is 422 with
// data-gap-seat and the nearest choice ticked, which holds as it is.
func TestGaps(t *testing.T) {
	p := testPolicy
	p.AllowGaps = false
	a := newAppWith(t, p)
	c := a.client()
	res := c.hold("B2") // B1 would be alone at the row's start
	wantStatus(t, res, http.StatusUnprocessableEntity)
	d := res.doc(t)
	if gap, _ := d.Find("[data-gap-seat]").Attr("data-gap-seat"); gap != "B1" {
		t.Errorf("data-gap-seat %q, want B1", gap)
	}
	if got := strings.Join(suggested(t, res), ","); got != "B1" {
		t.Errorf("the suggested choice is %q, want B1", got)
	}
	wantStatus(t, c.hold("B1"), http.StatusSeeOther)
	// A conflict is reported before a gap.
	other := a.client()
	res = other.hold("B1", "C2")
	wantStatus(t, res, http.StatusConflict)
}

// TestMoreTime: More time is 303 to the checkout with a later expiry,
// twice; the third is 409; an expired hold's is 410.
func TestMoreTime(t *testing.T) {
	a := newApp(t)
	c := a.client()
	holdPath := c.mustHold("A1")
	form := c.get(holdPath).doc(t).Find(`form[action="` + holdPath + `/extend"]`)
	if form.Length() != 1 {
		t.Fatal("the checkout offers no More time")
	}
	for i := range 2 {
		a.clock.Advance(14 * time.Minute)
		res := c.post(holdPath+"/extend", url.Values{"_csrf": {c.csrf()}})
		wantStatus(t, res, http.StatusSeeOther)
		exp := c.get(res.Header.Get("Location")).doc(t).Find(".countdown").AttrOr("data-expires-at", "")
		wantExpiry(t, "after More time "+itoa(i+1), exp, a.clock.Now().Add(15*time.Minute))
	}
	if c.get(holdPath).doc(t).Find(`form[action$="/extend"]`).Length() != 0 {
		t.Error("More time is still offered after two")
	}
	wantStatus(t, c.post(holdPath+"/extend", url.Values{"_csrf": {c.csrf()}}), http.StatusConflict)
	a.clock.Advance(16 * time.Minute)
	wantStatus(t, c.post(holdPath+"/extend", url.Values{"_csrf": {c.csrf()}}), http.StatusGone)
	wantStatus(t, a.client().post(holdPath+"/extend", url.Values{"_csrf": {c.csrf()}}), http.StatusForbidden)
}

// TestWheelchairWithCompanions: best available with a wheelchair space
// ticks the space and its companion seats together, and they hold as one;
// the map and the list say which seats are which in words, and the legend
// explains both kinds.
func TestWheelchairWithCompanions(t *testing.T) {
	a := newApp(t)
	show, _ := testShow()
	show.ID = "show2"
	var seats []booking.Seat
	for n, kind := range []booking.SeatKind{booking.KindWheelchair, booking.KindCompanion, booking.KindCompanion,
		booking.KindStandard, booking.KindStandard, booking.KindStandard} {
		seats = append(seats, booking.Seat{ShowID: show.ID, ID: "A" + itoa(n+1), Row: "A", Number: n + 1, GridCol: n,
			Category: "Classic", Price: 18000, Kind: kind, Status: booking.SeatAvailable})
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	c := a.client()
	res := c.get("/shows/show2?best=3&wheelchair=1")
	wantStatus(t, res, http.StatusOK)
	if got := strings.Join(suggested(t, res), ","); got != "A1,A2,A3" {
		t.Errorf("best 3 with a wheelchair: %q, want A1,A2,A3", got)
	}
	d := res.doc(t)
	for seat, name := range map[string]string{
		"A1": "Row A, seat 1, wheelchair space, Classic, ₹180, available",
		"A2": "Row A, seat 2, companion seat, Classic, ₹180, available",
		"A4": "Row A, seat 4, Classic, ₹180, available",
	} {
		if got := d.Find(`[data-seat-id="`+seat+`"] input`).AttrOr("aria-label", ""); got != name {
			t.Errorf("seat %s is named %q, want %q", seat, got, name)
		}
	}
	legend := d.Find(".legend-states").Text()
	if !strings.Contains(legend, "Wheelchair space") || !strings.Contains(legend, "Companion seat") {
		t.Errorf("the legend says %q", legend)
	}
	if got := strings.Join(strings.Fields(c.get("/shows/show2?view=list").doc(t).Find(`#seatlist [data-seat-id="A2"]`).Text()), " "); got != "Seat 2, companion seat" {
		t.Errorf("the list reads A2 as %q", got)
	}
	tok := d.Find(`meta[name="csrf-token"]`).AttrOr("content", "")
	res = c.post("/shows/show2/holds", url.Values{"_csrf": {tok}, "seat": suggested(t, res)})
	wantStatus(t, res, http.StatusSeeOther)
	// The test hall's map has a wheelchair space and no companion seats.
	legend = c.get("/shows/" + testShowID).doc(t).Find(".legend-states").Text()
	if !strings.Contains(legend, "Wheelchair space") || strings.Contains(legend, "Companion") {
		t.Errorf("the test hall's legend says %q", legend)
	}
}
