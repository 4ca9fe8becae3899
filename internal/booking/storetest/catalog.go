package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// catalogTests are the steps admins run a cinema with (SPEC §10).
var catalogTests = []test{
	{"Theatres", testTheatres},
	{"Screens", testScreens},
	{"Movies", testMovies},
	{"DeleteShow", testDeleteShow},
	{"CreateShowTwice", testCreateShowTwice},
	{"ScreenWithAShowStays", testScreenWithAShowStays},
	{"ShowAfterItsScreenWentIsRefused", testShowAfterItsScreenWent},
	{"TheatreCurrency", testTheatreCurrency},
}

// showCopy is a show's copy of its theatre: without the currency, which
// is the show's own (Show.Currency).
func showCopy(th booking.Theatre) booking.Theatre {
	th.Currency = ""
	return th
}

// testTheatreCurrency (SPEC §10): a theatre's currency is stored with it;
// it may change while the theatre has no show, and a show created from the
// catalog copies it; once the theatre has a show a change is 409 and
// nothing of the edit is saved.
func testTheatreCurrency(t *testing.T, s store) {
	ctx := context.Background()
	th := booking.Theatre{ID: booking.NewID(), Name: "Kino", City: "Berlin", TimeZone: "Europe/Berlin", Currency: "INR"}
	if err := s.SaveTheatre(ctx, th); err != nil {
		t.Fatal(err)
	}
	th.Currency = "EUR"
	if err := s.SaveTheatre(ctx, th); err != nil {
		t.Fatalf("SaveTheatre changing the currency of a theatre without shows: %v", err)
	}
	if got, err := s.Theatre(ctx, th.ID); err != nil || got != th {
		t.Errorf("Theatre = %+v, %v; want %+v", got, err, th)
	}
	if got, err := s.ListTheatres(ctx); err != nil || !slices.Contains(got, th) {
		t.Errorf("ListTheatres = %+v, %v; want it with %+v", got, err, th)
	}

	sc := booking.Screen{ID: booking.NewID(), TheatreID: th.ID, Name: "Saal 1", Layout: oneSeatLayout}
	m := booking.Movie{ID: booking.NewID(), Title: "Metropolis", RuntimeMin: 153}
	if err := s.SaveScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMovie(ctx, m); err != nil {
		t.Fatal(err)
	}
	show := booking.Show{ID: booking.NewID(), Movie: m, Theatre: th, Screen: sc.Name, ScreenID: sc.ID, StartsAt: later, Currency: "EUR"}
	seats := []booking.Seat{{ShowID: show.ID, ID: "A1", Row: "A", Number: 1, Category: "Classic", Price: 1250,
		Kind: booking.KindStandard, Status: booking.SeatAvailable}}
	if _, err := booking.CreateCatalogShowStep(ctx, s.Store, time.Now, show, seats,
		&booking.ShowPlanBasis{Layout: sc.Layout, TimeZone: th.TimeZone, Currency: "EUR"}); err != nil {
		t.Fatalf("CreateCatalogShow: %v", err)
	}
	if got := getShow(t, s, show.ID); got.Currency != "EUR" || got.Theatre != showCopy(th) {
		t.Errorf("the show: currency %q, theatre %+v; want EUR and %+v", got.Currency, got.Theatre, showCopy(th))
	}

	edit := th
	edit.Name, edit.Currency = "Kino International", "GBP"
	wantCode(t, "SaveTheatre changing the currency of a theatre with a show", s.SaveTheatre(ctx, edit), booking.ECONFLICT)
	if got, err := s.Theatre(ctx, th.ID); err != nil || got != th {
		t.Errorf("Theatre after a refused currency change = %+v, %v; want it unchanged, %+v", got, err, th)
	}
	if got := getShow(t, s, show.ID).Theatre; got != showCopy(th) {
		t.Errorf("the show's theatre after a refused change %+v, want %+v", got, showCopy(th))
	}
	// Other edits of it are fine.
	edit.Currency = "EUR"
	if err := s.SaveTheatre(ctx, edit); err != nil {
		t.Errorf("SaveTheatre renaming a theatre with a show: %v", err)
	}

	// A show planned in a currency the theatre has left is planned again.
	th2 := booking.Theatre{ID: booking.NewID(), Name: "Toho", City: "Tokyo", TimeZone: "Asia/Tokyo", Currency: "INR"}
	sc2 := booking.Screen{ID: booking.NewID(), TheatreID: th2.ID, Name: "1", Layout: oneSeatLayout}
	if err := s.SaveTheatre(ctx, th2); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveScreen(ctx, sc2); err != nil {
		t.Fatal(err)
	}
	th2.Currency = "JPY"
	if err := s.SaveTheatre(ctx, th2); err != nil {
		t.Fatal(err)
	}
	show2 := booking.Show{ID: booking.NewID(), Movie: m, Theatre: th2, Screen: sc2.Name, ScreenID: sc2.ID, StartsAt: later, Currency: "INR"}
	seats2 := []booking.Seat{{ShowID: show2.ID, ID: "A1", Row: "A", Number: 1, Category: "Classic", Price: 25000,
		Kind: booking.KindStandard, Status: booking.SeatAvailable}}
	_, err := booking.CreateCatalogShowStep(ctx, s.Store, time.Now, show2, seats2,
		&booking.ShowPlanBasis{Layout: sc2.Layout, TimeZone: th2.TimeZone, Currency: "INR"})
	wantErr(t, "CreateCatalogShow planned in the theatre's old currency", err, booking.ErrShowPlanStale)
}

