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
	price := fs.Int64("price", 0, "")
	taxRate := fs.String("tax-rate", "0", "")
	rent := fs.String("rent", "", "")
	dbURL := fs.String("database-url", "", "")
	defaultLang := fs.String("default-lang", "", "")
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
	if *price < 0 || booking.Money(*price) > booking.MaxPrice {
		return usageError{fmt.Errorf("seed: --price must be from 1 to %d (minor units, like 25000 for ₹250)", int64(booking.MaxPrice))}
	}
	tax, err := booking.ParseTaxRate(*taxRate)
	if err != nil {
		return usageError{fmt.Errorf("seed: --tax-rate: %s", booking.ErrorMessage(err))}
	}
	var terms []int
	if *rent != "" {
		if terms, err = booking.ParseRent(*rent); err != nil {
			return usageError{fmt.Errorf("seed: --rent: %s", booking.ErrorMessage(err))}
		}
	}
	db, _, err := openDatabaseFlag(ctx, *dbURL, *defaultLang, getenv)
	if err != nil {
		return err
	}
	defer db.Close()

	began := time.Now()
	// One seat plan, copied per show just before it is stored, keeps memory
	// flat however many seats are asked for.
	plan := catalog.SyntheticLayout(*rows, *cols).Seats()
	if *price > 0 {
		for i := range plan {
			plan[i].Price = booking.Money(*price)
		}
	}
	prices := catalog.SyntheticPrices(booking.Categories(plan))
	theatre, movie := catalog.SyntheticTheatre(), catalog.SyntheticMovie()
	if err := seedCatalog(ctx, db, theatre, movie, tax, terms); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	for _, show := range catalog.SyntheticShowsOf(theatre, movie, *shows, start, *every) {
		if err := booking.CreatePricedShowStep(ctx, db, time.Now, show, catalog.ForShow(plan, show.ID), prices); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		fmt.Fprintln(m.Stdout, show.ID)
	}
	fmt.Fprintf(m.Stderr, "seeded %d shows, %d seats, in %s\n", *shows, *shows*len(plan), time.Since(began).Round(time.Millisecond))
	return nil
}

// seedCatalog stores the seeded theatre with its tax rate and its types
// (catalog.SyntheticTypes), and the movie with its rental terms (none when
// rent is empty), so that the shows' copies have records behind them.
func seedCatalog(ctx context.Context, db booking.Transactor, theatre booking.Theatre, movie booking.Movie, tax booking.TaxRate, rent []int) error {
	if err := booking.SaveTheatreStep(ctx, db, time.Now, theatre); err != nil {
		return err
	}
	if err := booking.SetTheatreTaxRateStep(ctx, db, time.Now, theatre.ID, booking.TaxRates{Rate: tax}); err != nil {
		return err
	}
	for _, t := range catalog.SyntheticTypes() {
		if err := booking.SaveTicketTypeStep(ctx, db, time.Now, theatre.ID, "", t); err != nil {
			return err
		}
	}
	if err := booking.SaveMovieStep(ctx, db, time.Now, movie); err != nil {
		return err
	}
	if len(rent) > 0 {
		return booking.SetMovieRentStep(ctx, db, time.Now, movie.ID, rent)
	}
	return nil
}

// migrate creates or updates the tables and indexes. Opening the store
// migrates too; this command exists so that a deployment can do it once,
// before starting many processes.
func (m *Main) migrate(ctx context.Context, args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("boxoffice migrate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dbURL := fs.String("database-url", "", "")
	defaultLang := fs.String("default-lang", "", "")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("migrate: unexpected argument %q", fs.Arg(0))}
	}
	db, dbConfig, err := openDatabaseFlag(ctx, *dbURL, *defaultLang, getenv)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(m.Stdout, "migrated %s\n", dbConfig.Redacted())
	return nil
}
