package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

const catalogLayout = `C = Classic
P = Prime

A  CCC.CCC
B  W+C.CCC

C  PPP.PPP
`

// catalog stores a theatre th1 (London) with a screen sc1 laid out as
// catalogLayout, a movie mv1, a ticket type adult and a price card card1,
// so that every catalog page has a record to show.
func (a *app) catalog() {
	a.t.Helper()
	ctx := context.Background()
	th := booking.Theatre{ID: "th1", Name: "Prince Charles", City: "London", TimeZone: "Europe/London", Currency: "INR"}
	sc := booking.Screen{ID: "sc1", TheatreID: th.ID, Name: "Screen 1", Layout: catalogLayout}
	mv := booking.Movie{ID: "mv1", Title: "Brief Encounter", Rating: "PG", RuntimeMin: 86, Language: "English"}
	adult := booking.TicketType{ID: "adult", Name: "Adult", Online: true, BoxOffice: true}
	card := booking.PriceCard{ID: "card1", TheatreID: th.ID, Name: "Weekday", Cells: booking.PriceTable{
		{Category: "Classic", Type: "adult", Price: 180_00}, {Category: "Prime", Type: "adult", Price: 250_00}}}
	for _, err := range []error{
		booking.SaveTheatreStep(ctx, a.store, time.Now, th),
		booking.SaveScreenStep(ctx, a.store, time.Now, sc),
		booking.SaveMovieStep(ctx, a.store, time.Now, mv),
		booking.SaveTicketTypeStep(ctx, a.store, time.Now, th.ID, "", adult),
		booking.SavePriceCardStep(ctx, a.store, time.Now, card, []string{"Classic", "Prime"}),
	} {
		if err != nil {
			a.t.Fatal(err)
		}
	}
}

func TestCatalogNeedsAnAdmin(t *testing.T) {
	a := newAdminApp(t)
	c := a.client()
	for _, p := range []string{"/admin/catalog", "/admin/theatres/new", "/admin/movies/new", "/admin/shows/new"} {
		res := c.get(p)
		wantStatus(t, res, http.StatusSeeOther)
		if loc := res.Header.Get("Location"); loc != "/admin/login" {
			t.Errorf("GET %s without an admin: to %q, want /admin/login", p, loc)
		}
	}
	res := c.post("/admin/theatres", url.Values{"_csrf": {c.csrf()}, "name": {"X"}, "city": {"Y"}, "time_zone": {"UTC"}, "currency": {"INR"}})
	wantStatus(t, res, http.StatusSeeOther)
	if list, _ := a.store.ListTheatres(context.Background()); len(list) != 0 {
		t.Errorf("a moviegoer created a theatre: %v", list)
	}
	admin := a.client()
	admin.mustLogin()
	res = admin.post("/admin/theatres", url.Values{"name": {"X"}, "city": {"Y"}, "time_zone": {"UTC"}, "currency": {"INR"}})
	wantStatus(t, res, http.StatusForbidden) // no CSRF token
}

