package web_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/bcrypt"

	"boxoffice/internal/booking"
	"boxoffice/internal/web"
)

// TestMayFreeInTheatreZone (SPEC §10): a held seat's "may free at" is in
// the show's theatre's zone, as its start is, whatever the server's zone
// (UTC here): 12:15 UTC is 17:45 in Kolkata. The admin's seat map says
// so too, and an admission's time is the theatre's.
func TestMayFreeInTheatreZone(t *testing.T) {
	a := newAdminApp(t) // Options.Location: UTC
	show, seats := testShow()
	show.ID, show.Theatre.TimeZone = "kolkata", "Asia/Kolkata"
	for i := range seats {
		seats[i].ShowID = show.ID
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
	if _, err := a.svc.HoldSeats(context.Background(), show.ID, "someone else", []string{"B2"}); err != nil {
		t.Fatal(err)
	}
	d := a.client().get("/shows/" + show.ID).doc(t)
	want := "Row B, seat 2, Classic, ₹180, held · may free at 17:45"
	if got := d.Find(`input[name="seat"][value="B2"]`).AttrOr("aria-label", ""); got != want {
		t.Errorf("held seat B2: %q, want %q (%v in Asia/Kolkata)", got, want, testStart.Add(15*time.Minute))
	}

	admin := a.client()
	admin.mustLogin()
	d = admin.get("/admin/shows/" + show.ID).doc(t)
	if got := d.Find(`[data-seat-id="B2"]`).AttrOr("title", ""); !strings.HasSuffix(got, "until 14 Mar 17:45:00") {
		t.Errorf("admin seat B2: title %q, want held until 14 Mar 17:45:00", got)
	}
	b := a.bookAt(show.ID, "A1")
	if _, err := a.svc.AdmitTicket(context.Background(), b.TicketCode, show.ID, "door@example.com", false); err != nil {
		t.Fatal(err)
	}
	d = admin.get("/admin/shows/" + show.ID).doc(t)
	if got := d.Text(); !strings.Contains(got, "14 Mar 17:30:00 by door@example.com") {
		t.Errorf("the admin show page does not give the admission in the theatre's time (14 Mar 17:30:00)")
	}
}

var (
	kolkataZone = mustZone("Asia/Kolkata")  // UTC+05:30
	berlinZone  = mustZone("Europe/Berlin") // UTC+01:00 in winter
	newYorkZone = mustZone("America/New_York")
)

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// newZonedApp is an admin's app whose server runs in New York, a third
// zone, as a host in another country would, without the test show (whose
// theatre has no zone).
func newZonedApp(t *testing.T) *app {
	t.Helper()
	a := newAdminApp(t)
	if err := a.svc.Catalog().DeleteShow(context.Background(), testShowID); err != nil {
		t.Fatal(err)
	}
	return a.sibling(func(o *web.Options) { o.Location = newYorkZone; o.AdminPasswordCost = bcrypt.MinCost })
}

// addZonedShow stores a show at the theatre of zone (Kolkata or Berlin)
// starting at local (its wall clock there), of movie.
func addZonedShow(t *testing.T, a *app, id, movie string, zone *time.Location, local time.Time) {
	t.Helper()
	show, seats := testShow()
	show.ID, show.Movie.ID, show.Movie.Title = id, movie, "Film "+movie
	show.Theatre = booking.Theatre{ID: zone.String(), Name: "Theatre in " + zone.String(), City: zone.String(), TimeZone: zone.String()}
	show.StartsAt = time.Date(local.Year(), local.Month(), local.Day(), local.Hour(), local.Minute(), 0, 0, zone).UTC()
	for i := range seats {
		seats[i].ShowID = id
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
}

// listingDays is, per date of the listing's strip that has shows, the
// heading of its page and its films' titles.
func listingDays(t *testing.T, a *app) map[string][]string {
	t.Helper()
	c := a.client()
	out := map[string][]string{}
	c.get("/").doc(t).Find("nav.date-strip a[data-date]:not(.date-empty)").Each(func(_ int, day *goquery.Selection) {
		d := c.get(day.AttrOr("href", "")).doc(t)
		label := strings.TrimSpace(d.Find(".listing-date").Text())
		d.Find("article.movie h3").Each(func(_ int, h *goquery.Selection) {
			label += " | " + strings.TrimSpace(h.Text())
		})
		out[day.AttrOr("data-date", "")] = []string{label}
	})
	return out
}

// TestListingDaysInTheatreZones (SPEC §10): "today" on / is the date in
// each show's theatre's zone at now, not the server's (New York): near
// midnight in Kolkata and in Berlin each says Today and Tomorrow of its
// own dates. When the listing has both and they disagree on the date (it
// is past midnight in Kolkata, not yet in Berlin) no date is called both
// Today and Tomorrow, nor two dates Today, and a show is listed on its
// date in its theatre's zone.
func TestListingDaysInTheatreZones(t *testing.T) {
	day := func(m time.Month, d, h, min int) time.Time { return time.Date(2026, m, d, h, min, 0, 0, time.UTC) }

	t.Run("Kolkata after its midnight", func(t *testing.T) {
		a := newZonedApp(t)
		a.clock.Set(day(3, 14, 19, 0)) // 00:30 on the 15th in Kolkata, 15:00 on the 14th in New York
		addZonedShow(t, a, "k1", "a", kolkataZone, day(3, 15, 10, 0))
		addZonedShow(t, a, "k2", "a", kolkataZone, day(3, 16, 10, 0))
		got := listingDays(t, a)
		want := map[string][]string{"2026-03-15": {"Today, Sun 15 Mar | Film a"}, "2026-03-16": {"Tomorrow, Mon 16 Mar | Film a"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("days (-want +got):\n%s", diff)
		}
	})
	t.Run("Berlin before its midnight", func(t *testing.T) {
		a := newZonedApp(t)
		a.clock.Set(day(3, 14, 22, 30)) // 23:30 on the 14th in Berlin
		addZonedShow(t, a, "b1", "a", berlinZone, day(3, 14, 23, 45))
		addZonedShow(t, a, "b2", "a", berlinZone, day(3, 15, 0, 30))
		got := listingDays(t, a)
		want := map[string][]string{"2026-03-14": {"Today, Sat 14 Mar | Film a"}, "2026-03-15": {"Tomorrow, Sun 15 Mar | Film a"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("days (-want +got):\n%s", diff)
		}
	})
	t.Run("both, when they disagree on the date", func(t *testing.T) {
		a := newZonedApp(t)
		a.clock.Set(day(3, 14, 19, 0))                                // the 15th in Kolkata, the 14th in Berlin and New York
		addZonedShow(t, a, "k1", "a", kolkataZone, day(3, 15, 1, 0))  // 19:30 UTC on the 14th
		addZonedShow(t, a, "b1", "a", berlinZone, day(3, 14, 22, 0))  // 21:00 UTC on the 14th
		addZonedShow(t, a, "b2", "a", berlinZone, day(3, 15, 10, 0))  // 09:00 UTC on the 15th
		addZonedShow(t, a, "k2", "b", kolkataZone, day(3, 15, 18, 0)) // another film, only in Kolkata
		addZonedShow(t, a, "k3", "a", kolkataZone, day(3, 17, 18, 0))
		all := listingDays(t, a)
		want := map[string][]string{
			"2026-03-14": {"Saturday 14 Mar | Film a"},
			"2026-03-15": {"Sunday 15 Mar | Film a | Film b"},
			"2026-03-17": {"Tuesday 17 Mar | Film a"},
		}
		if diff := cmp.Diff(want, all); diff != "" {
			t.Errorf("days (-want +got):\n%s", diff)
		}
		for date, times := range map[string]map[string]string{
			"2026-03-14": {"b1": "22:00 CET"},
			"2026-03-15": {"k1": "01:00 IST", "b2": "10:00 CET", "k2": "18:00 IST"},
		} {
			d := a.client().get("/?date=" + date).doc(t)
			for id, want := range times {
				if got := strings.TrimSpace(d.Find(`[data-show-id="` + id + `"] .time-at`).Text()); got != want {
					t.Errorf("%s: show %s at %q, want %q: a listing of two zones names each time's", date, id, got, want)
				}
			}
		}
	})
}

// TestAdminDateFilterInTheatreZone (SPEC §10): a show is on date D of the
// admin's overview when it starts on D in its theatre's zone: 00:30 in
// Berlin on the 15th is 23:30 UTC on the 14th (and 19:30 in New York,
// the server's zone). Admin pages name every time's zone.
func TestAdminDateFilterInTheatreZone(t *testing.T) {
	a := newZonedApp(t)
	day := func(d, h, min int) time.Time { return time.Date(2026, 3, d, h, min, 0, 0, time.UTC) }
	addZonedShow(t, a, "berlin-late", "a", berlinZone, day(15, 0, 30))
	addZonedShow(t, a, "kolkata-early", "a", kolkataZone, day(15, 0, 30)) // 19:00 UTC on the 14th
	addZonedShow(t, a, "berlin-14", "a", berlinZone, day(14, 23, 0))
	admin := a.client()
	admin.mustLogin()
	for date, want := range map[string][]string{
		"2026-03-15": {"berlin-late", "kolkata-early"},
		"2026-03-14": {"berlin-14"},
	} {
		d := admin.get("/admin?date=" + date).doc(t)
		var got []string
		d.Find(`[data-show-id]`).Each(func(_ int, s *goquery.Selection) {
			if id := s.AttrOr("data-show-id", ""); !slices.Contains(got, id) {
				got = append(got, id)
			}
		})
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("/admin?date=%s (-want +got):\n%s", date, diff)
		}
		if date == "2026-03-15" {
			if text := d.Text(); !strings.Contains(text, "00:30 CET") || !strings.Contains(text, "00:30 IST") {
				t.Errorf("the overview does not name the zones of its times (00:30 CET, 00:30 IST):\n%s", text)
			}
		}
	}
}

// TestDoorInTheatreZone (SPEC §10, §11): the door lists a Berlin show
// starting within two hours by its Berlin date and time, zone named, and
// says when a ticket was admitted in Berlin time, whatever the server's
// zone (New York).
func TestDoorInTheatreZone(t *testing.T) {
	a := newZonedApp(t)
	a.clock.Set(time.Date(2026, 3, 14, 22, 45, 0, 0, time.UTC)) // 23:45 CET, 18:45 in New York
	addZonedShow(t, a, "berlin-late", "a", berlinZone, time.Date(2026, 3, 15, 0, 30, 0, 0, time.UTC))
	b := a.bookAt("berlin-late", "A1")
	door := a.client()
	door.mustLogin()
	d := door.get("/admin/checkin").doc(t)
	opt := d.Find(`select[name="show"] option[value="berlin-late"]`)
	if label := opt.Text(); !strings.HasPrefix(label, "Sun 15 Mar 00:30 CET") {
		t.Errorf("the door names the show %q, want it at Sun 15 Mar 00:30 CET", label)
	}
	if _, ok := opt.Attr("selected"); !ok {
		t.Error("the door does not admit to the show starting within two hours by default")
	}
	wantStatus(t, door.admit(b.TicketCode, "berlin-late"), http.StatusOK)
	res := door.admit(b.TicketCode, "berlin-late")
	if text := res.doc(t).Text(); !strings.Contains(text, "Admitted at 23:45 CET, Sat 14 Mar") {
		t.Errorf("the second scan does not say the admission in Berlin time (23:45 CET, Sat 14 Mar):\n%s", text)
	}
}
