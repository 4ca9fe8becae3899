package sqlite

import (
	"database/sql"
	"time"

	"boxoffice/internal/booking"
)

// The hold lifecycle's reads and writes (booking.HoldTx).

func (t *tx) SaleFacts(showID string) (booking.Show, error) {
	var startsAt, cancelledAt, salesOpenAt sql.NullInt64
	show := booking.Show{ID: showID}
	err := t.stmt(t.s.stmts.showSale).QueryRowContext(t.ctx, showID).Scan(&startsAt, &cancelledAt, &show.Currency, &salesOpenAt, &show.Theatre.TimeZone, &show.OnlineCutoff)
	if err != nil {
		return booking.Show{}, notFound(err, booking.ErrShowNotFound)
	}
	show.StartsAt, show.CancelledAt, show.SalesOpenAt = fromNanos(startsAt), fromNanos(cancelledAt), fromNanos(salesOpenAt)
	return show, nil
}

var _ booking.HoldStartReader = (*tx)(nil)

// HoldStart is SaleFacts, ActiveHolds and PendingPayments of the holds in
// one statement, holdStartSQL, which costs about a statement rather than
// three (BenchmarkHoldRoute/held-allow, docs/PERFORMANCE.md).
func (t *tx) HoldStart(showID, owner string) (booking.Show, []booking.Hold, []bool, error) {
	rows, err := t.stmt(t.s.stmts.holdStart).QueryContext(t.ctx, showID, owner)
	if err != nil {
		return booking.Show{}, nil, nil, err
	}
	defer rows.Close()
	show := booking.Show{ID: showID}
	found := false
	var (
		holds  []booking.Hold
		paying []bool
	)
	for rows.Next() {
		var (
			startsAt, cancelledAt, createdAt sql.NullInt64
			salesOpenAt                      sql.NullInt64
			id                               sql.NullString
			h                                booking.Hold
			seatIDs                          string
			p                                bool
		)
		if err := rows.Scan(&startsAt, &cancelledAt, &show.Currency, &salesOpenAt, &show.Theatre.TimeZone, &show.OnlineCutoff,
			&id, &h.ShowID, &h.Owner, &seatIDs, &h.Amount, &h.Currency, &createdAt, &h.State, &h.Address, &h.Extensions, &p); err != nil {
			return booking.Show{}, nil, nil, err
		}
		found = true
		show.StartsAt, show.CancelledAt, show.SalesOpenAt = fromNanos(startsAt), fromNanos(cancelledAt), fromNanos(salesOpenAt)
		if id.Valid {
			h.ID, h.SeatIDs, h.CreatedAt = id.String, splitIDs(seatIDs), fromNanos(createdAt)
			holds, paying = append(holds, h), append(paying, p)
		}
	}
	if err := rows.Err(); err != nil {
		return booking.Show{}, nil, nil, err
	}
	if !found {
		return booking.Show{}, nil, nil, booking.ErrShowNotFound
	}
	return show, holds, paying, nil
}

var _ booking.HoldReader = (*tx)(nil)

