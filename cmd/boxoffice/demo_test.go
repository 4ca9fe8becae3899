package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/catalog"
)

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestKeepDemo (SPEC §10): the demo is dated from the day the server
// starts, kept DemoDays ahead, and added once however many processes start
// together; a database filled otherwise is left alone.
func TestKeepDemo(t *testing.T) {
	ctx := context.Background()
	_, path := tempDatabaseURL(t)
	a, b := openStore(t, path), openStore(t, path) // two processes' stores on one file
	now := time.Now()

	var wg sync.WaitGroup
	for _, s := range []booking.Store{a, b} {
		wg.Go(func() {
			if err := keepDemo(ctx, s, now, quietLogger()); err != nil {
				t.Errorf("keepDemo: %v", err)
			}
		})
	}
	wg.Wait()
	demo := catalog.Demo(now)
	if n, err := a.CountShows(ctx); err != nil || n != len(demo.Shows) {
		t.Fatalf("after two processes seeded at once: %d shows (%v), want %d", n, err, len(demo.Shows))
	}
	if th, err := a.ListTheatres(ctx); err != nil || len(th) != len(demo.Theatres) {
		t.Errorf("catalog theatres %v, %v", th, err)
	}

	// A month later: next week's shows are there too.
	month := now.AddDate(0, 1, 0)
	if err := keepDemo(ctx, b, month, quietLogger()); err != nil {
		t.Fatal(err)
	}
	up, err := a.UpcomingShows(ctx, month, 1000, booking.Rules{TTL: 15 * time.Minute}.At(month))
	if err != nil || len(up) != len(catalog.Demo(month).Shows) {
		t.Errorf("a month later: %d upcoming shows (%v), want %d", len(up), err, len(catalog.Demo(month).Shows))
	}
	if len(up) > 0 && up[len(up)-1].StartsAt.Before(month.Add(6*24*time.Hour)) {
		t.Errorf("the demo a month later ends %v, want a week ahead", up[len(up)-1].StartsAt)
	}

	// An admin renames a demo theatre: shows added later carry the new
	// name.
	th := catalog.Demo(now).Theatres[0]
	th.Name = "Kohinoor Renamed"
	if err := booking.SaveTheatreStep(ctx, a, time.Now, th); err != nil {
		t.Fatal(err)
	}
	n0, _ := a.CountShows(ctx)
	two := now.AddDate(0, 2, 0)
	if err := keepDemo(ctx, a, two, quietLogger()); err != nil {
		t.Fatal(err)
	}
	up, _ = a.UpcomingShows(ctx, two, 1000, booking.Rules{TTL: 15 * time.Minute}.At(two))
	for _, s := range up {
		if s.Theatre.ID == th.ID && s.Theatre.Name != th.Name {
			t.Fatalf("a show added after the rename carries %q", s.Theatre.Name)
		}
	}
	if n1, _ := a.CountShows(ctx); n1 <= n0 {
		t.Errorf("two months later no shows were added (%d, was %d)", n1, n0)
	}

	// A first seeding cut short (theatres saved, no movie yet) is finished.
	_, cut := tempDatabaseURL(t)
	c := openStore(t, cut)
	if err := booking.SaveTheatreStep(ctx, c, time.Now, demo.Theatres[0]); err != nil {
		t.Fatal(err)
	}
	if err := keepDemo(ctx, c, now, quietLogger()); err != nil {
		t.Fatal(err)
	}
	if n, _ := c.CountShows(ctx); n != len(demo.Shows) {
		t.Errorf("after a cut-short seeding: %d shows, want %d", n, len(demo.Shows))
	}

	// Databases filled otherwise get no demo.
	_, seeded := tempDatabaseURL(t)
	s := openStore(t, seeded)
	createShow(t, s, "Synthetic", 4)
	_, admins := tempDatabaseURL(t)
	adm := openStore(t, admins)
	if err := booking.SaveTheatreStep(ctx, adm, time.Now, booking.Theatre{ID: "t1", Name: "Own", City: "Goa", TimeZone: "Asia/Kolkata", Currency: "INR"}); err != nil {
		t.Fatal(err)
	}
	for name, st := range map[string]booking.Store{"seeded": s, "an admin's": adm} {
		if err := keepDemo(ctx, st, now, quietLogger()); err != nil {
			t.Fatal(err)
		}
		n, _ := st.CountShows(ctx)
		if want := map[string]int{"seeded": 1, "an admin's": 0}[name]; n != want {
			t.Errorf("%s database: %d shows after keepDemo, want %d (no demo)", name, n, want)
		}
	}
}

