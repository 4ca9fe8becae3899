package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"boxoffice/internal/booking"
)

// newCatalogShow creates, through the admin's forms, a theatre in zone and
// currency with a one-category screen and a movie, then a show there at
// start (the theatre's local time) with a Classic seat at price; it
// returns the theatre's and the show's ids.
func newCatalogShow(t *testing.T, a *app, admin *client, name, zone, currency, start, price string) (string, string) {
	t.Helper()
	ctx := context.Background()
	tok := admin.csrf()
	wantStatus(t, admin.post("/admin/theatres", url.Values{"_csrf": {tok}, "name": {name}, "city": {name},
		"time_zone": {zone}, "currency": {currency}}), http.StatusSeeOther)
	var th booking.Theatre
	list, _ := a.store.ListTheatres(ctx)
	for _, x := range list {
		if x.Name == name {
			th = x
		}
	}
	if th.Currency != currency {
		t.Fatalf("theatre %s saved as %+v, want currency %s", name, th, currency)
	}
	wantStatus(t, admin.post("/admin/theatres/"+th.ID+"/screens", url.Values{"_csrf": {tok}, "name": {"1"},
		"layout": {"C = Classic\nA  CC\n"}, "action": {"save"}}), http.StatusSeeOther)
	screens, _ := a.store.ListScreens(ctx, th.ID)
	wantStatus(t, admin.post("/admin/movies", url.Values{"_csrf": {tok}, "title": {"Film in " + name}, "runtime": {"90"}}), http.StatusSeeOther)
	var movieID string
	movies, _ := a.store.ListMovies(ctx)
	for _, m := range movies {
		if m.Title == "Film in "+name {
			movieID = m.ID
		}
	}
	form := admin.get("/admin/shows/new?screen=" + screens[0].ID).doc(t)
	if label := form.Find(`label[for="f-price_Classic"]`).Text(); !strings.Contains(label, currency) {
		t.Errorf("the show form's price label %q does not say it is in %s", label, currency)
	}
	res := admin.post("/admin/shows", url.Values{"_csrf": {tok}, "screen": {screens[0].ID}, "movie": {movieID},
		"start": {start}, "price_Classic": {price}})
	wantStatus(t, res, http.StatusSeeOther)
	return th.ID, strings.TrimPrefix(res.Header.Get("Location"), "/admin/shows/")
}

// TestShowsPricedInTheirTheatreCurrency (SPEC §10): a show copies its
// theatre's currency (no longer INR whatever the theatre), its prices are
// typed and shown in that currency's minor units (€ with cents, ¥ without
// decimals); an unknown currency is 422; once the theatre has a show its
// currency is kept (409, saying why), other edits still save.
func TestShowsPricedInTheirTheatreCurrency(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	ctx := context.Background()

	res := admin.post("/admin/theatres", url.Values{"_csrf": {admin.csrf()}, "name": {"Odd"}, "city": {"X"},
		"time_zone": {"UTC"}, "currency": {"XYZ"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if msg := res.doc(t).Find(`[data-field-error="currency"]`).Text(); !strings.Contains(msg, "not a currency") {
		t.Errorf("an unknown currency's error: %q", msg)
	}

	berlin, eurShow := newCatalogShow(t, a, admin, "Kino", "Europe/Berlin", "EUR", "2026-12-01T20:00", "12.50")
	show, err := a.svc.Show(ctx, eurShow)
	if err != nil || show.Currency != "EUR" {
		t.Fatalf("the Berlin show: %+v, %v; want it in EUR", show, err)
	}
	if page := a.client().get("/shows/" + eurShow).doc(t).Text(); !strings.Contains(page, "€12.50") || strings.Contains(page, "₹") {
		t.Errorf("the Berlin show's seat map does not price its seats €12.50:\n%s", page)
	}

	_, jpyShow := newCatalogShow(t, a, admin, "Toho", "Asia/Tokyo", "JPY", "2026-12-01T20:00", "1,800")
	if page := a.client().get("/shows/" + jpyShow).doc(t).Text(); !strings.Contains(page, "¥1,800") || strings.Contains(page, "¥1,800.") {
		t.Errorf("the Tokyo show's seat map does not price its seats ¥1,800:\n%s", page)
	}
	if shows, _ := a.svc.Show(ctx, jpyShow); shows.Currency != "JPY" {
		t.Errorf("the Tokyo show's currency %q, want JPY", shows.Currency)
	}

	tok := admin.csrf()
	res = admin.post("/admin/theatres/"+berlin, url.Values{"_csrf": {tok}, "name": {"Kino"}, "city": {"Berlin"},
		"time_zone": {"Europe/Berlin"}, "currency": {"GBP"}})
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.body, "priced in EUR") {
		t.Errorf("the refused currency change does not say why:\n%s", res.body)
	}
	if th, _ := a.store.Theatre(ctx, berlin); th.Currency != "EUR" || th.City != "Kino" {
		t.Errorf("the theatre after a refused change: %+v", th)
	}
	wantStatus(t, admin.post("/admin/theatres/"+berlin, url.Values{"_csrf": {tok}, "name": {"Kino"}, "city": {"Berlin"},
		"time_zone": {"Europe/Berlin"}, "currency": {"EUR"}}), http.StatusSeeOther)
}
