package web_test

import (
	"encoding/csv"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"boxoffice/internal/booking"
)

// TestAdminShowListsTypes: the admin show page's bookings list each seat
// with its type and price (data-seat-id, data-ticket-type, data-price),
// and the show's bookings CSV gives them in its tickets column, prices in
// major units.
func TestAdminShowListsTypes(t *testing.T) {
	a := newAdminApp(t)
	a.typedShow()
	b := a.bookTyped(booking.TypeChoice{"A1": "senior", "A2": "child"}, "A1", "A2", "D2")
	admin := a.client()
	admin.mustLogin()

	res := admin.get("/admin/shows/" + typedShowID)
	wantStatus(t, res, http.StatusOK)
	row := res.doc(t).Find(`tr[data-booking-id="` + b.ID + `"]`)
	if row.Length() != 1 {
		t.Fatalf("no row of booking %s on the admin show page:\n%s", b.ID, res.body)
	}
	got := map[string][2]string{}
	row.Find("[data-seat-id][data-ticket-type][data-price]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("data-seat-id")
		typ, _ := s.Attr("data-ticket-type")
		price, _ := s.Attr("data-price")
		got[id] = [2]string{typ, price}
	})
	want := map[string][2]string{"A1": {"senior", "12600"}, "A2": {"child", "9000"}, "D2": {"adult", "25000"}}
	if len(got) != len(want) {
		t.Errorf("the booking's row lists %v, want %v", got, want)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("seat %s: %v, want %v", id, got[id], w)
		}
	}
	text := strings.Join(strings.Fields(row.Text()), " ")
	for _, s := range []string{"A1 Senior (ID needed) ₹126", "A2 Child (under 12) ₹90", "D2 Adult ₹250"} {
		if !strings.Contains(text, s) {
			t.Errorf("the booking's row does not say %q: %q", s, text)
		}
	}

	res = admin.get("/admin/shows/" + typedShowID + "/bookings.csv")
	wantStatus(t, res, http.StatusOK)
	rows, err := csv.NewReader(strings.NewReader(res.body)).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("CSV %v:\n%s", err, res.body)
	}
	col := -1
	for i, h := range rows[0] {
		if h == "tickets" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("no tickets column in %v", rows[0])
	}
	if got, want := rows[1][col], "A1 senior 126.00; A2 child 90.00; D2 adult 250.00"; got != want {
		t.Errorf("the CSV's tickets %q, want %q", got, want)
	}
}