// TestKeepDemoKeepsDeletedShowsDeleted (SPEC §10): a demo show an admin
// deleted stays deleted at the next refresh, which still adds the new
// days' shows.
func TestKeepDemoKeepsDeletedShowsDeleted(t *testing.T) {
	ctx := context.Background()
	_, path := tempDatabaseURL(t)
	s := openStore(t, path)
	now := time.Now()
	if err := keepDemo(ctx, s, now, quietLogger()); err != nil {
		t.Fatal(err)
	}
	demo := catalog.Demo(now)
	deleted := demo.Shows[len(demo.Shows)/2].Show.ID
	if err := booking.DeleteShowStep(ctx, s, time.Now, deleted); err != nil {
		t.Fatal(err)
	}
	n0, _ := s.CountShows(ctx)

	// The hourly refresh, an hour later and two days later.
	for _, at := range []time.Time{now.Add(time.Hour), now.Add(48 * time.Hour)} {
		if err := keepDemo(ctx, s, at, quietLogger()); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Show(ctx, deleted); !errors.Is(err, booking.ErrShowNotFound) {
			t.Fatalf("refresh at %v: the deleted demo show %s: %v, want it still deleted", at, deleted, err)
		}
	}
	if n, _ := s.CountShows(ctx); n <= n0 {
		t.Errorf("two days on, the refresh added no shows (%d, was %d)", n, n0)
	}
}

// TestDemoTypes (SPEC §15): the demo's shows sell adult, child
// (accompanied, under 12) and senior (door check) from their theatre's
// price card, priced in INR; each seat costs its category's adult price,
// what checkout offers first.
func TestDemoTypes(t *testing.T) {
	ctx := context.Background()
	_, path := tempDatabaseURL(t)
	s := openStore(t, path)
	now := time.Now()
	if err := keepDemo(ctx, s, now, quietLogger()); err != nil {
		t.Fatal(err)
	}
	ss := catalog.Demo(now).Shows[0]
	var p booking.ShowPrices
	if err := s.Atomically(ctx, time.Now, func(tx booking.Tx) (err error) { p, err = tx.ShowPrices(ss.Show.ID); return err }); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ty := range p.Types {
		ids = append(ids, ty.ID)
	}
	if len(ids) != 3 || ids[0] != "adult" || ids[1] != "child" || ids[2] != "senior" || !p.Types[1].Accompanied || p.Types[1].Note != "under 12" || !p.Types[2].DoorCheck {
		t.Fatalf("the demo show's types %+v, want adult, child (accompanied, under 12), senior (door check)", p.Types)
	}
	for cat, want := range map[string][3]booking.Money{"Classic": {180_00, 110_00, 130_00}, "Prime": {250_00, 150_00, 180_00}} {
		for i, typ := range ids {
			if got, ok := p.Cells.Price(cat, typ); !ok || got != want[i] {
				t.Errorf("%s × %s = %d (%v), want %d", cat, typ, got, ok, want[i])
			}
		}
	}
	seats, err := s.Seats(ctx, ss.Show.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range seats {
		if seat.Category == "Classic" && seat.Price != 180_00 {
			t.Errorf("seat %s costs %d, want the adult price 18000", seat.ID, seat.Price)
			break
		}
	}
}
