package sqlite

import (
	"context"
	"database/sql"

	"boxoffice/internal/booking"
)

const holdColumns = `id, show_id, owner, seat_ids, amount, currency, created_at, state, address, extensions, counter`

func scanHold(r scanner) (booking.Hold, error) {
	var (
		h         booking.Hold
		seatIDs   string
		createdAt sql.NullInt64
	)
	err := r.Scan(&h.ID, &h.ShowID, &h.Owner, &seatIDs, &h.Amount, &h.Currency, &createdAt, &h.State, &h.Address, &h.Extensions, &h.Counter)
	h.SeatIDs, h.CreatedAt = splitIDs(seatIDs), fromNanos(createdAt)
	return h, err
}

// rowQuerier is what *sql.DB and *sql.Tx share for reading one row.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func getHold(ctx context.Context, q rowQuerier, holdID string) (booking.Hold, error) {
	h, err := scanHold(q.QueryRowContext(ctx, `SELECT `+holdColumns+` FROM holds WHERE id = ?`, holdID))
	return h, notFound(err, booking.ErrHoldNotFound)
}

// execCount runs stmt and returns how many rows it changed.
func execCount(ctx context.Context, stmt *sql.Stmt, args ...any) (int, error) {
	res, err := stmt.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// Hold returns a hold by id.
func (s *Store) Hold(ctx context.Context, holdID string) (booking.Hold, error) {
	h, err := getHold(ctx, s.read, holdID)
	return h, wrapErr("hold", err)
}

// ActiveHold returns owner's active hold for a show, found by a seat it
// locks: an unexpired active hold locks all its seats. One that has expired
// is found while it still locks a seat nobody has taken since.
func (s *Store) ActiveHold(ctx context.Context, showID, owner string) (booking.Hold, error) {
	h, err := activeHold(ctx, s.read, showID, owner)
	return h, wrapErr("active hold", err)
}

// activeHold is ActiveHold on q, the read pool or a transaction.
func activeHold(ctx context.Context, q rowQuerier, showID, owner string) (booking.Hold, error) {
	h, err := scanHold(q.QueryRowContext(ctx, activeHoldSQL, showID, owner))
	return h, notFound(err, booking.ErrHoldNotFound)
}

// activeHoldSQL finds the latest of an owner's active holds of a show that
// still locks one of the seats it was made with, found by their primary
// keys (holdSeatIDs). Arguments: show id, owner.
var activeHoldSQL = `SELECT ` + holdColumns + ` FROM holds INDEXED BY holds_active_owner
	WHERE show_id = ? AND owner = ? AND state = 'active'
	AND EXISTS (SELECT 1 FROM seats WHERE seats.show_id = holds.show_id
		AND seats.seat_id IN (SELECT value FROM json_each(` + holdSeatIDs("holds.seat_ids") + `))
		AND seats.hold_owner = holds.owner AND seats.hold_id = holds.id AND seats.status = 'locked')
	ORDER BY created_at DESC LIMIT 1`
