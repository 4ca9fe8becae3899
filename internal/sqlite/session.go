package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/alexedwards/scs/v2"
)

var (
	_ scs.Store            = (*SessionStore)(nil)
	_ scs.CtxStore         = (*SessionStore)(nil)
	_ scs.IterableCtxStore = (*SessionStore)(nil)
)

// SessionStore keeps scs sessions in the sessions table of the same database
// as everything else, so that any process can serve any request. Expired
// sessions are invisible at once and deleted by a background sweep that
// Store.Close stops.
type SessionStore struct {
	s *Store
	// now is the clock that decides whether a session has expired; nil is
	// the wall clock (WithClock).
	now func() time.Time
}

// WithClock returns the session store deciding expiry by now instead of
// the wall clock, for tests that move time.
func (ss *SessionStore) WithClock(now func() time.Time) *SessionStore {
	return &SessionStore{s: ss.s, now: now}
}

func (ss *SessionStore) clock() time.Time {
	if ss.now != nil {
		return ss.now()
	}
	return time.Now()
}

// Find returns the data of an unexpired session.
func (ss *SessionStore) Find(token string) ([]byte, bool, error) {
	return ss.FindCtx(context.Background(), token)
}

// FindCtx is Find with a context. An ended ctx is its error; the read
// itself, one row by its key on a read connection, which WAL mode never
// makes wait for the writer, does not watch ctx: modernc starts a
// goroutine to interrupt a statement whose context can end, and
// database/sql another to close its rows, which cost a fifth of the read
// (BenchmarkFindSession), and every request with a session cookie reads.
func (ss *SessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, false, fmt.Errorf("sqlite: find session: %w", err)
	}
	var b []byte
	err := ss.s.stmts.findSession.QueryRowContext(context.WithoutCancel(ctx), token, ss.clock().UnixNano()).Scan(&b)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("sqlite: find session: %w", err)
	}
	return b, true, nil
}

// Commit stores a session's data until expiry, replacing what was there.
func (ss *SessionStore) Commit(token string, b []byte, expiry time.Time) error {
	return ss.CommitCtx(context.Background(), token, b, expiry)
}

// CommitCtx is Commit with a context.
func (ss *SessionStore) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	if b == nil {
		b = []byte{} // data is NOT NULL
	}
	return ss.s.inTx(ctx, "commit session", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (token, data, expiry) VALUES (?, ?, ?)
			ON CONFLICT (token) DO UPDATE SET data = excluded.data, expiry = excluded.expiry`,
			token, b, expiry.UnixNano())
		return err
	})
}

// Delete removes a session; an unknown token is not an error.
func (ss *SessionStore) Delete(token string) error {
	return ss.DeleteCtx(context.Background(), token)
}

// DeleteCtx is Delete with a context.
func (ss *SessionStore) DeleteCtx(ctx context.Context, token string) error {
	return ss.s.inTx(ctx, "delete session", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE token = ?`, token)
		return err
	})
}

// AllCtx returns every unexpired session, for scs's Iterate.
func (ss *SessionStore) AllCtx(ctx context.Context) (map[string][]byte, error) {
	rows, err := ss.s.read.QueryContext(ctx, `SELECT token, data FROM sessions WHERE expiry > ?`, ss.clock().UnixNano())
	if err != nil {
		return nil, fmt.Errorf("sqlite: all sessions: %w", err)
	}
	defer rows.Close()
	all := map[string][]byte{}
	for rows.Next() {
		var token string
		var b []byte
		if err := rows.Scan(&token, &b); err != nil {
			return nil, fmt.Errorf("sqlite: all sessions: %w", err)
		}
		all[token] = b
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: all sessions: %w", err)
	}
	return all, nil
}
