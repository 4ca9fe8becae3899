package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/catalog"
)

// Defaults of "boxoffice seed": 100 shows of a 500-seat screen.
const (
	defaultSeedShows = 100
	defaultSeedRows  = 20
	defaultSeedCols  = 25
	maxRows          = catalog.MaxRows
	maxCols          = catalog.MaxSeatsPerRow
)

// seed adds synthetic shows and prints their ids, one a line, as each is
// stored: a load test can read them while seeding goes on.
func (m *Main) seed(ctx context.Context, args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("boxoffice seed", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	shows := fs.Int("shows", defaultSeedShows, "")
	rows := fs.Int("rows", defaultSeedRows, "")
	cols := fs.Int("cols", defaultSeedCols, "")
	startsAt := fs.String("starts-at", "", "")
	every := fs.Duration("every", catalog.DefaultSeedEvery, "")
	dbURL := fs.String("database-url", "", "")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("seed: unexpected argument %q", fs.Arg(0))}
	}
	start := catalog.DefaultSeedStart(time.Now())
	if *startsAt != "" {
		t, err := time.Parse(time.RFC3339, *startsAt)
		if err != nil {
			return usageError{fmt.Errorf("seed: --starts-at %q is not an RFC 3339 time, like 2026-12-24T18:30:00+05:30", *startsAt)}
		}
		start = t
	}
	if *every <= 0 {
		return usageError{fmt.Errorf("seed: --every must be a positive duration, like 3h")}
	}
	if *shows < 1 {
		return usageError{fmt.Errorf("seed: --shows must be at least 1")}
	}
	if err := catalog.CheckSize(*rows, *cols); err != nil {
		return usageError{fmt.Errorf("seed: %w", err)}
	}
	db, _, err := openDatabaseFlag(ctx, *dbURL, getenv)
	if err != nil {
		return err
	}
	defer db.Close()

	began := time.Now()
	// One seat plan, copied per show just before it is stored, keeps memory
	// flat however many seats are asked for.
	plan := catalog.SyntheticLayout(*rows, *cols).Seats()
	for _, show := range catalog.SyntheticShows(*shows, start, *every) {
		if err := booking.CreateShowStep(ctx, db, time.Now, show, catalog.ForShow(plan, show.ID)); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		fmt.Fprintln(m.Stdout, show.ID)
	}
	fmt.Fprintf(m.Stderr, "seeded %d shows, %d seats, in %s\n", *shows, *shows*len(plan), time.Since(began).Round(time.Millisecond))
	return nil
}

// migrate creates or updates the tables and indexes. Opening the store
// migrates too; this command exists so that a deployment can do it once,
// before starting many processes.
func (m *Main) migrate(ctx context.Context, args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("boxoffice migrate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dbURL := fs.String("database-url", "", "")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("migrate: unexpected argument %q", fs.Arg(0))}
	}
	db, dbConfig, err := openDatabaseFlag(ctx, *dbURL, getenv)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(m.Stdout, "migrated %s\n", dbConfig.Redacted())
	return nil
}
