package web_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"boxoffice/internal/booking"
)

// TestTheatreTaxAndMovieRentForms: the theatre's page edits its tax rates
// and the movie's page its rental terms (SPEC §17); a bad value is 422
// naming its field and nothing of the form is saved.
func TestTheatreTaxAndMovieRentForms(t *testing.T) {
	a := newAdminApp(t)
	ctx := context.Background()
	admin := a.client()
	admin.mustLogin()
	tok := admin.adminCSRF()

	theatre := url.Values{"_csrf": {tok}, "name": {"Regal"}, "city": {"Delhi"}, "time_zone": {"Asia/Kolkata"}, "currency": {"INR"},
		"tax_rate": {"12"}, "tax_above": {"100"}, "tax_rate_above": {"18"}}
	wantStatus(t, admin.post("/admin/theatres", theatre), http.StatusSeeOther)
	list, _ := a.store.ListTheatres(ctx)
	if len(list) != 1 || list[0].Tax != (booking.TaxRates{Rate: 1200, Above: 100_00, AboveRate: 1800}) {
		t.Fatalf("theatres %+v; want one taxed 12 %%, 18 %% above 100.00", list)
	}
	th := list[0]
	page := admin.get("/admin/theatres/" + th.ID).doc(t)
	for name, want := range map[string]string{"tax_rate": "12", "tax_above": "100.00", "tax_rate_above": "18"} {
		if v, _ := page.Find(`input[name="` + name + `"]`).Attr("value"); v != want {
			t.Errorf("the theatre's page shows %s = %q; want %q", name, v, want)
		}
	}
	for _, bad := range []struct{ field, value string }{
		{"tax_rate", "101"}, {"tax_rate", "12.345"}, {"tax_above", "lots"}, {"tax_rate_above", "-1"},
	} {
		form := url.Values{"_csrf": {tok}, "name": {"Regal Renamed"}, "city": {"Delhi"}, "time_zone": {"Asia/Kolkata"}, "currency": {"INR"},
			"tax_rate": {"5"}, "tax_above": {"200"}, "tax_rate_above": {"28"}}
		form.Set(bad.field, bad.value)
		res := admin.post("/admin/theatres/"+th.ID, form)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		if res.doc(t).Find(`[data-field-error="`+bad.field+`"]`).Length() != 1 {
			t.Errorf("%s=%q: the refused form does not name %s", bad.field, bad.value, bad.field)
		}
		if got, _ := a.store.Theatre(ctx, th.ID); got != th {
			t.Errorf("%s=%q: the theatre became %+v; want nothing saved", bad.field, bad.value, got)
		}
	}
	res := admin.post("/admin/theatres/"+th.ID, url.Values{"_csrf": {tok}, "name": {"Regal"}, "city": {"Delhi"}, "time_zone": {"Asia/Kolkata"},
		"currency": {"INR"}, "tax_rate": {"12.5"}, "tax_above": {""}, "tax_rate_above": {""}})
	wantStatus(t, res, http.StatusSeeOther)
	if got, _ := a.store.Theatre(ctx, th.ID); got.Tax != (booking.TaxRates{Rate: 1250}) {
		t.Errorf("tax after the save %+v; want 12.5 %% alone", got.Tax)
	}

	movie := url.Values{"_csrf": {tok}, "title": {"Sholay"}, "runtime": {"204"}, "rent": {"50,45,40"}}
	wantStatus(t, admin.post("/admin/movies", movie), http.StatusSeeOther)
	movies, _ := a.store.ListMovies(ctx)
	if len(movies) != 1 || movies[0].Rent != "50,45,40" {
		t.Fatalf("movies %+v; want one rented 50,45,40", movies)
	}
	m := movies[0]
	if v, _ := admin.get("/admin/movies/" + m.ID).doc(t).Find(`input[name="rent"]`).Attr("value"); v != "50,45,40" {
		t.Errorf("the movie's page shows rent %q", v)
	}
	for _, bad := range []string{"50,,40", "101", "half"} {
		res := admin.post("/admin/movies/"+m.ID, url.Values{"_csrf": {tok}, "title": {"Sholay 2"}, "runtime": {"204"}, "rent": {bad}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		if res.doc(t).Find(`[data-field-error="rent"]`).Length() != 1 {
			t.Errorf("rent %q: the refused form does not name rent", bad)
		}
		if got, _ := a.store.Movie(ctx, m.ID); got != m {
			t.Errorf("rent %q: the movie became %+v; want nothing saved", bad, got)
		}
	}
	wantStatus(t, admin.post("/admin/movies/"+m.ID, url.Values{"_csrf": {tok}, "title": {"Sholay"}, "runtime": {"204"}, "rent": {""}}), http.StatusSeeOther)
	if got, _ := a.store.Movie(ctx, m.ID); got.Rent != "" {
		t.Errorf("rent after clearing it %q; want none", got.Rent)
	}
}
