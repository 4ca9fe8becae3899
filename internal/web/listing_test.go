package web_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

// listing is a show of the listing's tests: a film at a theatre of a city,
// in a zone, at a wall-clock start there.
type listing struct {
	id, movie, theatre, city string
	zone                     *time.Location
	local                    time.Time // its wall clock, read in zone
}

// addListed stores l as a show of testShow's hall (30 seats).
func addListed(t *testing.T, a *app, l listing) {
	t.Helper()
	show, seats := testShow()
	show.ID, show.Movie.ID, show.Movie.Title = l.id, l.movie, "Film "+l.movie
	show.Theatre = booking.Theatre{ID: l.theatre, Name: "Theatre " + l.theatre, City: l.city, TimeZone: l.zone.String()}
	show.StartsAt = time.Date(l.local.Year(), l.local.Month(), l.local.Day(), l.local.Hour(), l.local.Minute(), 0, 0, l.zone).UTC()
	for i := range seats {
		seats[i].ShowID = l.id
	}
	if err := booking.CreateShowStep(context.Background(), a.store, time.Now, show, seats); err != nil {
		t.Fatal(err)
	}
}

// listingIDs are the show ids the page lists, in its order.
func listingIDs(d *goquery.Document) []string {
	var ids []string
	d.Find(".listing [data-show-id]").Each(func(_ int, s *goquery.Selection) {
		ids = append(ids, s.AttrOr("data-show-id", ""))
	})
	return ids
}

// currentDate is the date strip's aria-current="date" entry's date.
func currentDate(t *testing.T, d *goquery.Document) string {
	t.Helper()
	cur := d.Find(`nav.date-strip a[aria-current="date"]`)
	if cur.Length() != 1 {
		t.Fatalf("%d dates of the strip are current, want 1", cur.Length())
	}
	return cur.AttrOr("data-date", "")
}

// on is a wall-clock time on 2026-03-d.
func on(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, time.UTC) }

