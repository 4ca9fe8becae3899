package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"boxoffice/internal/config"
	"boxoffice/internal/sqlite"
)

// backup runs "boxoffice backup [--database-url URL] PATH": a consistent
// copy of the SQLite database at PATH, a new file, made while the servers
// go on serving (sqlite.Backup); docs/OPERATIONS.md says how to restore
// it. It refuses a PATH that exists, and a MongoDB database, whose tool is
// mongodump.
func (m *Main) backup(ctx context.Context, args []string, getenv func(string) string) error {
	fs := flag.NewFlagSet("boxoffice backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dbURL := fs.String("database-url", "", "")
	if err := fs.Parse(args); err != nil {
		return flagError(err)
	}
	if fs.NArg() != 1 {
		return usageError{errors.New("backup: give the path of the copy to make, which must not exist: boxoffice backup [--database-url URL] PATH")}
	}
	path := fs.Arg(0)
	db, err := config.LoadDatabase(*dbURL, getenv)
	if err != nil {
		return usageError{err}
	}
	if db.Driver != config.DriverSQLite {
		return fmt.Errorf("backup: %s is a MongoDB database; boxoffice backup copies SQLite files only. "+
			"Use mongodump, e.g. mongodump --uri='<DATABASE_URL>' --archive=%s --gzip (and mongorestore to restore): see docs/OPERATIONS.md",
			db.Redacted(), path)
	}
	n, err := sqlite.Backup(ctx, db.Source, path)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(m.Stdout, "backed up %s to %s (%d bytes, checked)\n", db.Redacted(), path, n)
	return nil
}