// HoldRead is HoldStart and SeatsOf in one statement, holdReadSQL, for a
// show whose layout is cached and 1 to listedMax ids; else, or when a seat
// read is not the layout's, it is the two (BenchmarkReplacingHold,
// docs/PERFORMANCE.md).
func (t *tx) HoldRead(showID, owner string, ids []string, wholeRows bool) (booking.Show, []booking.Hold, []bool, []booking.Seat, error) {
	l := t.s.layouts.get(showID)
	if l == nil || len(ids) < 1 || len(ids) > listedMax {
		return t.holdReadApart(showID, owner, ids, wholeRows)
	}
	read := t.s.stmts.holdReadN
	if wholeRows {
		read = t.s.stmts.holdRowsReadN
	}
	stmt, args := listed(nil, read, ids, showID, owner)
	rows, err := t.stmt(stmt).QueryContext(t.ctx, args...)
	if err != nil {
		return booking.Show{}, nil, nil, nil, err
	}
	defer rows.Close()
	show := booking.Show{ID: showID}
	var (
		found   bool
		outside bool // a seat that is not the layout's
		holds   []booking.Hold
		paying  []bool
		seats   = make([]booking.Seat, 0, len(ids))
	)
	// One row's columns, in holdReadSQL's slots: one struct, so that Scan's
	// pointers cost one allocation, not one a column.
	var c struct {
		kind, cutoff int
		n1, n2       sql.NullInt64 // starts_at or locked_at, cancelled_at
		n3, n4       sql.NullInt64 // sales_open_at, created_at
		s1, s2       string        // currency or status, theatre_tz or hold_id
		id           sql.NullString
		s3, s4       string // seat_ids or booking_id, reserve
		paying       bool
	}
	for rows.Next() {
		if err := rows.Scan(&c.kind, &c.n1, &c.n2, &c.n3, &c.cutoff, &c.s1, &c.s2, &c.id, &c.s3, &c.n4, &c.paying, &c.s4); err != nil {
			return booking.Show{}, nil, nil, nil, err
		}
		if c.kind == 1 {
			seat, ok := l.seat(c.id.String)
			if !ok {
				outside = true
				continue
			}
			setState(&seat, c.s1, c.s2, c.s3, c.s4, c.n1.Int64)
			seats = append(seats, seat)
			continue
		}
		found = true
		show.StartsAt, show.CancelledAt, show.SalesOpenAt = fromNanos(c.n1), fromNanos(c.n2), fromNanos(c.n3)
		show.OnlineCutoff, show.Currency, show.Theatre.TimeZone = c.cutoff, c.s1, c.s2
		if c.id.Valid {
			holds = append(holds, booking.Hold{ID: c.id.String, ShowID: showID, Owner: owner,
				SeatIDs: splitIDs(c.s3), CreatedAt: fromNanos(c.n4), State: booking.HoldActive})
			paying = append(paying, c.paying)
		}
	}
	if err := rows.Err(); err != nil {
		return booking.Show{}, nil, nil, nil, err
	}
	if !found {
		return booking.Show{}, nil, nil, nil, booking.ErrShowNotFound
	}
	if outside {
		if seats, err = t.seatsOf(showID, ids, wholeRows); err != nil {
			return booking.Show{}, nil, nil, nil, err
		}
	}
	return show, holds, paying, seats, nil
}

// holdReadApart is HoldRead by HoldStart, then SeatsOf.
func (t *tx) holdReadApart(showID, owner string, ids []string, wholeRows bool) (booking.Show, []booking.Hold, []bool, []booking.Seat, error) {
	show, holds, paying, err := t.HoldStart(showID, owner)
	if err != nil {
		return booking.Show{}, nil, nil, nil, err
	}
	seats, err := t.SeatsOf(showID, ids, wholeRows)
	if err != nil {
		return booking.Show{}, nil, nil, nil, err
	}
	return show, holds, paying, seats, nil
}

func (t *tx) Hold(holdID string) (booking.Hold, error) { return getHold(t.ctx, t.tx, holdID) }

func (t *tx) ActiveHolds(showID, owner string) ([]booking.Hold, error) {
	rows, err := t.stmt(t.s.stmts.activeHolds).QueryContext(t.ctx, showID, owner)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var holds []booking.Hold
	for rows.Next() {
		h, err := scanHold(rows)
		if err != nil {
			return nil, err
		}
		holds = append(holds, h)
	}
	return holds, rows.Err()
}

