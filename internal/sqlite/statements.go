package sqlite

import (
	"context"
	"database/sql"
	"errors"
)

// statements are the prepared statements of the hot paths. Those on the
// write pool are prepared on its one connection and reused by every
// transaction through Tx.StmtContext.
type statements struct {
	all []*sql.Stmt

	lock        *sql.Stmt // lockSQL
	lockPrev    *sql.Stmt // lockPrevSQL
	prevHolds   *sql.Stmt
	releasePrev *sql.Stmt
	releaseHold *sql.Stmt // seats still locked by a hold back to available
	replaceHold *sql.Stmt
	insertHold  *sql.Stmt
	heldFrom    *sql.Stmt // seats of a show locked live by holds from one address (HOLD_SEATS_PER_ADDRESS)
	gapRows     *sql.Stmt // the seats of the rows a hold touches, for the gap rule (gapSQL)
	showSale    *sql.Stmt // what booking.Show.CheckOnSale needs of a show
	insertShow  *sql.Stmt
	insertSeat  *sql.Stmt
	show        *sql.Stmt // read pool: a show by id, read by every seat map and checkout
	seats       *sql.Stmt // read pool: a show's seat map
	seatStates  *sql.Stmt // read pool: the changing columns of a show's seats that are not available, by seat id
	findSession *sql.Stmt // read pool: every request with a session cookie
}

// lockSQL is the all-or-nothing heart of HoldSeats: it locks those of the
// requested seats that are free by the seat rule, except a lapsed lock of
// the same owner, which belongs to the owner's previous hold: those are left
// for lockPrevSQL, so that the previous hold is always found and replaced.
// Arguments, all positional (numbered ones cost a name lookup each in the
// driver): hold id, owner, now, show id, the seat ids as a JSON array,
// cutoff, owner. It is executed, not queried with RETURNING: counting the
// rows it changed is enough to decide.
var lockSQL = lockWhereSQL(`(status = 'available' OR (status = 'locked' AND locked_at <= ? AND hold_owner IS NOT ?))`)

// lockPrevSQL locks those of the n requested seats that the owner's
// previous hold still locks, lapsed or not: they count as available to the
// owner's new hold. It matches the owner, not the hold: were the owner to
// lock seats of two holds (no path leaves that, but a hand-edited file
// could), both would be replaced rather than one refused for ever.
// Arguments: hold id, owner, now, show id, the seat ids as a JSON array,
// owner, hold id (the seats lockSQL just locked are the owner's too, and
// not to be counted twice).
var lockPrevSQL = lockWhereSQL(`status = 'locked' AND hold_owner = ? AND hold_id <> ?`)

// lockWhereSQL locks for a hold those of the requested seats that meet
// cond. Its own arguments come first: hold id, owner, now, show id, the
// seat ids as a JSON array; then cond's. One prepared statement serves any
// number of seats; one prepared per number of seats was 18 µs (9 %)
// cheaper per 4-seat hold in BenchmarkStore/seats=1k/hold-vs-bare, and at
// the hold route 601 against 635 µs in the one quiet pair of interleaved
// sidebyside.sh runs (5 %, inside the route's run-to-run noise of ±15 %).
func lockWhereSQL(cond string) string {
	return `UPDATE seats SET status = 'locked', hold_id = ?, hold_owner = ?, locked_at = ?
		WHERE show_id = ? AND seat_id IN (SELECT value FROM json_each(?)) AND ` + cond
}

// prevHoldsSQL finds the owner's previous hold for the show: the hold, other
// than the new one, that locks some seat of the owner in the show. Every
// hold replaces the owner's previous one and takes over or frees its seats,
// so there is at most one. A previous hold that locks no seat any more has
// lapsed and lost every seat to others; it is left as it is (it can no
// longer be paid). Arguments: show id, owner, the new hold's id.
const prevHoldsSQL = `SELECT DISTINCT hold_id FROM seats INDEXED BY seats_hold
	WHERE show_id = ? AND hold_owner = ? AND status = 'locked' AND hold_id <> ?`

