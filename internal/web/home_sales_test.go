package web_test

import (
	"net/http"
	"testing"
	"time"
)

// TestHomeListsWhatIsOnSale (SPEC §10): / lists the shows on sale by
// SALES_CLOSE, whatever it is, and each one it lists is on sale on its
// map; none that has closed. It opens on today, the first date with shows
// on sale; a show ten years ahead is listed on its own date.
func TestHomeListsWhatIsOnSale(t *testing.T) {
	for _, tc := range []struct {
		name   string
		close  time.Duration
		listed map[time.Duration]bool // start, from now → listed
	}{
		{"half an hour before the start", -30 * time.Minute, map[time.Duration]bool{
			-5 * time.Minute: false, 10 * time.Minute: false, 29 * time.Minute: false, 31 * time.Minute: true,
		}},
		{"at the start", 0, map[time.Duration]bool{
			-10 * time.Minute: false, -time.Second: false, time.Second: true,
		}},
		{"twenty minutes after the start", 20 * time.Minute, map[time.Duration]bool{
			-30 * time.Minute: false, -21 * time.Minute: false, -19 * time.Minute: true, 5 * time.Minute: true,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testPolicy
			p.SalesClose = tc.close
			a := newAppWith(t, p)
			ids := map[string]time.Duration{}
			for d := range tc.listed {
				ids[a.soonShow(t, "starts"+d.String(), a.clock.Now().Add(d))] = d
			}
			c := a.client()
			home := c.get("/")
			wantStatus(t, home, http.StatusOK)
			doc := home.doc(t)
			for id, d := range ids {
				listed := doc.Find(`[data-show-id="`+id+`"]`).Length() > 0
				if listed != tc.listed[d] {
					t.Errorf("a show starting %v from now: listed %v, want %v", d, listed, tc.listed[d])
				}
				if !listed {
					continue
				}
				onSale, _ := c.get("/shows/" + id).doc(t).Find("form#hold-form").Attr("data-on-sale")
				if onSale != "true" {
					t.Errorf("a listed show starting %v from now has data-on-sale %q", d, onSale)
				}
			}
			later := c.get("/?date=" + testShowStart.Format(time.DateOnly)).doc(t)
			if later.Find(`[data-show-id="`+testShowID+`"]`).Length() == 0 {
				t.Error("the show ten years ahead is not listed on its date")
			}
		})
	}
}