// testCreateShowTwice: a show stored again under its id (two processes
// seeding the demo) is ErrShowExists, and the first one's seats stay.
func testCreateShowTwice(t *testing.T, s store) {
	show, seats := newShow(t, s, 2, 3, later)
	before := getSeats(t, s, show.ID)
	err := s.CreateShow(context.Background(), show, seats)
	wantErr(t, "CreateShow of an existing id", err, booking.ErrShowExists)
	same(t, "seats after a second CreateShow", before, getSeats(t, s, show.ID))
}

// catalogShow stores a show of movie on screen sc of theatre th.
func catalogShow(t *testing.T, s store, th booking.Theatre, sc booking.Screen, m booking.Movie) booking.Show {
	t.Helper()
	show := booking.Show{ID: booking.NewID(), Movie: m, Theatre: th, Screen: sc.Name, ScreenID: sc.ID, StartsAt: later, Currency: currency}
	createShow(t, s, show, []booking.Seat{{ShowID: show.ID, ID: "A1", Row: "A", Number: 1, Category: "Classic", Price: classicPrice,
		Kind: booking.KindStandard, Status: booking.SeatAvailable}})
	return show
}

const oneSeatLayout = "C = Classic\nA  C\n"

func testTheatres(t *testing.T, s store) {
	ctx := context.Background()
	b := booking.Theatre{ID: booking.NewID(), Name: "Bioscope", City: "Pune", TimeZone: "Asia/Kolkata", Currency: "INR"}
	a := booking.Theatre{ID: booking.NewID(), Name: "Alhambra", City: "London", TimeZone: "Europe/London", Currency: "INR"}
	for _, th := range []booking.Theatre{b, a} {
		if err := s.SaveTheatre(ctx, th); err != nil {
			t.Fatalf("SaveTheatre: %v", err)
		}
	}
	got, err := s.ListTheatres(ctx)
	if diff := cmp.Diff([]booking.Theatre{a, b}, got); err != nil || diff != "" {
		t.Errorf("ListTheatres (%v) (-want +got):\n%s", err, diff)
	}
	sc := booking.Screen{ID: booking.NewID(), TheatreID: b.ID, Name: "Audi 1", Layout: oneSeatLayout}
	if err := s.SaveScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	show := catalogShow(t, s, b, sc, booking.Movie{ID: "m1", Title: "Film"})
	if got := getShow(t, s, show.ID); got.Theatre != showCopy(b) || got.ScreenID != sc.ID {
		t.Errorf("show's theatre %+v, screen %q; want %+v and %q", got.Theatre, got.ScreenID, showCopy(b), sc.ID)
	}

	// An edit reaches the show's copy.
	b.Name, b.City, b.TimeZone = "Bioscope Talkies", "Pimpri", "Asia/Calcutta"
	if err := s.SaveTheatre(ctx, b); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Theatre(ctx, b.ID); err != nil || got != b {
		t.Errorf("Theatre after the edit = %+v, %v; want %+v", got, err, b)
	}
	if got := getShow(t, s, show.ID).Theatre; got != showCopy(b) {
		t.Errorf("the show's theatre after the edit %+v, want %+v", got, showCopy(b))
	}

	wantCode(t, "DeleteTheatre with a screen", s.DeleteTheatre(ctx, b.ID), booking.ECONFLICT)
	if err := s.DeleteTheatre(ctx, a.ID); err != nil {
		t.Errorf("DeleteTheatre of an unused theatre: %v", err)
	}
	_, err = s.Theatre(ctx, a.ID)
	wantErr(t, "Theatre after its deletion", err, booking.ErrTheatreNotFound)
	wantErr(t, "DeleteTheatre of an unknown theatre", s.DeleteTheatre(ctx, booking.NewID()), booking.ErrTheatreNotFound)
}

