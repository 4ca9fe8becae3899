package web_test

import (
	"net/http"
	"testing"
	"time"
)

// A pending booking polls every second at first, then less often, and
// every 30 seconds from ten minutes on, for as long as it is pending: a
// poll of a stuck payment is what looks it up at the provider (SPEC §9).
// Each change of pace is a new fragment, so the polling page picks it up.
func TestPendingBookingBacksOff(t *testing.T) {
	a := newApp(t)
	c := a.client()
	p := c.mustPay("C3")
	path := "/bookings/" + p.BookingID
	tests := []struct {
		after   time.Duration // since the booking was made
		trigger string
		slow    bool // says the provider is being asked
	}{
		{0, "every 1s", false},
		{time.Minute, "every 2s", false},
		{3 * time.Minute, "every 5s", false},
		{6 * time.Minute, "every 10s", false},
		{10 * time.Minute, "every 30s", true},
	}
	etag := ""
	start := a.clock.Now()
	for _, tt := range tests {
		a.clock.Set(start.Add(tt.after))
		res := c.get(path+"/status", "HX-Request", "true", "If-None-Match", etag)
		wantStatus(t, res, http.StatusOK) // the pace changed: not 304
		etag = res.Header.Get("ETag")
		el := res.doc(t).Find("[data-booking-id]")
		trig, polls := el.Attr("hx-trigger")
		if trig != tt.trigger || !polls {
			t.Errorf("after %v: hx-trigger %q (set: %v), want %q", tt.after, trig, polls, tt.trigger)
		}
		if st, _ := el.Attr("data-state"); st != "pending" {
			t.Errorf("after %v: state %q, want pending", tt.after, st)
		}
		if slow := el.Find(`[data-poll="slow"]`).Length() > 0; slow != tt.slow {
			t.Errorf("after %v: \"asking the provider\" shown %v, want %v", tt.after, slow, tt.slow)
		}
		// Within one pace, polls are still answered 304.
		wantStatus(t, c.get(path+"/status", "If-None-Match", etag), http.StatusNotModified)
	}
	// Still pending hours later: still polling, at the ceiling, the same
	// fragment (304).
	a.clock.Set(start.Add(3 * time.Hour))
	wantStatus(t, c.get(path+"/status", "If-None-Match", etag), http.StatusNotModified)
	el := c.get(path).doc(t).Find("[data-booking-id]")
	if trig, _ := el.Attr("hx-trigger"); trig != "every 30s" {
		t.Errorf("three hours on: hx-trigger %q, want every 30s", trig)
	}
	if el.Find(`a[href="`+path+`"]`).Length() == 0 {
		t.Error("the slow page has no link to check again")
	}
}
