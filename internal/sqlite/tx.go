package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"boxoffice/internal/booking"
)

var _ booking.Transactor = (*Store)(nil)

// tx is booking.Tx on a SQLite transaction. Its methods are the small
// reads and writes of the steps, each one statement (most of them
// prepared once per Store, in statements).
type tx struct {
	s   *Store
	ctx context.Context // the step's, without its cancellation (Atomically)
	tx  *sql.Tx         // the batch's transaction (group), inside the step's savepoint
	now time.Time
}

func (t *tx) Now() time.Time { return t.now }

// Serialize does nothing: SQLite has one writer at a time, and a step's
// transaction holds the write lock from its start; the steps of a batch
// (group) run one after another.
func (t *tx) Serialize(string) error { return nil }

func (t *tx) stmt(st *sql.Stmt) *sql.Stmt {
	if h := t.s.stmtHook; h != nil {
		h(st)
	}
	return t.tx.StmtContext(t.ctx, st)
}

// idsJSON is ids as the statements that take a list take it: a JSON array.
func idsJSON(ids []string) string {
	b, _ := json.Marshal(ids) // strings always marshal
	return string(b)
}