// TestCatalogFromNothingToABookableShow: an admin creates a theatre, a
// screen from a pasted layout (previewed first, a bad one refused with its
// line and column), a movie and a show, each bad form shown again 422 with
// the field named and nothing saved; a moviegoer then holds a seat of it.
func TestCatalogFromNothingToABookableShow(t *testing.T) {
	a := newAdminApp(t)
	ctx := context.Background()
	admin := a.client()
	admin.mustLogin()
	tok := admin.adminCSRF()

	// Theatre.
	res := admin.post("/admin/theatres", url.Values{"_csrf": {tok}, "name": {""}, "city": {"London"}, "time_zone": {"Europe/Londres"}, "currency": {"INR"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	d := res.doc(t)
	for _, f := range []string{"name", "time_zone"} {
		if d.Find(`[data-field-error="`+f+`"]`).Length() != 1 {
			t.Errorf("the refused theatre form does not name %s", f)
		}
	}
	if v, _ := d.Find(`input[name="city"]`).Attr("value"); v != "London" {
		t.Errorf("the refused form lost what was typed: city %q", v)
	}
	if list, _ := a.store.ListTheatres(ctx); len(list) != 0 {
		t.Fatalf("a refused theatre was saved: %v", list)
	}
	wantStatus(t, admin.post("/admin/theatres", url.Values{"_csrf": {tok}, "name": {"Prince Charles"}, "city": {"London"}, "time_zone": {"Europe/London"}, "currency": {"INR"}}), http.StatusSeeOther)
	theatres, _ := a.store.ListTheatres(ctx)
	if len(theatres) != 1 {
		t.Fatalf("theatres %v", theatres)
	}
	th := theatres[0]

	// Screen: a bad layout, a preview, then the save.
	screens := "/admin/theatres/" + th.ID + "/screens"
	res = admin.post(screens, url.Values{"_csrf": {tok}, "name": {"Screen 1"}, "layout": {"C = Classic\nA  CCX\n"}, "action": {"save"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if msg := res.doc(t).Find(`[data-field-error="layout"]`).Text(); !strings.Contains(msg, "line 2, column") {
		t.Errorf("a bad layout's error %q does not say where", msg)
	}
	res = admin.post(screens, url.Values{"_csrf": {tok}, "name": {"Screen 1"}, "layout": {catalogLayout}, "action": {"preview"}})
	wantStatus(t, res, http.StatusOK)
	pd := res.doc(t)
	if n := pd.Find(`[data-layout-preview] [data-seat-id]`).Length(); n != 18 {
		t.Errorf("the preview draws %d seats, want 18", n)
	}
	if list, _ := a.store.ListScreens(ctx, th.ID); len(list) != 0 {
		t.Fatal("Preview saved the screen")
	}
	wantStatus(t, admin.post(screens, url.Values{"_csrf": {tok}, "name": {"Screen 1"}, "layout": {catalogLayout}, "action": {"save"}}), http.StatusSeeOther)
	list, _ := a.store.ListScreens(ctx, th.ID)
	if len(list) != 1 {
		t.Fatalf("screens %v", list)
	}
	sc := list[0]
	export := admin.get("/admin/screens/" + sc.ID + "/layout.txt")
	wantStatus(t, export, http.StatusOK)
	l1, err1 := booking.ParseLayout(export.body)
	l2, err2 := booking.ParseLayout(catalogLayout)
	if err1 != nil || err2 != nil || l1.Text() != l2.Text() {
		t.Errorf("the exported layout does not read back as the one saved: %v %v\n%s", err1, err2, export.body)
	}

	// Movie.
	res = admin.post("/admin/movies", url.Values{"_csrf": {tok}, "title": {"Brief Encounter"}, "runtime": {"none"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if res.doc(t).Find(`[data-field-error="runtime"]`).Length() != 1 {
		t.Error("a bad runtime is not named")
	}
	wantStatus(t, admin.post("/admin/movies", url.Values{"_csrf": {tok}, "title": {"Brief Encounter"}, "language": {"English"},
		"rating": {"PG"}, "runtime": {"86"}}), http.StatusSeeOther)
	movies, _ := a.store.ListMovies(ctx)
	if len(movies) != 1 {
		t.Fatalf("movies %v", movies)
	}

	// Show: the screen's categories are asked for their prices.
	form := admin.get("/admin/shows/new?screen=" + sc.ID).doc(t)
	for _, f := range []string{"price_Classic", "price_Prime"} {
		if form.Find(`input[name="`+f+`"]`).Length() != 1 {
			t.Errorf("the show form asks no %s", f)
		}
	}
	if note := form.Find("[data-zone-note]").Text(); !strings.Contains(note, "Europe/London") {
		t.Errorf("the show form does not say the start is in the theatre's zone: %q", note)
	}
	show := url.Values{"_csrf": {tok}, "screen": {sc.ID}, "movie": {movies[0].ID}, "start": {"2036-07-01T19:30"}, "price_Classic": {"180"}}
	res = admin.post("/admin/shows", show)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if res.doc(t).Find(`[data-field-error="price_Prime"]`).Length() != 1 {
		t.Error("a missing price is not named")
	}
	show.Set("price_Prime", "250")
	res = admin.post("/admin/shows", show)
	wantStatus(t, res, http.StatusSeeOther)
	showID := strings.TrimPrefix(res.Header.Get("Location"), "/admin/shows/")
	got, err := a.store.Show(ctx, showID)
	if err != nil {
		t.Fatalf("the new show: %v", err)
	}
	if want := "2036-07-01T18:30:00Z"; got.StartsAt.Format("2006-01-02T15:04:05Z07:00") != want || got.Theatre.TimeZone != "Europe/London" {
		t.Errorf("the show starts %v in %q; want %s (19:30 in London, summer time)", got.StartsAt, got.Theatre.TimeZone, want)
	}
	seats, _ := a.store.Seats(ctx, showID)
	if len(seats) != 18 {
		t.Errorf("the show has %d seats, want the layout's 18", len(seats))
	}

	// A moviegoer books a seat of it.
	m := a.client()
	page := m.get("/shows/" + showID)
	wantStatus(t, page, http.StatusOK)
	if when := page.doc(t).Find(".show-when").Text(); !strings.Contains(when, "19:30") {
		t.Errorf("the seat map gives the start as %q, want 19:30 in the theatre's zone", when)
	}
	tokM, _ := page.doc(t).Find(`meta[name="csrf-token"]`).Attr("content")
	res = m.post("/shows/"+showID+"/holds", url.Values{"_csrf": {tokM}, "seat": {"C2"}})
	wantStatus(t, res, http.StatusSeeOther)

	// Deleting what is used is refused with the reason.
	res = admin.post("/admin/screens/"+sc.ID+"/delete", url.Values{"_csrf": {tok}})
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.body, "show(s) were made on this screen") {
		t.Errorf("the refusal does not say why:\n%s", res.body)
	}
	wantStatus(t, admin.post("/admin/shows/"+showID+"/delete", url.Values{"_csrf": {tok}}), http.StatusConflict)
}
