package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"boxoffice/internal/booking"
)

// seatFree is the seat rule of SPEC §1 (booking.SeatIsAvailable) as SQL, the
// one rule this adapter writes itself. Its one parameter is the cutoff, which
// must be cutoff(m): a lock taken at or before it no longer protects its
// seat. Every query that decides availability uses this constant. Its
// columns are unqualified: only seats has status and locked_at. The
// parameter is positional because the driver resolves each named one
// by a lookup on every run, which the hold pays (BenchmarkStore's hold,
// docs/PERFORMANCE.md).
const seatFree = `(status = 'available' OR (status = 'locked' AND locked_at <= ?))`

// seatOnline is "available online" of SPEC §1
// (booking.SeatIsAvailableOnline) as SQL: seatFree, and no reserve. Its
// one parameter is seatFree's.
const seatOnline = `(reserve = '' AND ` + seatFree + `)`

// cutoff is the value seatFree binds for m: Moment.LapsedBefore in unix
// nanoseconds, the unit of locked_at, so SQL and Go compare the same numbers.
func cutoff(m booking.Moment) int64 { return m.LapsedBefore().UnixNano() }

// seatColumns are read by scanSeat, in this order. NULLs are turned into
// zero values in SQL so that every column scans into a plain string or
// int64, which database/sql converts without reflection: a seat map is 500
// rows, and each column of each row costs the driver three calls, each
// taking the connection's mutex. The show id is not read back: the caller
// knows it.
const seatColumns = `seat_id, row_label, number, grid_row, grid_col, category, price, kind,
	status, coalesce(hold_id, ''), coalesce(locked_at, 0), coalesce(booking_id, ''), reserve`

// stateColumns are the columns of a seat that change after CreateShow, in
// the order seatStates and tx.SeatsOf scan them; a layout has the others.
const stateColumns = `seat_id, status, coalesce(hold_id, ''), coalesce(locked_at, 0), coalesce(booking_id, ''), reserve`

// mapOrderSQL is the map order booking.Store.Seats promises: by grid place,
// and seats in one place (which CreateShow does not forbid) by seat_id, in
// the BINARY collation's byte order, as the MongoDB adapter sorts them, so
// that every read and both stores agree.
//
// The queries read the show's primary key range, in seat_id order, and sort
// it in a temporary b-tree. An index on (show_id, grid_row, grid_col,
// seat_id) would spare the sort but costs a primary key seek per seat, so
// reading the key range and sorting it is the faster way to read a whole
// map and AvailableSeatIDs (BenchmarkMapOrder; its figures are in
// docs/PERFORMANCE.md).
//
// seats_by_place (0017) is such an index, for the gap check; these reads
// name the primary key (sqlite_autoindex_seats_1, as SQLite calls the key
// of a WITHOUT ROWID table) so that the planner keeps to it.
const mapOrderSQL = `grid_row, grid_col, seat_id`

// byKey makes a read of seats use the primary key (see mapOrderSQL).
const byKey = `seats INDEXED BY sqlite_autoindex_seats_1`

// seatsSQL reads all of a show's seats in map order (statements.seats).
const seatsSQL = `SELECT ` + seatColumns + ` FROM ` + byKey + ` WHERE show_id = ? ORDER BY ` + mapOrderSQL

// availableSQL lists the seats of a show available online, in map order.
// Arguments: show id, cutoff.
const availableSQL = `SELECT seat_id FROM ` + byKey + ` WHERE show_id = ? AND ` + seatOnline + ` ORDER BY ` + mapOrderSQL

type scanner interface{ Scan(dest ...any) error }

func scanSeat(r scanner, showID string) (booking.Seat, error) {
	var (
		s                        booking.Seat
		number, gridRow, gridCol int64
		price, lockedAt          int64
		kind, status, reserve    string
	)
	s.ShowID = showID
	err := r.Scan(&s.ID, &s.Row, &number, &gridRow, &gridCol, &s.Category, &price, &kind,
		&status, &s.HoldID, &lockedAt, &s.BookingID, &reserve)
	s.Number, s.GridRow, s.GridCol = int(number), int(gridRow), int(gridCol)
	s.Price, s.Kind, s.Status = booking.Money(price), booking.SeatKind(kind), booking.SeatStatus(status)
	s.Reserve = booking.SeatReserve(reserve)
	if lockedAt != 0 {
		s.LockedAt = time.Unix(0, lockedAt).UTC()
	}
	return s, err
}

// querier is what *sql.DB, *sql.Tx and *sql.Stmt share for reading rows.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func collectSeats(showID string, rows *sql.Rows) ([]booking.Seat, error) {
	defer rows.Close()
	var seats []booking.Seat
	for rows.Next() {
		s, err := scanSeat(rows, showID)
		if err != nil {
			return nil, err
		}
		seats = append(seats, s)
	}
	return seats, rows.Err()
}

// seatsByID reads the given seats of a show, those that exist, in any order.
func seatsByID(ctx context.Context, q querier, showID string, ids []string) ([]booking.Seat, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, 0, len(ids)+1)
	args = append(args, showID)
	for _, id := range ids {
		args = append(args, id)
	}
	rows, err := q.QueryContext(ctx,
		`SELECT `+seatColumns+` FROM seats WHERE show_id = ? AND seat_id IN (`+placeholders(len(ids))+`)`, args...)
	if err != nil {
		return nil, err
	}
	return collectSeats(showID, rows)
}