func testScreens(t *testing.T, s store) {
	ctx := context.Background()
	th := booking.Theatre{ID: booking.NewID(), Name: "Plaza", City: "Kochi", TimeZone: "Asia/Kolkata", Currency: "INR"}
	if err := s.SaveTheatre(ctx, th); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "SaveScreen of an unknown theatre",
		s.SaveScreen(ctx, booking.Screen{ID: booking.NewID(), TheatreID: booking.NewID(), Name: "X", Layout: oneSeatLayout}), booking.ErrTheatreNotFound)
	two := booking.Screen{ID: booking.NewID(), TheatreID: th.ID, Name: "Screen 2", Layout: oneSeatLayout}
	one := booking.Screen{ID: booking.NewID(), TheatreID: th.ID, Name: "Screen 1", Layout: "P = Prime\nA  PP\n"}
	for _, sc := range []booking.Screen{two, one} {
		if err := s.SaveScreen(ctx, sc); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ListScreens(ctx, th.ID)
	if diff := cmp.Diff([]booking.Screen{one, two}, got); err != nil || diff != "" {
		t.Errorf("ListScreens (%v) (-want +got):\n%s", err, diff)
	}
	if other, err := s.ListScreens(ctx, booking.NewID()); err != nil || len(other) != 0 {
		t.Errorf("ListScreens of another theatre = %v, %v", other, err)
	}
	show := catalogShow(t, s, th, one, booking.Movie{ID: "m1", Title: "Film"})
	seatsBefore := getSeats(t, s, show.ID)
	one.Name, one.Layout = "Gold", "P = Prime\nA  PPPP\n"
	if err := s.SaveScreen(ctx, one); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Screen(ctx, one.ID); err != nil || got != one {
		t.Errorf("Screen after the edit = %+v, %v", got, err)
	}
	if got := getShow(t, s, show.ID).Screen; got != "Gold" {
		t.Errorf("the show's screen after the rename %q, want Gold", got)
	}
	same(t, "the show's seats after its screen's layout changed", seatsBefore, getSeats(t, s, show.ID))
	wantCode(t, "DeleteScreen with a show", s.DeleteScreen(ctx, one.ID), booking.ECONFLICT)
	if err := s.DeleteScreen(ctx, two.ID); err != nil {
		t.Errorf("DeleteScreen of an unused screen: %v", err)
	}
	_, err = s.Screen(ctx, two.ID)
	wantErr(t, "Screen after its deletion", err, booking.ErrScreenNotFound)
}

