package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// typedTheatre stores a theatre with a two-category screen (catalogLayout)
// and a movie, and returns their ids.
func typedTheatre(t *testing.T, a *app) (theatreID, screenID, movieID string) {
	t.Helper()
	ctx := context.Background()
	th := booking.Theatre{ID: booking.NewID(), Name: "Roxy", City: "Pune", TimeZone: "Asia/Kolkata", Currency: "INR"}
	sc := booking.Screen{ID: booking.NewID(), TheatreID: th.ID, Name: "Screen 1", Layout: catalogLayout}
	m := booking.Movie{ID: booking.NewID(), Title: "Typed", RuntimeMin: 100}
	for _, err := range []error{
		booking.SaveTheatreStep(ctx, a.store, time.Now, th),
		booking.SaveScreenStep(ctx, a.store, time.Now, sc),
		booking.SaveMovieStep(ctx, a.store, time.Now, m),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return th.ID, sc.ID, m.ID
}

func storedTypes(t *testing.T, a *app, theatreID string) []string {
	t.Helper()
	var ids []string
	err := a.store.Atomically(context.Background(), time.Now, func(tx booking.Tx) error {
		types, err := tx.TicketTypes(theatreID)
		ids = nil
		for _, ty := range types {
			ids = append(ids, ty.ID)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func storedCards(t *testing.T, a *app, theatreID string) []booking.PriceCard {
	t.Helper()
	var cards []booking.PriceCard
	err := a.store.Atomically(context.Background(), time.Now, func(tx booking.Tx) (err error) {
		cards, err = tx.PriceCards(theatreID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return cards
}

// TestTicketTypesAndCardsAdmin: an admin adds, reorders and deletes a
// theatre's types (a bad one 422 naming its field, nothing saved), makes a
// price card on the grid (an online 0 refused 422 naming the cell), cannot
// delete a type the card prices (409 with why), makes a show with the card,
// and edits the show's table: a new cell always, an offered price not
// while a seat is held (409).
func TestTicketTypesAndCardsAdmin(t *testing.T) {
	a := newAdminApp(t)
	admin := a.client()
	admin.mustLogin()
	tok := admin.adminCSRF()
	thID, scID, mvID := typedTheatre(t, a)
	typesPath := "/admin/theatres/" + thID + "/types"

	if d := admin.get("/admin/theatres/" + thID).doc(t); d.Find(`a[href="`+typesPath+`"]`).Length() != 1 {
		t.Error("the theatre's page does not link its ticket types")
	}
	if d := admin.get(typesPath).doc(t); d.Find(`[data-implicit-type="standard"]`).Length() != 1 {
		t.Error("a theatre without types does not say it sells standard")
	}

	res := admin.post(typesPath, url.Values{"_csrf": {tok}, "id": {"standard"}, "name": {"Std"}, "note": {"a\u202eb"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	d := res.doc(t)
	for _, f := range []string{"id", "note", "sold"} {
		if d.Find(`[data-field-error="`+f+`"]`).Length() != 1 {
			t.Errorf("the refused type does not name %s", f)
		}
	}
	if got := storedTypes(t, a, thID); len(got) != 0 {
		t.Fatalf("a refused type was saved: %v", got)
	}
	for _, ty := range []url.Values{
		{"id": {"adult"}, "name": {"Adult"}, "online": {"1"}, "box_office": {"1"}},
		{"id": {"child"}, "name": {"Child"}, "note": {"under 12"}, "accompanied": {"1"}, "online": {"1"}, "box_office": {"1"}},
		{"id": {"comp"}, "name": {"Comp"}, "box_office": {"1"}},
		{"id": {"extra"}, "name": {"Extra"}, "online": {"1"}},
	} {
		ty.Set("_csrf", tok)
		wantStatus(t, admin.post(typesPath, ty), http.StatusSeeOther)
	}
	wantStatus(t, admin.post(typesPath+"/comp/move", url.Values{"_csrf": {tok}, "dir": {"up"}}), http.StatusSeeOther)
	wantStatus(t, admin.post(typesPath+"/extra/delete", url.Values{"_csrf": {tok}}), http.StatusSeeOther)
	want := []string{"adult", "comp", "child"}
	if diff := cmp.Diff(want, storedTypes(t, a, thID)); diff != "" {
		t.Errorf("types (-want +got):\n%s", diff)
	}
	var listed []string
	admin.get(typesPath).doc(t).Find("[data-types] [data-type-id]").Each(func(_ int, s *goquery.Selection) {
		listed = append(listed, s.AttrOr("data-type-id", ""))
	})
	if diff := cmp.Diff(want, listed); diff != "" {
		t.Errorf("the types page lists (-want +got):\n%s", diff)
	}

	// A card: an online 0 is refused naming the cell, nothing saved.
	cardsPath := "/admin/theatres/" + thID + "/cards"
	grid := admin.get(cardsPath + "/new").doc(t)
	if n := grid.Find(`[data-price-grid] input`).Length(); n != 6 {
		t.Errorf("the card's grid has %d inputs, want 2 categories × 3 types", n)
	}
	card := url.Values{"_csrf": {tok}, "name": {"Weekday"},
		booking.CellField("Classic", "adult"): {"180"}, booking.CellField("Classic", "child"): {"0"},
		booking.CellField("Classic", "comp"): {"0"}, booking.CellField("Prime", "adult"): {"250"}}
	res = admin.post(cardsPath, card)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	d = res.doc(t)
	if d.Find(`[data-field-error="`+booking.CellField("Classic", "child")+`"]`).Length() != 1 {
		t.Error("an online price of 0 does not name its cell")
	}
	if v, _ := d.Find(`input[name="` + booking.CellField("Prime", "adult") + `"]`).Attr("value"); v != "250" {
		t.Errorf("the refused grid lost what was typed: %q", v)
	}
	if got := storedCards(t, a, thID); len(got) != 0 {
		t.Fatalf("a refused card was saved: %v", got)
	}
	card.Set(booking.CellField("Classic", "child"), "90")
	card.Set(booking.CellField("Prime", "comp"), "0")
	wantStatus(t, admin.post(cardsPath, card), http.StatusSeeOther)
	cards := storedCards(t, a, thID)
	if len(cards) != 1 || len(cards[0].Cells) != 5 {
		t.Fatalf("cards %+v, want one of 5 cells", cards)
	}

	// A type the card prices stays, with why.
	res = admin.post(typesPath+"/child/delete", url.Values{"_csrf": {tok}})
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.body, "Weekday") {
		t.Errorf("the 409 does not name the card:\n%s", res.body)
	}
	// …and where it is sold stays too; its name may change, a bad one 422.
	wantStatus(t, admin.get(typesPath+"/comp"), http.StatusOK)
	res = admin.post(typesPath+"/comp", url.Values{"_csrf": {tok}, "name": {"Comp"}, "online": {"1"}, "box_office": {"1"}})
	wantStatus(t, res, http.StatusConflict)
	res = admin.post(typesPath+"/comp", url.Values{"_csrf": {tok}, "name": {""}, "box_office": {"1"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if res.doc(t).Find(`[data-field-error="name"]`).Length() != 1 {
		t.Error("an edit without a name does not name the field")
	}
	wantStatus(t, admin.post(typesPath+"/comp", url.Values{"_csrf": {tok}, "name": {"House seat"}, "box_office": {"1"}}), http.StatusSeeOther)
	if d := admin.get(typesPath).doc(t); !strings.Contains(d.Find(`[data-type-id="comp"]`).Text(), "House seat") {
		t.Error("the renamed type is not listed by its new name")
	}

	// A show made with the card copies its table.
	form := admin.get("/admin/shows/new?screen=" + scID).doc(t)
	if form.Find(`select[name="card"] option`).Length() != 1 || form.Find(`input[name="price_Classic"]`).Length() != 0 {
		t.Error("the show form of a theatre with cards does not offer the card instead of prices")
	}
	res = admin.post("/admin/shows", url.Values{"_csrf": {tok}, "screen": {scID}, "movie": {mvID}, "start": {"2036-07-01T19:30"}, "card": {"nope"}})
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if res.doc(t).Find(`[data-field-error="card"]`).Length() != 1 {
		t.Error("an unknown card is not named on the show form")
	}
	if n, _ := a.store.CountShows(context.Background()); n != 1 { // the test app's own show
		t.Fatalf("a refused show was stored: %d shows", n)
	}
	res = admin.post("/admin/shows", url.Values{"_csrf": {tok}, "screen": {scID}, "movie": {mvID}, "start": {"2036-07-01T19:30"}, "card": {cards[0].ID}})
	wantStatus(t, res, http.StatusSeeOther)
	showID := strings.TrimPrefix(res.Header.Get("Location"), "/admin/shows/")
	seats, _ := a.store.Seats(context.Background(), showID)
	for _, s := range seats {
		if want := map[string]booking.Money{"Classic": 180_00, "Prime": 250_00}[s.Category]; s.Price != want {
			t.Errorf("seat %s costs %d, want its category's adult price %d", s.ID, s.Price, want)
		}
	}

	// Its table: a seat held makes a change of an offered price 409, while
	// a price in a cell not offered is saved.
	m := a.client()
	page := m.get("/shows/" + showID)
	tokM, _ := page.doc(t).Find(`meta[name="csrf-token"]`).Attr("content")
	wantStatus(t, m.post("/shows/"+showID+"/holds", url.Values{"_csrf": {tokM}, "seat": {"C2"}}), http.StatusSeeOther)
	showPage := admin.get("/admin/shows/" + showID).doc(t)
	if v, _ := showPage.Find(`[data-show-prices] input[name="` + booking.CellField("Classic", "child") + `"]`).Attr("value"); v != "90" {
		t.Errorf("the show's table shows Classic × child %q, want 90", v)
	}
	table := url.Values{"_csrf": {tok},
		booking.CellField("Classic", "adult"): {"180"}, booking.CellField("Classic", "child"): {"95"}, booking.CellField("Classic", "comp"): {"0"},
		booking.CellField("Prime", "adult"): {"250"}, booking.CellField("Prime", "comp"): {"0"}}
	res = admin.post("/admin/shows/"+showID+"/prices", table)
	wantStatus(t, res, http.StatusConflict)
	if !strings.Contains(res.body, "held") {
		t.Errorf("the 409 does not say a seat is held:\n%s", res.body)
	}
	table.Set(booking.CellField("Classic", "child"), "90")
	table.Set(booking.CellField("Prime", "child"), "125")
	wantStatus(t, admin.post("/admin/shows/"+showID+"/prices", table), http.StatusSeeOther)
	var p booking.ShowPrices
	_ = a.store.Atomically(context.Background(), time.Now, func(tx booking.Tx) (err error) { p, err = tx.ShowPrices(showID); return err })
	if got, ok := p.Cells.Price("Prime", "child"); !ok || got != 125_00 {
		t.Errorf("Prime × child after the save: %d, %v; want 12500", got, ok)
	}
	// A bad cell is 422 naming it, nothing saved.
	table.Set(booking.CellField("Prime", "child"), "lots")
	res = admin.post("/admin/shows/"+showID+"/prices", table)
	wantStatus(t, res, http.StatusUnprocessableEntity)
	if res.doc(t).Find(`[data-field-error="`+booking.CellField("Prime", "child")+`"]`).Length() != 1 {
		t.Error("a bad price in the show's table is not named")
	}
}
