package web_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestPhonePolishHTML (item 6 of issue 29), as the HTML shows it: the
// checkout's email field has autofocus, so that focus lands on it after
// Hold; without JavaScript the hold bar shows the seats Find seats ticked
// and their total; the header's links are in a nav the stylesheet lays
// out with a gap.
func TestPhonePolishHTML(t *testing.T) {
	a := newApp(t)
	c := a.client()
	d := c.get(c.mustHold("A1")).doc(t)
	if _, ok := d.Find("#pay-email").Attr("autofocus"); !ok {
		t.Error("the checkout's email field has no autofocus")
	}
	res := c.get("/shows/" + testShowID + "?best=2")
	wantStatus(t, res, http.StatusOK)
	d = res.doc(t)
	if n := d.Find("[data-suggested]").Length(); n != 2 {
		t.Fatalf("%d seats suggested, want 2", n)
	}
	if got := strings.TrimSpace(d.Find(".holdbar-total").Text()); got == "" || !strings.HasPrefix(got, "₹") {
		t.Errorf("after Find seats the hold bar's total is %q", got)
	}
	if got := strings.TrimSpace(d.Find(".holdbar-button").Text()); got != "Hold 2 seats" {
		t.Errorf("after Find seats the Hold button says %q", got)
	}
}
