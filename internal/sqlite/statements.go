package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
)

// statements are the prepared statements of the hot paths. Those on the
// write pool are prepared on its one connection and reused by every
// transaction through Tx.StmtContext.
type statements struct {
	all []*sql.Stmt

	// savepoint, release and rollbackTo frame each step of a batch of
	// Atomically (group).
	savepoint, release, rollbackTo *sql.Stmt

	lock      *sql.Stmt
	holdSeats *sql.Stmt // the seats a hold asks for
	holdRows  *sql.Stmt // and the rest of their rows, for the gap rule
	// lockN, holdSeatsN and holdRowsN are lock, holdSeats and holdRows
	// for lists of 1 to listedMax seats, by length (index n-1), each with
	// a parameter a seat: json_each's parse and virtual table cost more
	// than the statement (listedSQL).
	lockN, holdSeatsN, holdRowsN []*sql.Stmt
	// holdStatesN and holdRowStatesN are holdSeatsN and holdRowsN
	// reading only the columns that change (stateColumns), for a show
	// whose layout is cached (tx.SeatsOf).
	holdStatesN, holdRowStatesN []*sql.Stmt
	// releaseN is releaseHold for a hold of 1 to listedMax seats, found
	// by their primary keys (releaseSeatsSQL).
	releaseN    []*sql.Stmt
	activeHolds *sql.Stmt // an owner's active holds of a show
	holdStart   *sql.Stmt // what a hold step starts from (tx.HoldStart)
	// holdReadN and holdRowsReadN are holdStart with the changing columns
	// of a hold's 1 to listedMax seats, and with the rest of their rows,
	// by length (tx.HoldRead).
	holdReadN, holdRowsReadN []*sql.Stmt
	// pendingPayments are a hold's payments still pending.
	pendingPayments *sql.Stmt
	releaseHold     *sql.Stmt // seats still locked by a hold back to available, its seat ids as a JSON array
	relock          *sql.Stmt // a hold's seats locked again (More time)
	insertHold      *sql.Stmt
	setHoldState    *sql.Stmt
	heldFrom        *sql.Stmt // seats of a show locked live by holds from one address (HOLD_SEATS_PER_ADDRESS)
	showSale        *sql.Stmt // what booking.Show.CheckOnSale needs of a show
	insertShow      *sql.Stmt
	insertSeat      *sql.Stmt
	show            *sql.Stmt // read pool: a show by id, read by every seat map and checkout
	seats           *sql.Stmt // read pool: a show's seat map
	seatStates      *sql.Stmt // read pool: the changing columns of a show's seats that are not available or have a reserve, by seat id
	seatPricing     *sql.Stmt // read pool: some seats of a show by primary key, in map order (Store.SeatPricing)
	findSession     *sql.Stmt // read pool: every request with a session cookie
}

// lockSQL locks a hold's seats, which HoldSeats has just read and
// booking.DecideHold found holdable inside the same transaction. Arguments:
// hold id, owner, now, show id, the seat ids as a JSON array, so that one
// prepared statement serves any number of seats.
const lockSQL = `UPDATE seats SET status = 'locked', hold_id = ?, hold_owner = ?, locked_at = ?
	WHERE show_id = ? AND seat_id IN (SELECT value FROM json_each(?))`

// listedMax is the longest list of seats with statements of its own
// length (statements.lockN); longer lists take the JSON array. MAX_SEATS
// is 10 by default.
const listedMax = 16

// listedSQL is q, a statement whose last parameter is the seat ids as a
// JSON array (SELECT value FROM json_each(?), (?2) or (?3)), for n ids as
// n parameters (?, numbered after the ones before).
func listedSQL(q string, n int) string {
	list := strings.Repeat("?,", n-1) + "?"
	q = strings.Replace(q, "SELECT value FROM json_each(?3)", list, 1)
	q = strings.Replace(q, "SELECT value FROM json_each(?2)", list, 1)
	return strings.Replace(q, "SELECT value FROM json_each(?)", list, 1)
}

// listed is the statement for ids, of their length when there is one,
// else json, the statement that takes them as a JSON array; and its
// arguments: before, then the ids.
func listed(json *sql.Stmt, byLen []*sql.Stmt, ids []string, before ...any) (*sql.Stmt, []any) {
	if n := len(ids); n >= 1 && n <= len(byLen) {
		args := make([]any, 0, len(before)+n)
		args = append(args, before...)
		for _, id := range ids {
			args = append(args, id)
		}
		return byLen[n-1], args
	}
	return json, append(before, idsJSON(ids))
}

// statesOnly is q, a read of seatColumns, reading stateColumns instead.
func statesOnly(q string) string { return strings.Replace(q, seatColumns, stateColumns, 1) }

// holdSeatsSQL reads the seats a hold asks for. Arguments: show id, the
// seat ids as a JSON array.
const holdSeatsSQL = `SELECT ` + seatColumns + ` FROM seats
	WHERE show_id = ?1 AND seat_id IN (SELECT value FROM json_each(?2))`

