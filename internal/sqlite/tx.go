package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"boxoffice/internal/booking"
)

var _ booking.Transactor = (*Store)(nil)

// Atomically runs step in one BEGIN IMMEDIATE transaction (inTx): the
// database's write lock is held from its start, so no other process writes
// between the step's reads and its writes. The clock is read once the lock
// is held, so that a step that waited for another process's write decides
// at the time it runs.
//
// The step's statements do not watch ctx: modernc starts a goroutine per
// statement to interrupt it when the context has a Done channel, which
// cost a hold about a twentieth of its CPU (BenchmarkHoldRoute,
// docs/PERFORMANCE.md). A step is a few short statements under the write
// lock, and inTx checks ctx before it commits: a request that ended
// meanwhile commits nothing.
func (s *Store) Atomically(ctx context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	return s.inTx(ctx, "step", func(sqlTx *sql.Tx) error {
		return step(&tx{s: s, ctx: context.WithoutCancel(ctx), tx: sqlTx, now: clock()})
	})
}

// tx is booking.Tx on a SQLite transaction. Its methods are the small
// reads and writes of the steps, each one statement (most of them
// prepared once per Store, in statements).
type tx struct {
	s   *Store
	ctx context.Context // the step's, without its cancellation (Atomically)
	tx  *sql.Tx
	now time.Time
}

func (t *tx) Now() time.Time { return t.now }

// Serialize does nothing: SQLite has one writer at a time, and a step's
// transaction holds the write lock from its start.
func (t *tx) Serialize(string) error { return nil }

func (t *tx) stmt(st *sql.Stmt) *sql.Stmt { return t.tx.StmtContext(t.ctx, st) }

// idsJSON is ids as the statements that take a list take it: a JSON array.
func idsJSON(ids []string) string {
	b, _ := json.Marshal(ids) // strings always marshal
	return string(b)
}