// Seats returns a show's seats in map order, as stored. A show's layout
// never changes after CreateShow, so it is cached per show (bounded), and
// once cached only the five columns that change are read, which makes a
// map's read cheaper (BenchmarkStore's seatmap, docs/PERFORMANCE.md). State
// is always read from the database; the cache holds no seat state and
// takes no lock on seats.
func (s *Store) Seats(ctx context.Context, showID string) ([]booking.Seat, error) {
	seats, err := s.seats(ctx, nil, showID)
	if err != nil {
		return nil, wrapErr("seats", err)
	}
	return seats, nil
}

// stmt is st as the read tx runs it, or st itself on the read pool when
// tx is nil.
func stmt(ctx context.Context, tx *sql.Tx, st *sql.Stmt) *sql.Stmt {
	if tx == nil {
		return st
	}
	return tx.StmtContext(ctx, st)
}

// seats is Seats, in read transaction tx (nil: on the read pool).
func (s *Store) seats(ctx context.Context, tx *sql.Tx, showID string) ([]booking.Seat, error) {
	if l := s.layouts.get(showID); l != nil {
		seats, ok, err := s.seatStates(ctx, tx, showID, l)
		if err != nil {
			return nil, err
		}
		if ok {
			return seats, nil
		}
		// Not the seats that were cached: forget them and read everything.
		s.layouts.remove(showID)
	}
	rows, err := stmt(ctx, tx, s.stmts.seats).QueryContext(ctx, showID)
	if err != nil {
		return nil, err
	}
	seats, err := collectSeats(showID, rows)
	if err != nil {
		return nil, err
	}
	if len(seats) == 0 {
		var q rowQuerier = s.read
		if tx != nil {
			q = tx
		}
		var one int
		if err := q.QueryRowContext(ctx, `SELECT 1 FROM shows WHERE id = ?`, showID).Scan(&one); err != nil {
			return nil, notFound(err, booking.ErrShowNotFound)
		}
		return []booking.Seat{}, nil
	}
	s.layouts.put(showID, newLayout(seats))
	return seats, nil
}

// seatStates reads the state of a show's seats that are not available
// or have a reserve, and returns all of them laid out as l, a fresh copy: the others are as l
// has them, available. Only those rows cross from SQLite to Go, so a show
// early in its sale costs a fraction of a full read (lapsed locks still
// count: they stay locked in storage). ok is false when a seat found is
// not l's.
func (s *Store) seatStates(ctx context.Context, tx *sql.Tx, showID string, l *layout) (_ []booking.Seat, ok bool, _ error) {
	rows, err := stmt(ctx, tx, s.stmts.seatStates).QueryContext(ctx, showID)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	seats := slices.Clone(l.seats)
	k := 0
	var (
		id                              sql.RawBytes
		status, holdID, bookID, reserve string
		lockedAt                        int64
	)
	for rows.Next() {
		if err := rows.Scan(&id, &status, &holdID, &lockedAt, &bookID, &reserve); err != nil {
			return nil, false, err
		}
		// Both in seat_id order, compared as SQLite's BINARY collation does.
		for k < len(l.byID) && seats[l.byID[k]].ID < string(id) {
			k++
		}
		if k == len(l.byID) || string(id) != seats[l.byID[k]].ID {
			return nil, false, nil
		}
		setState(&seats[l.byID[k]], status, holdID, bookID, reserve, lockedAt)
		k++
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	return seats, true, nil
}

// AvailableSeatIDs lists in map order the seats of a show available online
// at m by the SQL rule (seatOnline).
func (s *Store) AvailableSeatIDs(ctx context.Context, showID string, m booking.Moment) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, availableSQL, showID, cutoff(m))
	if err != nil {
		return nil, fmt.Errorf("sqlite: available seats: %w", err)
	}
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlite: available seats: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: available seats: %w", err)
	}
	if len(ids) == 0 {
		if err := s.showExists(ctx, showID); err != nil {
			return nil, wrapErr("available seats", err)
		}
	}
	return ids, nil
}

// Occupancy counts a show's seats at m in one aggregate query, as
// booking.CountOccupancy does: Reserved is not booked with a reserve,
// Available is available online, Held is the rest that is not booked.
func (s *Store) Occupancy(ctx context.Context, showID string, m booking.Moment) (booking.Occupancy, error) {
	var o booking.Occupancy
	err := s.read.QueryRowContext(ctx, `SELECT
			count(*),
			coalesce(sum(status = 'booked'), 0),
			coalesce(sum(CASE WHEN status = 'booked' OR reserve <> '' OR `+seatFree+` THEN 0 ELSE 1 END), 0),
			coalesce(sum(`+seatOnline+`), 0),
			coalesce(sum(status <> 'booked' AND reserve <> ''), 0)
		FROM seats WHERE show_id = ?`,
		cutoff(m), cutoff(m), showID).Scan(&o.Total, &o.Booked, &o.Held, &o.Available, &o.Reserved)
	if err != nil {
		return booking.Occupancy{}, fmt.Errorf("sqlite: occupancy: %w", err)
	}
	if o.Total == 0 {
		if err := s.showExists(ctx, showID); err != nil {
			return booking.Occupancy{}, wrapErr("occupancy", err)
		}
	}
	return o, nil
}

// setState gives seat the state read from stateColumns (lockedAt 0: not
// locked).
func setState(seat *booking.Seat, status, holdID, bookID, reserve string, lockedAt int64) {
	seat.Status, seat.HoldID, seat.BookingID = booking.SeatStatus(status), holdID, bookID
	seat.Reserve = booking.SeatReserve(reserve)
	if lockedAt != 0 {
		seat.LockedAt = time.Unix(0, lockedAt).UTC()
	}
}
