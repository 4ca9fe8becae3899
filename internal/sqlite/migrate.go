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
	if err := s.refuseNewerSchema(ctx, names); err != nil {
		return err
	}
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		version, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("sqlite: migrate: %s: name must start with its version", base)
		}
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
	return nil
}

// refuseNewerSchema fails when the database has a migration this binary
// does not know: a newer boxoffice has changed the schema under it, and its
// statements (prepared against the schema it knows) could fail on every
// request. All processes must run the newer binary.
func (s *Store) refuseNewerSchema(ctx context.Context, names []string) error {
	known := 0
	for _, name := range names {
		if v, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(name, "migrations/"), "_", 2)[0]); err == nil && v > known {
			known = v
		}
	}
	var v sql.NullInt64
	if err := s.write.QueryRowContext(ctx, `SELECT max(version) FROM schema_version`).Scan(&v); err != nil {
		return fmt.Errorf("sqlite: migrate: %w", err)
	}
	if int(v.Int64) > known {
		return fmt.Errorf("sqlite: the database's schema is at version %d, newer than this boxoffice knows (%d): run the newer boxoffice in every process", v.Int64, known)
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
