package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"
)

// migrations are applied in the order of their names, which start with
// their version: 0001_init.sql, 0002_….sql.
//
//go:embed migrations/*.sql
var migrations embed.FS

// Migrate applies the migrations the database has not seen yet, each in its
// own BEGIN IMMEDIATE transaction together with its row in schema_version.
// It is idempotent, and safe when several processes start at once: the
// second one waits for the lock, then finds the version recorded.
func (s *Store) Migrate(ctx context.Context) error {
	err := s.inTx(ctx, "migrate", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
			version    INTEGER PRIMARY KEY,
			name       TEXT    NOT NULL,
			applied_at INTEGER NOT NULL
		)`)
		return err
	})
	if err != nil {
		return err
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	slices.Sort(names)
	versions := make([]int, len(names))
	for i, name := range names {
		if versions[i], err = migrationVersion(name); err != nil {
			return fmt.Errorf("sqlite: migrate: %w", err)
		}
	}
	if len(versions) > 0 {
		if err := s.refuseNewerSchema(ctx, versions[len(versions)-1]); err != nil {
			return err
		}
	}
	for i, name := range names {
		base, version := strings.TrimPrefix(name, "migrations/"), versions[i]
		script, err := migrations.ReadFile(name)
		if err != nil {
			return fmt.Errorf("sqlite: migrate: %w", err)
		}
		err = s.inTx(ctx, "migrate "+base, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_version WHERE version = ?`, version).Scan(&n); err != nil || n > 0 {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(script)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)`,
				version, base, time.Now().UnixNano())
			return err
		})
		if err != nil {
			return err
		}
	}
	return s.fillBookingLang(ctx)
}

// fillBookingLang gives the bookings stored without a language (made
// before 0040_booking_lang.sql, or since by a process of an older
// release) the store's default one, DEFAULT_LANG (SPEC §15, existing
// data). It looks first, through bookings_no_lang, so that a start with
// nothing to do takes no write lock.
func (s *Store) fillBookingLang(ctx context.Context) error {
	lang := s.opt.defaultLang
	if lang == "" {
		lang = "en"
	}
	var n int
	err := s.read.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM bookings INDEXED BY bookings_no_lang WHERE lang = '' LIMIT 1)`).Scan(&n)
	if err != nil {
		return fmt.Errorf("sqlite: migrate: bookings without a language: %w", err)
	}
	if n == 0 {
		return nil
	}
	return s.inTx(ctx, "migrate: bookings' language", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE bookings SET lang = ? WHERE lang = ''`, lang)
		return err
	})
}

// migrationVersion is the version a migration's file name starts with:
// 5 for migrations/0005_holds_by_seat.sql.
func migrationVersion(name string) (int, error) {
	base := strings.TrimPrefix(name, "migrations/")
	v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
	if err != nil {
		return 0, fmt.Errorf("%s: name must start with its version", base)
	}
	return v, nil
}

// refuseNewerSchema fails when the database has a migration beyond known,
// the last this binary has: a newer boxoffice has changed the schema under
// it, and its statements (prepared against the schema it knows) could fail
// on every request. All processes must run the newer binary.
func (s *Store) refuseNewerSchema(ctx context.Context, known int) error {
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	if v > known {
		return fmt.Errorf("sqlite: the database's schema is at version %d, newer than this boxoffice knows (%d): run the newer boxoffice in every process", v, known)
	}
	return nil
}

// SchemaVersion is the highest migration applied, 0 for a new database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	if err := s.read.QueryRowContext(ctx, `SELECT max(version) FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("sqlite: schema version: %w", err)
	}
	return int(v.Int64), nil
}
