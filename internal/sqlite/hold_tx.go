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
	err := t.stmt(t.s.stmts.showSale).QueryRowContext(t.ctx, showID).Scan(&startsAt, &cancelledAt, &show.Currency, &salesOpenAt)
	if err != nil {
		return booking.Show{}, notFound(err, booking.ErrShowNotFound)
	}
	show.StartsAt, show.CancelledAt, show.SalesOpenAt = fromNanos(startsAt), fromNanos(cancelledAt), fromNanos(salesOpenAt)
	return show, nil
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
	read := t.s.stmts.holdSeats
	if wholeRows {
		read = t.s.stmts.holdRows
	}
	rows, err := t.stmt(read).QueryContext(t.ctx, showID, idsJSON(ids))
	if err != nil {
		return nil, err
	}
	return collectSeats(showID, rows)
}

func (t *tx) LiveSeatsFrom(showID, address string, lapsedBefore time.Time) (int, time.Time, error) {
	var held int
	var oldest sql.NullInt64
	err := t.stmt(t.s.stmts.heldFrom).QueryRowContext(t.ctx, showID, address, nanos(lapsedBefore)).Scan(&held, &oldest)
	return held, fromNanos(oldest), err
}

func (t *tx) LockSeats(showID string, ids []string, holdID, owner string, at time.Time) (int, error) {
	return execCount(t.ctx, t.stmt(t.s.stmts.lock), holdID, owner, nanos(at), showID, idsJSON(ids))
}

func (t *tx) RelockSeats(h booking.Hold, at time.Time) (int, error) {
	return execCount(t.ctx, t.stmt(t.s.stmts.relock), nanos(at), h.ShowID, h.Owner, h.ID)
}

func (t *tx) FreeSeats(h booking.Hold) error {
	_, err := t.stmt(t.s.stmts.releaseHold).ExecContext(t.ctx, h.ShowID, h.Owner, h.ID)
	return err
}

func (t *tx) InsertHold(h booking.Hold) error {
	_, err := t.stmt(t.s.stmts.insertHold).ExecContext(t.ctx,
		h.ID, h.ShowID, h.Owner, joinIDs(h.SeatIDs), h.Amount, h.Currency, nanos(h.CreatedAt), h.State, h.Address, h.Extensions)
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
