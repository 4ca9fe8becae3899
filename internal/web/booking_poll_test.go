package web_test

import (
	"net/http"
	"testing"
	"time"
)

// A pending booking polls every second at first, then less often, and stops
// after about ten minutes with a hint to reload; each change of pace is a
// new fragment, so the polling page picks it up.
func TestPendingBookingBacksOff(t *testing.T) {
	a := newApp(t)
	c := a.client()
	p := c.mustPay("C3")
	path := "/bookings/" + p.BookingID
	tests := []struct {
		after   time.Duration // since the booking was made
		trigger string        // "" for no polling
	}{
		{0, "every 1s"},
		{time.Minute, "every 2s"},
		{3 * time.Minute, "every 5s"},
		{6 * time.Minute, "every 10s"},
		{11 * time.Minute, ""},
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
		if trig != tt.trigger || polls != (tt.trigger != "") {
			t.Errorf("after %v: hx-trigger %q (set: %v), want %q", tt.after, trig, polls, tt.trigger)
		}
		if st, _ := el.Attr("data-state"); st != "pending" {
			t.Errorf("after %v: state %q, want pending", tt.after, st)
		}
		stopped := el.Find(`[data-poll="stopped"]`).Length() > 0
		if stopped != (tt.trigger == "") {
			t.Errorf("after %v: refresh hint shown %v", tt.after, stopped)
		}
		// Within one pace, polls are still answered 304.
		wantStatus(t, c.get(path+"/status", "If-None-Match", etag), http.StatusNotModified)
	}
	if d := c.get(path).doc(t); d.Find(`a[href="`+path+`"]`).Length() == 0 {
		t.Error("the page that gave up has no link to refresh it")
	}
}
