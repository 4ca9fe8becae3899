package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SigningKey returns the key stored under name, storing fresh first when
// there is none: every process on the file gets the same key, however many
// start at once.
func (s *Store) SigningKey(ctx context.Context, name string, fresh []byte) ([]byte, error) {
	var key []byte
	err := s.read.QueryRowContext(ctx, `SELECT value FROM keys WHERE name = ?`, name).Scan(&key)
	if err == nil && len(key) == 0 {
		return nil, fmt.Errorf("sqlite: signing key %q is stored empty", name)
	}
	if err == nil {
		return key, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("sqlite: signing key: %w", err)
	}
	if len(fresh) == 0 {
		return nil, errors.New("sqlite: signing key: no fresh key to store")
	}
	err = s.inTx(ctx, "signing key", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO keys (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, name, fresh); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT value FROM keys WHERE name = ?`, name).Scan(&key)
	})
	if err != nil {
		return nil, err
	}
	return key, nil
}
