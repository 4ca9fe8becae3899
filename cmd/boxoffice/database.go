package main

import (
	"context"
	"fmt"

	"github.com/alexedwards/scs/v2"

	"boxoffice/internal/booking"
	"boxoffice/internal/config"
	"boxoffice/internal/mongo"
	"boxoffice/internal/sqlite"
	"boxoffice/internal/web"
)

// database is an open store with what main needs beyond the booking port.
// Each adapter fills it its own way; nothing else here knows which it is.
type database struct {
	booking.Store
	Sessions scs.Store
	Migrate  func(context.Context) error
	// Limiter, when the store can count in the database, makes HOLD_RATE
	// hold across processes (SPEC §8); nil leaves each process counting
	// alone.
	Limiter web.Limiter
}

// openDatabase opens the store DATABASE_URL names.
func openDatabase(ctx context.Context, db config.Database) (*database, error) {
	switch db.Driver {
	case config.DriverSQLite:
		s, err := sqlite.Open(ctx, db.Source)
		if err != nil {
			return nil, err
		}
		d := &database{Store: s, Sessions: s.Sessions(), Migrate: s.Migrate}
		if l, ok := any(s).(web.Limiter); ok {
			d.Limiter = l
		}
		return d, nil
	case config.DriverMongo:
		s, err := mongo.Open(ctx, db.Source)
		if err != nil {
			return nil, err
		}
		return &database{Store: s, Sessions: s.Sessions(), Migrate: s.Migrate}, nil
	default:
		return nil, fmt.Errorf("no store for database driver %q", db.Driver)
	}
}
