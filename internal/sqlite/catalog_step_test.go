package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// goesFirst is a store on which another admin's step runs just before
// each of this one's: the catalog changes between Catalog.NewShow's reads
// and its step.
type goesFirst struct {
	*Store
	other func(ctx context.Context) error
}

func (g *goesFirst) Atomically(ctx context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	if g.other != nil {
		other := g.other
		g.other = nil
		if err := other(ctx); err != nil {
			return err
		}
	}
	return g.Store.Atomically(ctx, clock, step)
}

// TestNewShowWhileItsScreenGoes: a new show whose screen (or movie) is
// deleted after the form's choices were read is refused on the form, and
// not stored; one whose names change meanwhile carries the new names.
func TestNewShowWhileItsScreenGoes(t *testing.T) {
	ctx := context.Background()
	s, _ := mustOpen(t)
	now := time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC)
	th := booking.Theatre{ID: "th", Name: "Regal", City: "Pune", TimeZone: "Asia/Kolkata", Currency: "INR"}
	sc := booking.Screen{ID: "sc", TheatreID: th.ID, Name: "Audi 1", Layout: "C = Classic\nA  CC\n"}
	m := booking.Movie{ID: "mv", Title: "Anand", RuntimeMin: 122}
	for _, err := range []error{
		booking.SaveTheatreStep(ctx, s, time.Now, th),
		booking.SaveScreenStep(ctx, s, time.Now, sc),
		booking.SaveMovieStep(ctx, s, time.Now, m),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	st := &goesFirst{Store: s}
	cat := booking.NewService(st, booking.NewManualClock(now), booking.Policy{}).Catalog()
	prices := map[string]string{"Classic": "250"}

	renamed := m
	renamed.Title = "Anand (restored)"
	st.other = func(ctx context.Context) error { return booking.SaveMovieStep(ctx, s, time.Now, renamed) }
	show, err := cat.NewShow(ctx, m.ID, sc.ID, "2026-05-01T18:30", prices)
	if err != nil {
		t.Fatalf("NewShow while its movie is renamed: %v", err)
	}
	if stored, err := s.Show(ctx, show.ID); err != nil || stored.Movie != renamed || show.Movie != renamed {
		t.Errorf("show made while its movie was renamed: stored %+v (%v), returned %+v; want %+v", stored.Movie, err, show.Movie, renamed)
	}

	// A screen of no show, deleted between the reads and the step.
	empty := booking.Screen{ID: "sc2", TheatreID: th.ID, Name: "Audi 2", Layout: sc.Layout}
	if err := booking.SaveScreenStep(ctx, s, time.Now, empty); err != nil {
		t.Fatal(err)
	}
	st.other = func(ctx context.Context) error { return booking.DeleteScreenStep(ctx, s, time.Now, empty.ID) }
	_, err = cat.NewShow(ctx, m.ID, empty.ID, "2026-05-01T21:30", prices)
	var inv booking.InvalidFields
	if !errors.As(err, &inv) || inv.For("screen") != "Choose a screen." {
		t.Fatalf("NewShow on a screen deleted meanwhile = %v, want the form's %q", err, "Choose a screen.")
	}
	if n, err := s.CountShows(ctx); err != nil || n != 1 {
		t.Errorf("shows after the refused one: %d, %v; want 1", n, err)
	}

	// The screen's layout edited between the plan and the step: the seats
	// planned are of before, so the show is planned again, not stored.
	edited := sc
	edited.Layout = "C = Classic\nA  CCC\n"
	st.other = func(ctx context.Context) error { return booking.SaveScreenStep(ctx, s, time.Now, edited) }
	if _, err := cat.NewShow(ctx, m.ID, sc.ID, "2026-05-02T18:30", prices); !errors.Is(err, booking.ErrShowPlanStale) {
		t.Errorf("NewShow while its screen's layout changes = %v, want ErrShowPlanStale", err)
	}
	// And the theatre's zone.
	moved := th
	moved.TimeZone = "Europe/Paris"
	st.other = func(ctx context.Context) error { return booking.SaveTheatreStep(ctx, s, time.Now, moved) }
	if _, err := cat.NewShow(ctx, m.ID, sc.ID, "2026-05-02T21:30", prices); !errors.Is(err, booking.ErrShowPlanStale) {
		t.Errorf("NewShow while its theatre's zone changes = %v, want ErrShowPlanStale", err)
	}
	if n, err := s.CountShows(ctx); err != nil || n != 1 {
		t.Errorf("shows after the stale plans: %d, %v; want 1", n, err)
	}
}
