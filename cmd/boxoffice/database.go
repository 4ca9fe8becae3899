package main

import (
	"context"
	"fmt"

	"github.com/alexedwards/scs/v2"

	"boxoffice/internal/booking"
	"boxoffice/internal/config"
	"boxoffice/internal/i18n"
	"boxoffice/internal/mongo"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

// database is an open store with what main needs beyond the booking port.
// Each adapter fills it its own way; nothing else here knows which it is.
type database struct {
	booking.Store
	Sessions scs.Store
	// Limiter counts in the database, so that HOLD_RATE holds across
	// processes (SPEC §8); nil would leave each process counting alone.
	Limiter web.Limiter
}

// Both adapters count holds in their database.
var (
	_ web.Limiter = (*sqlite.RateLimiter)(nil)
	_ web.Limiter = (*mongo.RateLimiter)(nil)
)

// openDatabaseFlag opens the store a command's --database-url names, or
// DATABASE_URL when the flag is empty; a bad URL is a usage error. Its
// bookings stored without a language get DEFAULT_LANG, as with serve.
func openDatabaseFlag(ctx context.Context, flagURL string, getenv func(string) string) (*database, config.Database, error) {
	dbConfig, err := config.LoadDatabase(flagURL, getenv)
	if err != nil {
		return nil, dbConfig, usageError{err}
	}
	lang := "en"
	if v := getenv("DEFAULT_LANG"); v != "" {
		l, ok := i18n.Parse(v)
		if !ok {
			return nil, dbConfig, usageError{fmt.Errorf("DEFAULT_LANG %q: must be en, hi or ta", v)}
		}
		lang = string(l)
	}
	db, err := openDatabase(ctx, dbConfig, lang)
	return db, dbConfig, err
}

// openDatabase opens the store DATABASE_URL names. Both adapters create or
// update their tables and indexes as they open, and give the bookings
// stored without a language lang, DEFAULT_LANG (SPEC §15, existing data).
func openDatabase(ctx context.Context, db config.Database, lang string) (*database, error) {
	switch db.Driver {
	case config.DriverSQLite:
		s, err := sqlite.Open(ctx, db.Source, sqlite.DefaultLang(lang))
		if err != nil {
			return nil, err
		}
		limiter, err := sqlite.NewRateLimiter(ctx, s)
		if err != nil {
			s.Close()
			return nil, err
		}
		return &database{Store: s, Sessions: s.Sessions(), Limiter: limiter}, nil
	case config.DriverMongo:
		s, err := mongo.Open(ctx, db.Source, mongo.DefaultLang(lang))
		if err != nil {
			return nil, err
		}
		return &database{Store: s, Sessions: s.Sessions(), Limiter: s.RateLimiter()}, nil
	default:
		return nil, fmt.Errorf("no store for database driver %q", db.Driver)
	}
}