// TestListingCity (SPEC §20 "listing"): / lists every city until one is
// chosen; ?city= chooses one and a cookie remembers it without a session;
// ?city=all and ?city= (empty) clear it; a city without shows is not
// remembered and the page says so.
func TestListingCity(t *testing.T) {
	a := newApp(t)
	a.clock.Set(on(14, 4, 0)) // 09:30 in Kolkata
	addListed(t, a, listing{"chennai", "a", "meenakshi", "Chennai", kolkataZone, on(14, 18, 0)})
	addListed(t, a, listing{"mumbai", "a", "kohinoor", "Mumbai", kolkataZone, on(14, 19, 0)})
	c := a.client()

	ids := func(res response) []string {
		t.Helper()
		wantStatus(t, res, http.StatusOK)
		got := listingIDs(res.doc(t))
		slices.Sort(got)
		return got
	}
	if got, want := ids(c.get("/")), []string{"chennai", "mumbai"}; !slices.Equal(got, want) {
		t.Errorf("/ before a city is chosen lists %v, want every city's %v", got, want)
	}

	chosen := c.get("/?city=Chennai")
	if got := ids(chosen); !slices.Equal(got, []string{"chennai"}) {
		t.Errorf("/?city=Chennai lists %v", got)
	}
	ck := cookieNamed(t, chosen, "city", false)
	if ck.Value != "Chennai" || ck.MaxAge <= 0 {
		t.Errorf("city cookie %q, MaxAge %d: want Chennai, kept", ck.Value, ck.MaxAge)
	}
	for _, ck := range chosen.Cookies() {
		if strings.Contains(ck.Name, "session") {
			t.Errorf("choosing a city makes a session: %v", ck)
		}
	}
	d := chosen.doc(t)
	if sel := d.Find(`select[name="city"] option[selected]`).AttrOr("value", ""); sel != "Chennai" {
		t.Errorf("the city choice shows %q selected, want Chennai", sel)
	}
	if h := strings.Join(strings.Fields(d.Find("h1").Text()), " "); h != "Now showing in Chennai" {
		t.Errorf("heading %q", h)
	}
	if got := ids(c.get("/")); !slices.Equal(got, []string{"chennai"}) {
		t.Errorf("/ after choosing Chennai lists %v: the city is not remembered", got)
	}
	if got := ids(c.get("/?city=mumbai")); !slices.Equal(got, []string{"mumbai"}) {
		t.Errorf("/?city=mumbai (any case) lists %v", got)
	}

	for _, clear := range []string{"/?city=all", "/?city="} {
		c.get("/?city=Chennai")
		res := c.get(clear)
		if got := ids(res); !slices.Equal(got, []string{"chennai", "mumbai"}) {
			t.Errorf("%s lists %v, want every city", clear, got)
		}
		if ck := cookieNamed(t, res, "city", false); ck.MaxAge >= 0 {
			t.Errorf("%s: city cookie MaxAge %d, want it deleted", clear, ck.MaxAge)
		}
		if got := ids(c.get("/")); !slices.Equal(got, []string{"chennai", "mumbai"}) {
			t.Errorf("/ after %s lists %v, want every city", clear, got)
		}
	}

	// A city written in any script is remembered as it is written.
	addListed(t, a, listing{"kovai", "a", "kovai", "கோவை", kolkataZone, on(14, 20, 0)})
	tamil := c.get("/?city=" + url.QueryEscape("கோவை"))
	if got := ids(tamil); !slices.Equal(got, []string{"kovai"}) {
		t.Errorf("/?city=கோவை lists %v", got)
	}
	if ck := cookieNamed(t, tamil, "city", false); ck.MaxAge <= 0 {
		t.Errorf("கோவை is not remembered: %v", ck)
	}
	if got := ids(c.get("/")); !slices.Equal(got, []string{"kovai"}) {
		t.Errorf("/ after choosing கோவை lists %v", got)
	}
	c.get("/?city=all")

	unknown := c.get("/?city=Atlantis")
	if got := ids(unknown); !slices.Equal(got, []string{"chennai", "kovai", "mumbai"}) {
		t.Errorf("/?city=Atlantis lists %v, want every city", got)
	}
	if !strings.Contains(unknown.doc(t).Find(".notice").Text(), "No shows are listed in Atlantis") {
		t.Error("/?city=Atlantis does not say it has no shows there")
	}
	for _, ck := range unknown.Cookies() {
		if ck.Name == "city" {
			t.Errorf("a city without shows is remembered: %v", ck)
		}
	}
}

// TestListingDates (SPEC §20 "listing"): the strip offers today and the
// next six days, each a link with ?date=; / opens on the first date with
// a show on sale (not today, whose one show is not on sale yet), and
// ?date= shows another, current in the strip.
func TestListingDates(t *testing.T) {
	a := newApp(t)
	a.clock.Set(on(14, 4, 0)) // 09:30 on the 14th in Kolkata
	addListed(t, a, listing{"later-today", "a", "t", "Chennai", kolkataZone, on(14, 20, 0)})
	addListed(t, a, listing{"d16", "a", "t", "Chennai", kolkataZone, on(16, 18, 0)})
	addListed(t, a, listing{"d16b", "b", "t", "Chennai", kolkataZone, on(16, 21, 0)})
	addListed(t, a, listing{"d18", "b", "t", "Chennai", kolkataZone, on(18, 18, 0)})
	if _, err := a.svc.SetSalesOpening(context.Background(), "later-today", on(14, 10, 0)); err != nil {
		t.Fatal(err)
	}
	c := a.client()

	d := c.get("/?city=Chennai").doc(t)
	var dates, hrefs []string
	d.Find("nav.date-strip a[data-date]").Each(func(_ int, s *goquery.Selection) {
		dates = append(dates, s.AttrOr("data-date", ""))
		hrefs = append(hrefs, s.AttrOr("href", ""))
	})
	want := []string{"2026-03-14", "2026-03-15", "2026-03-16", "2026-03-17", "2026-03-18", "2026-03-19", "2026-03-20"}
	if diff := cmp.Diff(want, dates); diff != "" {
		t.Errorf("the strip's dates (-want +got):\n%s", diff)
	}
	for i, h := range hrefs {
		if h != "/?date="+want[i] {
			t.Errorf("the strip's %s links to %q", want[i], h)
		}
	}
	if label := d.Find("nav.date-strip").AttrOr("aria-label", ""); label == "" {
		t.Error("the date strip is a nav without an aria-label")
	}
	if got := currentDate(t, d); got != "2026-03-16" {
		t.Errorf("/ opens on %s, want 2026-03-16, the first date with a show on sale", got)
	}
	if got := listingIDs(d); !slices.Equal(got, []string{"d16", "d16b"}) {
		t.Errorf("/ lists %v, want the 16th's shows", got)
	}
	if got := strings.TrimSpace(d.Find(".listing-date").Text()); got != "Monday 16 Mar" {
		t.Errorf("the date shown is called %q", got)
	}
	if n := d.Find(".listing article.movie h3").Length(); n != 2 {
		t.Errorf("%d films with a heading, want 2", n)
	}

	for date, ids := range map[string][]string{
		"2026-03-14": {"later-today"},
		"2026-03-18": {"d18"},
		"2026-03-17": nil,
	} {
		d := c.get("/?date=" + date).doc(t)
		if got := currentDate(t, d); got != date {
			t.Errorf("?date=%s: the strip's current date is %s", date, got)
		}
		if got := listingIDs(d); !slices.Equal(got, ids) {
			t.Errorf("?date=%s lists %v, want %v", date, got, ids)
		}
		if ids == nil && !strings.Contains(d.Find(".empty").Text(), "No shows on this date") {
			t.Errorf("?date=%s, a date without shows, does not say so", date)
		}
	}
	if label := strings.Join(strings.Fields(c.get("/?date=2026-03-14").doc(t).Find(`nav.date-strip a[data-date="2026-03-14"]`).Text()), " "); label != "Today 14 Mar" {
		t.Errorf("today in the strip reads %q", label)
	}
}

