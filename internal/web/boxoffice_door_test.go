package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// TestCounterTicketAtTheDoor: the door admits a ticket sold at the box
// office as it admits one sold online (SPEC §16): half an hour before
// the start the counter sells two seats, the door looks the ticket up
// (valid) and admits it once with both seats, a second scan is already,
// and the counter then refuses to refund the admitted ticket (409).
func TestCounterTicketAtTheDoor(t *testing.T) {
	a := newCounterApp(t)
	a.clock.Set(testShowStart.Add(-30 * time.Minute))
	staff := a.staffClient(staffEmail, staffPassword)
	page := staff.mustSell(staff.mustCounterHold("A1", "A2"), url.Values{"method": {"cash"}})
	id := bookingIDOf(page)
	code := strings.TrimSpace(staff.get(page).doc(t).Find("[data-ticket-code]").First().Text())
	if code == "" {
		t.Fatal("the sale's page shows no ticket code")
	}

	door := a.staffClient(staffEmail, staffPassword)
	d := door.get("/admin/checkin").doc(t)
	if v, _ := d.Find(`select[name="show"] option[selected]`).Attr("value"); v != typedShowID {
		t.Errorf("the door admits to %q by default, want the show starting in half an hour (%s)", v, typedShowID)
	}
	if r, _, _ := checkin(t, door.get("/admin/checkin?show="+typedShowID+"&code="+url.QueryEscape(code))); r != "valid" {
		t.Errorf("look-up of the counter's ticket: %q, want valid", r)
	}
	admit := func() response {
		t.Helper()
		return door.post("/admin/checkin", url.Values{"_csrf": {door.counterCSRF()}, "code": {code}, "show": {typedShowID}})
	}
	res := admit()
	wantStatus(t, res, http.StatusOK)
	if r, why, _ := checkin(t, res); r != "admitted" {
		t.Fatalf("admit the counter's ticket: %q (%s), want admitted", r, why)
	}
	var seats []string
	res.doc(t).Find("[data-checkin] [data-seat-id]").Each(func(_ int, s *goquery.Selection) {
		v, _ := s.Attr("data-seat-id")
		seats = append(seats, v)
	})
	if strings.Join(seats, ",") != "A1,A2" {
		t.Errorf("the door's answer lists seats %v, want A1, A2", seats)
	}
	a.clock.Advance(time.Minute)
	res = admit()
	wantStatus(t, res, http.StatusOK)
	if r, _, at := checkin(t, res); r != "already" || at == "" {
		t.Errorf("second scan: %q (admitted at %q), want already with the time", r, at)
	}

	// Admitted: the counter refuses the refund, and the booking stays sold.
	res = staff.post("/admin/boxoffice/bookings/"+id+"/refund", url.Values{"_csrf": {staff.counterCSRF()}, "method": {"cash"}})
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.doc(t).Text(), "admitted") {
		t.Error("the refused refund does not say the ticket was admitted")
	}
	if s, _ := staff.get(page).doc(t).Find("[data-booking-id]").Attr("data-state"); s != "confirmed" {
		t.Errorf("after the refused refund data-state %q, want confirmed", s)
	}
}