// releaseSQL frees the seats a hold still locks; it never touches a seat
// that another hold has locked since or that was booked. Arguments: show
// id, the hold's owner, hold id.
const releaseSQL = releaseWhereSQL + `hold_id = ?`

// releasePrevSQL frees the seats the owner's previous holds still lock once
// the new hold has taken over those it asked for. Arguments: show id,
// owner, the new hold's id.
const releasePrevSQL = releaseWhereSQL + `hold_id <> ?`

// releaseWhereSQL frees the seats of a show that an owner locks and that
// meet the condition appended to it. Arguments: show id, owner, then the
// condition's.
const releaseWhereSQL = `UPDATE seats INDEXED BY seats_hold
	SET status = 'available', hold_id = NULL, hold_owner = NULL, locked_at = NULL
	WHERE show_id = ? AND hold_owner = ? AND status = 'locked' AND `

// insertHoldSQL records a hold whose seats are locked, with the sum of
// their prices and the show's currency. It inserts nothing unless the owner
// locks exactly the hold's n seats in the show (counting seats that carry a
// hold id, as every lock writes one): more are a previous hold's,
// which HoldSeats then replaces first. So without a previous hold, the
// common case, a hold is two statements, and one range of seats_hold (the
// owner's seats, with their prices) both sums and checks. INDEXED BY:
// without it the planner walks the show's whole primary key range. It
// returns nothing: RETURNING measured 15 µs more per hold, all of it inside
// the write lock. Arguments: hold id, owner, seat ids, show id, now, n,
// address.
const insertHoldSQL = `INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state, address)
	SELECT ?1, shows.id, ?2, ?3, locked.amount, shows.currency, ?5, 'active', ?7
	FROM shows, (SELECT coalesce(sum(price), 0) AS amount, count(*) AS seats FROM seats INDEXED BY seats_hold
		WHERE show_id = ?4 AND hold_owner = ?2 AND status = 'locked' AND hold_id IS NOT NULL) AS locked
	WHERE shows.id = ?4 AND locked.seats = ?6`

// heldFromSQL counts the seats of show ?1 locked by live holds from
// address ?2, the seat rule's cutoff being ?3, and the oldest of their
// locks: holds_address narrows to the address's holds made after the
// cutoff, seats_hold to their locked seats.
const heldFromSQL = `SELECT count(*), min(seats.locked_at) FROM holds INDEXED BY holds_address
	JOIN seats ON seats.show_id = holds.show_id AND seats.hold_owner = holds.owner AND seats.hold_id = holds.id
	WHERE holds.show_id = ?1 AND holds.address = ?2 AND holds.created_at > ?3 AND holds.state = 'active' AND holds.address <> ''
	AND seats.status = 'locked' AND seats.locked_at > ?3`

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
	st.lock = prep(write, lockSQL)
	st.lockPrev = prep(write, lockPrevSQL)
	st.prevHolds = prep(write, prevHoldsSQL)
	st.releasePrev = prep(write, releasePrevSQL)
	st.releaseHold = prep(write, releaseSQL)
	st.replaceHold = prep(write, replaceHoldSQL)
	st.insertHold = prep(write, insertHoldSQL)
	st.heldFrom = prep(write, heldFromSQL)
	st.gapRows = prep(write, gapSQL)
	st.showSale = prep(write, `SELECT starts_at, cancelled_at FROM shows WHERE id = ?`)
	st.insertShow = prep(write, `INSERT INTO shows (`+showColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	st.insertSeat = prep(write, `INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, category, price, kind)
		VALUES (?,?,?,?,?,?,?,?,?)`)
	st.show = prep(read, `SELECT `+showColumns+` FROM shows WHERE id = ?`)
	st.seats = prep(read, seatsSQL)
	st.seatStates = prep(read, `SELECT seat_id, status, coalesce(hold_id, ''), coalesce(locked_at, 0), coalesce(booking_id, '')
		FROM seats WHERE show_id = ? AND status <> 'available' ORDER BY seat_id`)
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
