package sqlite

import (
	"context"
	"database/sql"
	"errors"
)

// maxPreparedSeats is the largest hold whose lock UPDATE is prepared ahead;
// larger ones (MAX_SEATS may be raised) are prepared per call.
const maxPreparedSeats = 16

// statements are the prepared statements of the hot paths. Those on the
// write pool are prepared on its one connection and reused by every
// transaction through Tx.StmtContext.
type statements struct {
	all []*sql.Stmt

	lock        [maxPreparedSeats + 1]*sql.Stmt // lock[n] locks n seats
	prevHold    *sql.Stmt
	releaseHold *sql.Stmt // seats still locked by a hold back to available
	replaceHold *sql.Stmt
	insertHold  *sql.Stmt
	insertShow  *sql.Stmt
	insertSeat  *sql.Stmt
	seats       *sql.Stmt // read pool: a show's seat map
	seatStates  *sql.Stmt // read pool: the changing columns of a show's seats, by seat id
	findSession *sql.Stmt // read pool: every request with a session cookie
}

// lockSQL is the all-or-nothing heart of HoldSeats: it locks those of the n
// requested seats that are free by the seat rule or still locked by the
// session's previous active hold for the show, which it looks up itself
// (prevHoldSQL; an uncorrelated subquery, evaluated once). Arguments, all
// positional (numbered ones cost a name lookup each in the driver): hold id,
// now, show id, the n seat ids, cutoff, show id, owner. It is executed, not
// queried with RETURNING: counting the rows it changed is enough to decide,
// and measured 30 µs cheaper per hold.
func lockSQL(n int) string {
	return `UPDATE seats SET status = 'locked', hold_id = ?, locked_at = ?
		WHERE show_id = ? AND seat_id IN (` + placeholders(n) + `)
		AND (` + seatFree + ` OR (status = 'locked' AND hold_id = (` + prevHoldSQL("?", "?", "") + `)))`
}

// prevHoldSQL looks up the owner's active hold for the show through
// holds_owner; show and owner are the parameters that bind them. The lock
// UPDATE and the hold's INSERT both use it, so that they name the same hold;
// the INSERT excludes the hold it has just written (not).
func prevHoldSQL(show, owner, not string) string {
	q := `SELECT id FROM holds WHERE show_id = ` + show + ` AND owner = ` + owner + ` AND state = 'active'`
	if not != "" {
		q += ` AND id <> ` + not
	}
	return q + ` ORDER BY id LIMIT 1`
}

// releaseSQL frees the seats a hold still locks; it never touches a seat
// that another hold has locked since or that was booked.
const releaseSQL = `UPDATE seats SET status = 'available', hold_id = NULL, locked_at = NULL
	WHERE show_id = ? AND hold_id = ? AND status = 'locked'`

// insertHoldSQL records a hold whose seats are locked. The amount (the prices
// of the seats just locked, found through seats_hold: without INDEXED BY the
// planner walks the show's whole primary key range), the currency (the
// show's) and the owner's previous active hold for the show (empty if none) are
// computed by the insert itself and returned, so that without a previous
// hold, the common case, a hold is two statements. Arguments: hold id, owner,
// seat ids, show id, now.
var insertHoldSQL = `INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state)
	SELECT ?1, id, ?2, ?3, (SELECT coalesce(sum(price), 0) FROM seats INDEXED BY seats_hold WHERE show_id = ?4 AND hold_id = ?1),
		currency, ?5, 'active'
	FROM shows WHERE id = ?4
	RETURNING amount, currency, coalesce((` + prevHoldSQL("?4", "?2", "?1") + `), '')`

// replaceHoldSQL marks a hold replaced by the same owner's next one.
const replaceHoldSQL = `UPDATE holds SET state = 'replaced' WHERE id = ? AND state = 'active'`

func prepareStatements(ctx context.Context, write, read *sql.DB) (*statements, error) {
	st := &statements{}
	var errs []error
	prep := func(db *sql.DB, query string) *sql.Stmt {
		stmt, err := db.PrepareContext(ctx, query)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		st.all = append(st.all, stmt)
		return stmt
	}
	for n := 1; n <= maxPreparedSeats; n++ {
		st.lock[n] = prep(write, lockSQL(n))
	}
	st.prevHold = prep(write, prevHoldSQL("?", "?", ""))
	st.releaseHold = prep(write, releaseSQL)
	st.replaceHold = prep(write, replaceHoldSQL)
	st.insertHold = prep(write, insertHoldSQL)
	st.insertShow = prep(write, `INSERT INTO shows (`+showColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`)
	st.insertSeat = prep(write, `INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, category, price, kind)
		VALUES (?,?,?,?,?,?,?,?,?)`)
	st.seats = prep(read, `SELECT `+seatColumns+` FROM seats WHERE show_id = ? ORDER BY grid_row, grid_col`)
	st.seatStates = prep(read, `SELECT seat_id, status, coalesce(hold_id, ''), coalesce(locked_at, 0), coalesce(booking_id, '')
		FROM seats WHERE show_id = ? ORDER BY seat_id`)
	st.findSession = prep(read, `SELECT data FROM sessions WHERE token = ? AND expiry > ?`)
	if len(errs) > 0 {
		st.close()
		return nil, errors.Join(errs...)
	}
	return st, nil
}

func (st *statements) close() {
	if st == nil {
		return
	}
	for _, s := range st.all {
		s.Close()
	}
}