// TestListingBadDate: a ?date= that is not YYYY-MM-DD is a 400 that says
// how to write one; a date out of the strip with no shows shows the first
// date with shows on sale, and says so.
func TestListingBadDate(t *testing.T) {
	a := newApp(t)
	for _, bad := range []string{"tomorrow", "2026-13-01", "14-03-2026", "2026-03-14T10:00:00Z"} {
		res := a.client().get("/?date=" + bad)
		wantStatus(t, res, http.StatusBadRequest)
		if !strings.Contains(res.body, "YYYY-MM-DD") {
			t.Errorf("?date=%s: the 400 does not say how to write a date", bad)
		}
	}
	res := a.client().get("/?date=2026-03-01")
	wantStatus(t, res, http.StatusOK)
	d := res.doc(t)
	if !strings.Contains(d.Find(".notice").Text(), "There is no listing for Sun 1 Mar 2026") {
		t.Errorf("a past date: notice %q", d.Find(".notice").Text())
	}
	if got := listingIDs(d); !slices.Equal(got, []string{testShowID}) {
		t.Errorf("a past date lists %v, want the first date's show", got)
	}
}

// TestListingShowtimes (SPEC §20 "listing"): every showtime is a link to
// its seat map with data-show-id, sold out too (nothing available online,
// or no more than the online cut-off keeps: data-availability="sold-out",
// since a held seat may free again); at most 10 % left online is
// data-availability="few". Each says so.
func TestListingShowtimes(t *testing.T) {
	p := testPolicy
	p.MaxSeats = 30
	a := newAppWith(t, p)
	a.clock.Set(on(14, 4, 0))
	all := func(n int) []string {
		var seats []string
		for _, row := range []string{"A", "B", "C", "D", "E"} {
			for i := 1; i <= 6; i++ {
				seats = append(seats, row+itoa(i))
			}
		}
		return seats[:n]
	}
	cases := []struct {
		id     string
		booked int
		cutoff int
		want   string
		text   string
	}{
		{"plenty", 0, 0, "", ""},
		{"four-left", 26, 0, "", ""},
		{"three-left", 27, 0, "few", "Few left"},
		{"one-left", 29, 0, "few", "Few left"},
		{"full", 30, 0, "sold-out", "Sold out"},
		{"cut-off", 27, 3, "sold-out", "Sold out"},
		{"above-cut-off", 26, 3, "few", "Few left"},
	}
	for i, tc := range cases {
		addListed(t, a, listing{tc.id, "a", "t", "Chennai", kolkataZone, on(14, 12+i, 0)})
		if tc.booked > 0 {
			a.bookAt(tc.id, all(tc.booked)...)
		}
		if tc.cutoff > 0 {
			if err := a.svc.SetOnlineCutoff(context.Background(), tc.id, tc.cutoff); err != nil {
				t.Fatal(err)
			}
		}
	}
	d := a.client().get("/").doc(t)
	for _, tc := range cases {
		el := d.Find(`.listing [data-show-id="` + tc.id + `"]`)
		if el.Length() != 1 {
			t.Errorf("%s: %d showtimes, want 1", tc.id, el.Length())
			continue
		}
		if got := el.AttrOr("data-availability", ""); got != tc.want {
			t.Errorf("%s: data-availability %q, want %q", tc.id, got, tc.want)
		}
		if href, _ := el.Attr("href"); goquery.NodeName(el) != "a" || href != "/shows/"+tc.id {
			t.Errorf("%s: <%s href=%q>, want a link to its seat map", tc.id, goquery.NodeName(el), href)
		}
		if txt := el.Find(".time-left").Text(); txt != tc.text {
			t.Errorf("%s: says %q, want %q", tc.id, txt, tc.text)
		}
	}
	d.Find(".listing .time, .listing [data-show-id]").Each(func(_ int, s *goquery.Selection) {
		if s.AttrOr("data-show-id", "") == "" || goquery.NodeName(s) != "a" {
			t.Errorf("a showtime that is not a link with data-show-id: <%s> %q", goquery.NodeName(s), s.Text())
		}
	})
	d.Find(".listing a").Each(func(_ int, s *goquery.Selection) {
		if id := s.AttrOr("data-show-id", ""); id == "" || s.AttrOr("href", "") != "/shows/"+id {
			t.Errorf("a link of the listing is not a showtime to its seat map: %q → %q", s.Text(), s.AttrOr("href", ""))
		}
	})
}