func testMovies(t *testing.T, s store) {
	ctx := context.Background()
	z := booking.Movie{ID: booking.NewID(), Title: "Zanjeer", Rating: "U", RuntimeMin: 146, Language: "Hindi"}
	a := booking.Movie{ID: booking.NewID(), Title: "Anand", Rating: "U", RuntimeMin: 122, Language: "Hindi"}
	for _, m := range []booking.Movie{z, a} {
		if err := s.SaveMovie(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.ListMovies(ctx)
	if diff := cmp.Diff([]booking.Movie{a, z}, got); err != nil || diff != "" {
		t.Errorf("ListMovies (%v) (-want +got):\n%s", err, diff)
	}
	th := booking.Theatre{ID: booking.NewID(), Name: "Plaza", City: "Kochi", TimeZone: "Asia/Kolkata", Currency: "INR"}
	sc := booking.Screen{ID: booking.NewID(), TheatreID: th.ID, Name: "1", Layout: oneSeatLayout}
	if err := s.SaveTheatre(ctx, th); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	show := catalogShow(t, s, th, sc, z)
	z.Title, z.RuntimeMin = "Zanjeer (restored)", 150
	if err := s.SaveMovie(ctx, z); err != nil {
		t.Fatal(err)
	}
	if got := getShow(t, s, show.ID).Movie; got != z {
		t.Errorf("the show's movie after the edit %+v, want %+v", got, z)
	}
	if got, err := s.Movie(ctx, z.ID); err != nil || got != z {
		t.Errorf("Movie = %+v, %v", got, err)
	}
	wantCode(t, "DeleteMovie with a show", s.DeleteMovie(ctx, z.ID), booking.ECONFLICT)
	if err := s.DeleteMovie(ctx, a.ID); err != nil {
		t.Errorf("DeleteMovie of an unused movie: %v", err)
	}
	_, err = s.Movie(ctx, a.ID)
	wantErr(t, "Movie after its deletion", err, booking.ErrMovieNotFound)
}

func testDeleteShow(t *testing.T, s store) {
	ctx := context.Background()
	booked, _ := newShow(t, s, 1, 3, later)
	book(t, s, booked.ID, "o1", at(0), "A1")
	held, _ := newShow(t, s, 1, 3, later)
	hold(t, s, held.ID, "o2", at(0), "A1")
	empty, emptySeats := newShow(t, s, 1, 3, later)

	wantCode(t, "DeleteShow with a booking", s.DeleteShow(ctx, booked.ID), booking.ECONFLICT)
	wantCode(t, "DeleteShow with a held seat", s.DeleteShow(ctx, held.ID), booking.ECONFLICT)
	for _, sh := range []booking.Show{empty} {
		if err := s.DeleteShow(ctx, sh.ID); err != nil {
			t.Fatalf("DeleteShow: %v", err)
		}
		_, err := s.Show(ctx, sh.ID)
		wantErr(t, "Show after DeleteShow", err, booking.ErrShowNotFound)
		// A deleted show stays deleted: its id is not created again.
		wantErr(t, "CreateShow of a deleted show's id", s.CreateShow(ctx, sh, emptySeats), booking.ErrShowDeleted)
		_, err = s.Show(ctx, sh.ID)
		wantErr(t, "Show after CreateShow of a deleted id", err, booking.ErrShowNotFound)
	}
	wantErr(t, "DeleteShow of an unknown show", s.DeleteShow(ctx, booking.NewID()), booking.ErrShowNotFound)
}

// catalogOf saves a theatre, a one-seat screen of it and a movie, and
// returns a show of the movie on the screen planned from them, not stored.
func catalogOf(t *testing.T, s store) (booking.Theatre, booking.Screen, booking.Movie, booking.Show, []booking.Seat) {
	t.Helper()
	ctx := context.Background()
	th := booking.Theatre{ID: booking.NewID(), Name: "Minerva", City: "Mumbai", TimeZone: "Asia/Kolkata", Currency: "INR"}
	sc := booking.Screen{ID: booking.NewID(), TheatreID: th.ID, Name: "Audi 1", Layout: oneSeatLayout}
	m := booking.Movie{ID: booking.NewID(), Title: "Sholay", Rating: "U", RuntimeMin: 204, Language: "Hindi"}
	if err := s.SaveTheatre(ctx, th); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveScreen(ctx, sc); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMovie(ctx, m); err != nil {
		t.Fatal(err)
	}
	show := booking.Show{ID: booking.NewID(), Movie: m, Theatre: th, Screen: sc.Name, ScreenID: sc.ID, StartsAt: later, Currency: currency}
	seats := []booking.Seat{{ShowID: show.ID, ID: "A1", Row: "A", Number: 1, Category: "Classic", Price: classicPrice,
		Kind: booking.KindStandard, Status: booking.SeatAvailable}}
	return th, sc, m, show, seats
}

// testScreenWithAShowStays: a screen a show was made on (created from the
// catalog) is not deleted, nor are its theatre and movie, and the show
// stays as it was.
func testScreenWithAShowStays(t *testing.T, s store) {
	ctx := context.Background()
	th, sc, m, show, seats := catalogOf(t, s)
	if _, err := s.CreateCatalogShow(ctx, show, seats); err != nil {
		t.Fatalf("CreateCatalogShow: %v", err)
	}
	before := getShow(t, s, show.ID)
	wantCode(t, "DeleteScreen with a show", s.DeleteScreen(ctx, sc.ID), booking.ECONFLICT)
	wantCode(t, "DeleteMovie with a show", s.DeleteMovie(ctx, m.ID), booking.ECONFLICT)
	wantCode(t, "DeleteTheatre with a screen and a show", s.DeleteTheatre(ctx, th.ID), booking.ECONFLICT)
	if got, err := s.Screen(ctx, sc.ID); err != nil || got != sc {
		t.Errorf("Screen after a refused deletion = %+v, %v; want %+v", got, err, sc)
	}
	same(t, "the show after refused deletions", before, getShow(t, s, show.ID))
}

// testShowAfterItsScreenWent: a show planned while its screen (or movie)
// was there, and created after it was deleted, is refused and not stored;
// one created after a rename carries the new names.
func testShowAfterItsScreenWent(t *testing.T, s store) {
	ctx := context.Background()
	_, sc, m, show, seats := catalogOf(t, s)
	if err := s.DeleteScreen(ctx, sc.ID); err != nil {
		t.Fatalf("DeleteScreen: %v", err)
	}
	_, err := s.CreateCatalogShow(ctx, show, seats)
	wantErr(t, "CreateCatalogShow on a deleted screen", err, booking.ErrScreenNotFound)
	_, err = s.Show(ctx, show.ID)
	wantErr(t, "Show after CreateCatalogShow on a deleted screen", err, booking.ErrShowNotFound)

	th2, sc2, m2, show2, seats2 := catalogOf(t, s)
	if err := s.DeleteMovie(ctx, m2.ID); err != nil {
		t.Fatalf("DeleteMovie: %v", err)
	}
	_, err = s.CreateCatalogShow(ctx, show2, seats2)
	wantErr(t, "CreateCatalogShow of a deleted movie", err, booking.ErrMovieNotFound)
	_, err = s.Show(ctx, show2.ID)
	wantErr(t, "Show after CreateCatalogShow of a deleted movie", err, booking.ErrShowNotFound)

	// A show of m on sc2 planned now, and created after the three are
	// renamed, carries the new names.
	planned := show2
	planned.ID, planned.Movie = booking.NewID(), m
	plannedSeats := []booking.Seat{seats2[0]}
	plannedSeats[0].ShowID = planned.ID
	sc2.Name, m.Title, th2.Name = "Gold", "Sholay (3D)", "Minerva Talkies"
	if err := s.SaveScreen(ctx, sc2); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMovie(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveTheatre(ctx, th2); err != nil {
		t.Fatal(err)
	}
	got, err := s.CreateCatalogShow(ctx, planned, plannedSeats)
	if err != nil {
		t.Fatalf("CreateCatalogShow after the renames: %v", err)
	}
	stored := getShow(t, s, planned.ID)
	if stored.Screen != sc2.Name || stored.Movie != m || stored.Theatre != showCopy(th2) {
		t.Errorf("show created after the renames: screen %q, movie %+v, theatre %+v; want %q, %+v, %+v",
			stored.Screen, stored.Movie, stored.Theatre, sc2.Name, m, showCopy(th2))
	}
	if got.Screen != stored.Screen || got.Movie != stored.Movie || got.Theatre != stored.Theatre {
		t.Errorf("CreateCatalogShow returned %+v, stored %+v", got, stored)
	}
}