// holdRowsSQL reads the seats of every row a hold touches, for the gap
// rule, through seats_by_place (the rows, not the show's every seat).
// Arguments: show id, the seat ids as a JSON array.
const holdRowsSQL = `SELECT ` + seatColumns + ` FROM seats INDEXED BY seats_by_place
	WHERE show_id = ?1 AND grid_row IN (
	SELECT grid_row FROM seats WHERE show_id = ?1 AND seat_id IN (SELECT value FROM json_each(?2)))`

// activeHoldsSQL finds an owner's holds of a show still active, whatever
// their seats are now: booking.PreviousHoldIn takes the latest. Arguments:
// show id, owner.
const activeHoldsSQL = `SELECT ` + holdColumns + ` FROM holds INDEXED BY holds_active_owner
	WHERE show_id = ? AND owner = ? AND state = 'active'`

// holdStartSQL reads what a hold step starts from in one statement
// (booking.HoldStartReader): the show's sale facts, as showSale, joined to
// the owner's active holds of the show, as activeHoldsSQL, each with
// whether one of its payments is pending with its checkout not closed.
// No row: no such show; one row whose hold id is NULL: no active hold.
// Arguments: show id, owner.
const holdStartSQL = `SELECT s.starts_at, s.cancelled_at, s.currency, s.sales_open_at, s.theatre_tz, s.online_cutoff,
	h.id, coalesce(h.show_id, ''), coalesce(h.owner, ''), coalesce(h.seat_ids, ''), coalesce(h.amount, 0),
	coalesce(h.currency, ''), h.created_at, coalesce(h.state, ''), coalesce(h.address, ''), coalesce(h.extensions, 0),
	h.id IS NOT NULL AND EXISTS (SELECT 1 FROM payments INDEXED BY payments_hold
		WHERE payments.hold_id = h.id AND payments.state = 'pending' AND payments.checkout_closed_at IS NULL)
	FROM shows AS s LEFT JOIN holds AS h INDEXED BY holds_active_owner
		ON h.show_id = s.id AND h.owner = ?2 AND h.state = 'active'
	WHERE s.id = ?1`

// holdReadSQL is holdStartSQL and holdSeatsSQL's stateColumns in one
// statement (booking.HoldReader), the first of seats a row kind 0: the
// show's sale facts with one of the owner's active holds, or no hold (its
// id NULL), as holdStartSQL's rows, reading of a hold only what a hold
// step uses of it; then a row kind 1 a seat, its stateColumns in the slots
// named after them. Arguments: show id, owner, the seat ids as a JSON
// array (listedSQL makes one per length).
//
//	kind | starts_at   cancelled_at sales_open_at online_cutoff currency theatre_tz h.id    h.seat_ids h.created_at paying reserve
//	0    | …show…                                                       hold or NULL …
//	1    | locked_at   NULL         NULL          0             status   hold_id    seat_id booking_id NULL         0      reserve
const holdReadSQL = holdReadHead + `FROM seats WHERE show_id = ?1 AND seat_id IN (SELECT value FROM json_each(?3))`

// holdRowsReadSQL is holdReadSQL reading the seats' whole rows, as
// holdRowsSQL does.
const holdRowsReadSQL = holdReadHead + `FROM seats INDEXED BY seats_by_place WHERE show_id = ?1 AND grid_row IN (
	SELECT grid_row FROM seats WHERE show_id = ?1 AND seat_id IN (SELECT value FROM json_each(?3)))`

// holdReadHead is holdReadSQL up to its seats' FROM.
const holdReadHead = `SELECT 0, s.starts_at, s.cancelled_at, s.sales_open_at, s.online_cutoff, s.currency, s.theatre_tz,
	h.id, coalesce(h.seat_ids, ''), h.created_at,
	h.id IS NOT NULL AND EXISTS (SELECT 1 FROM payments INDEXED BY payments_hold
		WHERE payments.hold_id = h.id AND payments.state = 'pending' AND payments.checkout_closed_at IS NULL),
	''
	FROM shows AS s LEFT JOIN holds AS h INDEXED BY holds_active_owner
		ON h.show_id = s.id AND h.owner = ?2 AND h.state = 'active'
	WHERE s.id = ?1
	UNION ALL
	SELECT 1, coalesce(locked_at, 0), NULL, NULL, 0, status, coalesce(hold_id, ''),
	seat_id, coalesce(booking_id, ''), NULL, 0, reserve
	`

// releaseSeatsSQL frees the seats a hold still locks, found by their
// primary keys among the seats it was made with (a hold locks no other
// seats); it never touches a seat that another hold has locked since or
// that was booked. No index of the seats' hold is kept: each lock and
// release of a seat would write it (0028_no_seats_hold.sql). Arguments:
// show id, owner, hold id, then the seat ids (listedSQL).
const releaseSeatsSQL = `UPDATE ` + byKey + `
	SET status = 'available', hold_id = NULL, hold_owner = NULL, locked_at = NULL
	WHERE show_id = ? AND hold_owner = ? AND status = 'locked' AND hold_id = ? AND seat_id IN (SELECT value FROM json_each(?))`