func (t *tx) PendingPayments(holdID string) ([]booking.Payment, error) {
	rows, err := t.stmt(t.s.stmts.pendingPayments).QueryContext(t.ctx, holdID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var payments []booking.Payment
	for rows.Next() {
		p, err := scanPayment(rows)
		if err != nil {
			return nil, err
		}
		payments = append(payments, p)
	}
	return payments, rows.Err()
}

func (t *tx) SeatsOf(showID string, ids []string, wholeRows bool) ([]booking.Seat, error) {
	if l := t.s.layouts.get(showID); l != nil && len(ids) >= 1 && len(ids) <= listedMax {
		seats, ok, err := t.seatStatesOf(showID, l, ids, wholeRows)
		if err != nil || ok {
			return seats, err
		}
	}
	return t.seatsOf(showID, ids, wholeRows)
}

// seatsOf is SeatsOf reading every column of the seats.
func (t *tx) seatsOf(showID string, ids []string, wholeRows bool) ([]booking.Seat, error) {
	read, args := listed(t.s.stmts.holdSeats, t.s.stmts.holdSeatsN, ids, showID)
	if wholeRows {
		read, args = listed(t.s.stmts.holdRows, t.s.stmts.holdRowsN, ids, showID)
	}
	rows, err := t.stmt(read).QueryContext(t.ctx, args...)
	if err != nil {
		return nil, err
	}
	return collectSeats(showID, rows)
}

// seatStatesOf is SeatsOf for a show laid out as l: only the columns that
// change are read, the rest is l's (a layout never changes, and a show id
// is never used again). ok is false when a seat read is not l's: the
// caller reads everything.
func (t *tx) seatStatesOf(showID string, l *layout, ids []string, wholeRows bool) (_ []booking.Seat, ok bool, _ error) {
	read := t.s.stmts.holdStatesN
	if wholeRows {
		read = t.s.stmts.holdRowStatesN
	}
	// The caller asks for 1 to listedMax ids: read has a statement of
	// their length.
	stmt, args := listed(nil, read, ids, showID)
	rows, err := t.stmt(stmt).QueryContext(t.ctx, args...)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	seats := make([]booking.Seat, 0, len(ids))
	var (
		id                              sql.RawBytes
		status, holdID, bookID, reserve string
		lockedAt                        int64
	)
	for rows.Next() {
		if err := rows.Scan(&id, &status, &holdID, &lockedAt, &bookID, &reserve); err != nil {
			return nil, false, err
		}
		seat, ok := l.seat(string(id))
		if !ok {
			return nil, false, nil
		}
		setState(&seat, status, holdID, bookID, reserve, lockedAt)
		seats = append(seats, seat)
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	return seats, true, nil
}

func (t *tx) LiveSeatsFrom(showID, address string, lapsedBefore time.Time) (int, time.Time, error) {
	var held int
	var oldest sql.NullInt64
	err := t.stmt(t.s.stmts.heldFrom).QueryRowContext(t.ctx, showID, address, nanos(lapsedBefore)).Scan(&held, &oldest)
	return held, fromNanos(oldest), err
}

func (t *tx) LockSeats(showID string, ids []string, holdID, owner string, at time.Time) (int, error) {
	lock, args := listed(t.s.stmts.lock, t.s.stmts.lockN, ids, holdID, owner, nanos(at), showID)
	return execCount(t.ctx, t.stmt(lock), args...)
}

func (t *tx) RelockSeats(h booking.Hold, at time.Time) (int, error) {
	return execCount(t.ctx, t.stmt(t.s.stmts.relock), nanos(at), h.ShowID, h.Owner, h.ID, idsJSON(h.SeatIDs))
}

func (t *tx) FreeSeats(h booking.Hold) error {
	free, args := listed(t.s.stmts.releaseHold, t.s.stmts.releaseN, h.SeatIDs, h.ShowID, h.Owner, h.ID)
	_, err := t.stmt(free).ExecContext(t.ctx, args...)
	return err
}

func (t *tx) InsertHold(h booking.Hold) error {
	_, err := t.stmt(t.s.stmts.insertHold).ExecContext(t.ctx,
		h.ID, h.ShowID, h.Owner, joinIDs(h.SeatIDs), h.Amount, h.Currency, nanos(h.CreatedAt), h.State, h.Address, h.Extensions, h.Counter)
	return err
}

func (t *tx) SetHoldState(holdID string, state booking.HoldState) error {
	_, err := t.stmt(t.s.stmts.setHoldState).ExecContext(t.ctx, state, holdID)
	return err
}

func (t *tx) SetHoldExtended(h booking.Hold) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE holds SET created_at = ?, extensions = ? WHERE id = ?`,
		nanos(h.CreatedAt), h.Extensions, h.ID)
	return err
}

func (t *tx) AllSeats(showID string) ([]booking.Seat, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+seatColumns+` FROM seats WHERE show_id = ?`, showID)
	if err != nil {
		return nil, err
	}
	return collectSeats(showID, rows)
}
