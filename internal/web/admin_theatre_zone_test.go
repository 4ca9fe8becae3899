package web_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// TestTheatreZoneList (issue 29, item 8): the theatre form's time zone
// field offers a list of zones (a datalist), each a name time.LoadLocation
// knows, the common ones among them; the field is tied to its hint.
func TestTheatreZoneList(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	for _, path := range []string{"/admin/theatres/new"} {
		res := admin.get(path)
		wantStatus(t, res, http.StatusOK)
		d := res.doc(t)
		in := d.Find(`input[name="time_zone"]`)
		list, ok := in.Attr("list")
		if !ok || list == "" {
			t.Fatalf("%s: the time zone field has no list", path)
		}
		dl := d.Find(`datalist#` + list)
		var zones []string
		dl.Find("option").Each(func(_ int, o *goquery.Selection) { zones = append(zones, o.AttrOr("value", "")) })
		if len(zones) < 20 {
			t.Errorf("%s: the zone list has %d zones, want the common ones (20 or more)", path, len(zones))
		}
		for _, z := range zones {
			if _, err := time.LoadLocation(z); err != nil || z == "" || z == "Local" {
				t.Errorf("%s: the zone list offers %q: %v", path, z, err)
			}
		}
		for _, want := range []string{"Asia/Kolkata", "Europe/London", "America/New_York", "Asia/Tokyo", "UTC"} {
			if !slices.Contains(zones, want) {
				t.Errorf("%s: the zone list lacks %s", path, want)
			}
		}
		if desc, _ := in.Attr("aria-describedby"); desc == "" || d.Find("#"+desc).Length() != 1 {
			t.Errorf("%s: the time zone field is described by %q, want its hint", path, desc)
		}
	}
}