// holdSeatIDs is the JSON array of the seat ids a hold was made with,
// from its seat_ids column (holds.seat_ids, or the column named): they are
// joined with commas (joinIDs), and a seat id is letters and digits
// (booking.ValidSeatID), so quoting each makes the array. The statements
// that find a hold's seats read them through json_each of it, by the
// seats' primary key.
func holdSeatIDs(col string) string {
	return `'["' || replace(` + col + `, ',', '","') || '"]'`
}

// insertHoldSQL records a hold whose seats are locked. Arguments: hold
// id, show id, owner, seat ids, amount, currency, created at, state,
// address, extensions, counter.
const insertHoldSQL = `INSERT INTO holds (id, show_id, owner, seat_ids, amount, currency, created_at, state, address, extensions, counter)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// relockSQL takes the locks of a hold's seats again (More time), found
// by their primary keys among the seats it was made with. Arguments: the
// new locked_at, show id, owner, hold id, the seat ids as a JSON array.
const relockSQL = `UPDATE ` + byKey + ` SET locked_at = ?
	WHERE show_id = ? AND hold_owner = ? AND hold_id = ? AND status = 'locked' AND seat_id IN (SELECT value FROM json_each(?))`

// heldFromSQL counts the seats of show ?1 locked by live holds from
// address ?2, the seat rule's cutoff being ?3, and the oldest of their
// locks: holds_address narrows to the address's holds made after the
// cutoff, and their seats are found by primary key among those each was
// made with (holdSeatIDs).
var heldFromSQL = `SELECT count(*), min(seats.locked_at) FROM holds INDEXED BY holds_address
	JOIN seats ON seats.show_id = holds.show_id
		AND seats.seat_id IN (SELECT value FROM json_each(` + holdSeatIDs("holds.seat_ids") + `))
		AND seats.hold_owner = holds.owner AND seats.hold_id = holds.id
	WHERE holds.show_id = ?1 AND holds.address = ?2 AND holds.created_at > ?3 AND holds.state = 'active' AND holds.address <> ''
	AND seats.status = 'locked' AND seats.locked_at > ?3`

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
	st.savepoint = prep(write, `SAVEPOINT step`)
	st.release = prep(write, `RELEASE step`)
	st.rollbackTo = prep(write, `ROLLBACK TO step`)
	st.lock = prep(write, lockSQL)
	st.holdSeats = prep(write, holdSeatsSQL)
	st.holdRows = prep(write, holdRowsSQL)
	for n := 1; n <= listedMax; n++ {
		st.lockN = append(st.lockN, prep(write, listedSQL(lockSQL, n)))
		st.holdSeatsN = append(st.holdSeatsN, prep(write, listedSQL(holdSeatsSQL, n)))
		st.holdRowsN = append(st.holdRowsN, prep(write, listedSQL(holdRowsSQL, n)))
		st.releaseN = append(st.releaseN, prep(write, listedSQL(releaseSeatsSQL, n)))
		st.holdStatesN = append(st.holdStatesN, prep(write, listedSQL(statesOnly(holdSeatsSQL), n)))
		st.holdRowStatesN = append(st.holdRowStatesN, prep(write, listedSQL(statesOnly(holdRowsSQL), n)))
		st.holdReadN = append(st.holdReadN, prep(write, listedSQL(holdReadSQL, n)))
		st.holdRowsReadN = append(st.holdRowsReadN, prep(write, listedSQL(holdRowsReadSQL, n)))
	}
	st.activeHolds = prep(write, activeHoldsSQL)
	st.holdStart = prep(write, holdStartSQL)
	st.pendingPayments = prep(write, `SELECT `+paymentColumns+` FROM payments INDEXED BY payments_hold
		WHERE hold_id = ? AND state = 'pending'`)
	st.releaseHold = prep(write, releaseSeatsSQL)
	st.relock = prep(write, relockSQL)
	st.insertHold = prep(write, insertHoldSQL)
	st.setHoldState = prep(write, `UPDATE holds SET state = ? WHERE id = ?`)
	st.heldFrom = prep(write, heldFromSQL)
	st.showSale = prep(write, `SELECT starts_at, cancelled_at, currency, sales_open_at, theatre_tz, online_cutoff FROM shows WHERE id = ?`)
	st.insertShow = prep(write, `INSERT INTO shows (`+showColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	st.insertSeat = prep(write, `INSERT INTO seats (show_id, seat_id, row_label, number, grid_row, grid_col, category, price, kind)
		VALUES (?,?,?,?,?,?,?,?,?)`)
	st.show = prep(read, `SELECT `+showColumns+` FROM shows WHERE id = ?`)
	st.seats = prep(read, seatsSQL)
	st.seatStates = prep(read, `SELECT `+stateColumns+`
		FROM seats WHERE show_id = ? AND (status <> 'available' OR reserve <> '') ORDER BY seat_id`)
	st.seatPricing = prep(read, `SELECT `+pricingColumns+` FROM seats
		WHERE show_id = ?1 AND seat_id IN (SELECT value FROM json_each(?2)) ORDER BY `+mapOrderSQL)
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