// TestListingZones (SPEC §10, §20): a showtime names its zone when the
// page lists shows of more than one zone, and not when every show on it is
// in the server's; a show's date is its date in its theatre's zone.
func TestListingZones(t *testing.T) {
	a := newApp(t, func(o *web.Options) { o.Location = kolkataZone })
	a.clock.Set(on(14, 4, 0)) // 09:30 in Kolkata, 05:00 in Berlin
	addListed(t, a, listing{"k1", "a", "kolkata", "Chennai", kolkataZone, on(15, 1, 0)})
	addListed(t, a, listing{"b1", "a", "berlin", "Berlin", berlinZone, on(15, 22, 0)})
	addListed(t, a, listing{"k2", "a", "kolkata", "Chennai", kolkataZone, on(15, 20, 0)})
	times := func(path string) map[string]string {
		t.Helper()
		out := map[string]string{}
		d := a.client().get(path).doc(t)
		d.Find(".listing [data-show-id]").Each(func(_ int, s *goquery.Selection) {
			out[s.AttrOr("data-show-id", "")] = strings.TrimSpace(s.Find(".time-at").Text())
		})
		return out
	}
	if diff := cmp.Diff(map[string]string{"k1": "01:00 IST", "k2": "20:00 IST", "b1": "22:00 CET"}, times("/?date=2026-03-15")); diff != "" {
		t.Errorf("every city on the 15th (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"k1": "01:00", "k2": "20:00"}, times("/?city=Chennai&date=2026-03-15")); diff != "" {
		t.Errorf("Chennai, in the server's zone (-want +got):\n%s", diff)
	}
}

// TestListingStripInTheatreZones (SPEC §10): the strip's "today" is the
// date in the shows' theatres' zone, not the server's (New York): past
// midnight in Kolkata, its today is the 15th; when the page's zones
// disagree on the date (Kolkata's 15th is Berlin's 14th) no date is
// called Today or Tomorrow, and the strip starts on the earliest today.
func TestListingStripInTheatreZones(t *testing.T) {
	strip := func(a *app, path string) []string {
		t.Helper()
		var out []string
		a.client().get(path).doc(t).Find("nav.date-strip a").Each(func(_ int, s *goquery.Selection) {
			out = append(out, s.AttrOr("data-date", "")+" "+strings.TrimSpace(s.Find(".date-day").Text()))
		})
		return out
	}
	a := newZonedApp(t)
	a.clock.Set(on(14, 19, 0)) // 00:30 on the 15th in Kolkata, 20:00 on the 14th in Berlin, 15:00 in New York
	addListed(t, a, listing{"k1", "a", "kolkata", "Chennai", kolkataZone, on(15, 10, 0)})
	addListed(t, a, listing{"b1", "a", "berlin", "Berlin", berlinZone, on(14, 22, 0)})
	got := strip(a, "/?city=Chennai")
	if diff := cmp.Diff([]string{"2026-03-15 Today", "2026-03-16 Tomorrow", "2026-03-17 Tue"}, got[:3]); diff != "" {
		t.Errorf("Chennai's strip (-want +got):\n%s", diff)
	}
	got = strip(a, "/?city=all")
	if diff := cmp.Diff([]string{"2026-03-14 Sat", "2026-03-15 Sun", "2026-03-16 Mon"}, got[:3]); diff != "" {
		t.Errorf("every city's strip (-want +got):\n%s", diff)
	}
}

// countingReads counts the store's reads of shows and seats.
type countingReads struct {
	*sqlite.Store
	reads atomic.Int64
}

func (s *countingReads) UpcomingShows(ctx context.Context, from time.Time, limit int, m booking.Moment) ([]booking.ShowSummary, error) {
	s.reads.Add(1)
	return s.Store.UpcomingShows(ctx, from, limit, m)
}

func (s *countingReads) Show(ctx context.Context, id string) (booking.Show, error) {
	s.reads.Add(1)
	return s.Store.Show(ctx, id)
}

func (s *countingReads) Seats(ctx context.Context, id string) ([]booking.Seat, error) {
	s.reads.Add(1)
	return s.Store.Seats(ctx, id)
}

func (s *countingReads) ShowSeats(ctx context.Context, id, owner string) (booking.ShowSeats, error) {
	s.reads.Add(1)
	return s.Store.ShowSeats(ctx, id, owner)
}

func (s *countingReads) Occupancy(ctx context.Context, id string, m booking.Moment) (booking.Occupancy, error) {
	s.reads.Add(1)
	return s.Store.Occupancy(ctx, id, m)
}

func (s *countingReads) AvailableSeatIDs(ctx context.Context, id string, m booking.Moment) ([]string, error) {
	s.reads.Add(1)
	return s.Store.AvailableSeatIDs(ctx, id, m)
}

func (s *countingReads) CountShows(ctx context.Context) (int, error) {
	s.reads.Add(1)
	return s.Store.CountShows(ctx)
}

// TestListingReadsOnce: the listing reads the shows on sale, with their
// seats left, in one store read, however many shows, cities and dates
// there are: no read per show.
func TestListingReadsOnce(t *testing.T) {
	a := newApp(t)
	a.clock.Set(on(14, 4, 0))
	st := &countingReads{Store: a.store}
	a.srv.Config.Handler = web.New(booking.NewService(st, a.clock, testPolicy), web.Options{Location: time.UTC, Logger: discardLogger()}).Handler()
	reads := func(path string) int64 {
		t.Helper()
		before := st.reads.Load()
		wantStatus(t, a.client().get(path), http.StatusOK)
		return st.reads.Load() - before
	}
	few := reads("/")
	for i := range 24 {
		addListed(t, a, listing{"s" + itoa(i), "m" + itoa(i%5), "t" + itoa(i%3), []string{"Chennai", "Mumbai"}[i%2], kolkataZone, on(14+i%4, 10+i%12, 0)})
	}
	for _, path := range []string{"/", "/?city=Chennai", "/?date=2026-03-15"} {
		if n := reads(path); n != few || n != 1 {
			t.Errorf("%s with 25 shows: %d store reads, with 1 show %d; want 1", path, n, few)
		}
	}
}
