package web_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
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
	// The total is the suggested seats' prices added up (each seat's own,
	// else its band's): two Prime seats, ₹500.
	var sum int64
	d.Find("[data-suggested]").Each(func(_ int, s *goquery.Selection) {
		price, err := strconv.ParseInt(s.Closest("[data-price]").AttrOr("data-price", ""), 10, 64)
		if err != nil {
			t.Fatalf("suggested seat %s: no price: %v", s.AttrOr("data-seat-id", ""), err)
		}
		sum += price
	})
	if sum != 500_00 {
		t.Errorf("the suggested seats cost %d paise, want two Prime seats, 50000", sum)
	}
	if got, want := strings.TrimSpace(d.Find(".holdbar-total").Text()), "₹"+strconv.FormatInt(sum/100, 10); got != want {
		t.Errorf("after Find seats the hold bar's total is %q, want %q", got, want)
	}
	if got := strings.TrimSpace(d.Find(".holdbar-button").Text()); got != "Hold 2 seats" {
		t.Errorf("after Find seats the Hold button says %q", got)
	}
}
