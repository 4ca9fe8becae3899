package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"boxoffice/internal/booking"
)

const holdColumns = `id, show_id, owner, seat_ids, amount, currency, created_at, state, address, extensions`

func scanHold(r scanner) (booking.Hold, error) {
	var (
		h         booking.Hold
		seatIDs   string
		createdAt sql.NullInt64
	)
	err := r.Scan(&h.ID, &h.ShowID, &h.Owner, &seatIDs, &h.Amount, &h.Currency, &createdAt, &h.State, &h.Address, &h.Extensions)
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

// getOwnHold reads a hold for its owner: ErrHoldNotFound, or ErrNotOwner
// for anyone else.
func getOwnHold(ctx context.Context, q rowQuerier, holdID, owner string) (booking.Hold, error) {
	h, err := getHold(ctx, q, holdID)
	if err != nil {
		return booking.Hold{}, err
	}
	return h, h.CheckOwner(owner)
}

// HoldSeats locks h.SeatIDs for h at m.Now, all or nothing, replacing the
// owner's previous hold for the show, in one BEGIN IMMEDIATE transaction
// that reads what it decides on and writes what booking.DecideHold decided:
// the show (its sales window and currency), the owner's previous hold
// (prevHoldSQL: with whether it is being paid for), and
// the requested seats (with the rest of their rows for the gap rule). No
// other process can write between the read and the writes: the transaction
// holds the database's write lock from its start.
func (s *Store) HoldSeats(ctx context.Context, h booking.Hold, m booking.Moment) error {
	if err := booking.CheckHoldRequest(h); err != nil {
		return err
	}
	h.SeatIDs = booking.NormalizeSeatIDs(h.SeatIDs)
	b, err := json.Marshal(h.SeatIDs)
	if err != nil {
		return wrapErr("hold seats", err)
	}
	idsJSON := string(b) // the seat ids as the statements take them
	return s.inTx(ctx, "hold seats", func(tx *sql.Tx) error {
		if err := s.holdSeats(ctx, tx, h, m, idsJSON); err != nil {
			return err
		}
		return s.checkHeldPerAddress(ctx, tx, h, m)
	})
}

// holdSeats is HoldSeats' work inside its transaction.
func (s *Store) holdSeats(ctx context.Context, tx *sql.Tx, h booking.Hold, m booking.Moment, idsJSON string) error {
	currency, err := s.checkOnSale(ctx, tx, h.ShowID, m)
	if err != nil {
		return err
	}
	prev, err := s.prevHold(ctx, tx, h)
	if err != nil {
		return err
	}
	read := s.stmts.holdRows
	if m.AllowGaps {
		read = s.stmts.holdSeats
	}
	rows, err := tx.StmtContext(ctx, read).QueryContext(ctx, h.ShowID, idsJSON)
	if err != nil {
		return err
	}
	seats, err := collectSeats(h.ShowID, rows)
	if err != nil {
		return err
	}
	amount, err := booking.DecideHold(h, seats, prev, m)
	if err != nil {
		return err
	}

	now := m.Now.UnixNano()
	locked, err := execCount(ctx, tx.StmtContext(ctx, s.stmts.lock), h.ID, h.Owner, now, h.ShowID, idsJSON)
	if err != nil {
		return err
	}
	if locked != len(h.SeatIDs) {
		return fmt.Errorf("hold %s locked %d of its %d seats, all of which were read: %w", h.ID, locked, len(h.SeatIDs), errIntegrity)
	}
	if prev.ID != "" {
		// The seats the new hold took over carry its id already; the
		// owner's others go back to available.
		if _, err := tx.StmtContext(ctx, s.stmts.releasePrev).ExecContext(ctx, h.ShowID, h.Owner, h.ID); err != nil {
			return err
		}
		if _, err := tx.StmtContext(ctx, s.stmts.replaceHold).ExecContext(ctx, h.ShowID, h.Owner, h.ID); err != nil {
			return err
		}
	}
	_, err = tx.StmtContext(ctx, s.stmts.insertHold).ExecContext(ctx,
		h.ID, h.ShowID, h.Owner, joinIDs(h.SeatIDs), amount, currency, now, h.Address)
	return err
}

// checkHeldPerAddress counts, after the hold's writes and before its
// commit, the seats of the show locked live by holds from the hold's
// address, and lets booking.CheckHeldPerAddress decide. Without a cap or an
// address it reads nothing.
func (s *Store) checkHeldPerAddress(ctx context.Context, tx *sql.Tx, h booking.Hold, m booking.Moment) error {
	if m.SeatsPerAddress <= 0 || h.Address == "" {
		return nil
	}
	var held int
	var oldest sql.NullInt64
	if err := tx.StmtContext(ctx, s.stmts.heldFrom).QueryRowContext(ctx, h.ShowID, h.Address, cutoff(m)).Scan(&held, &oldest); err != nil {
		return err
	}
	return booking.CheckHeldPerAddress(held, fromNanos(oldest), m)
}

// checkOnSale reads what the sales window needs of the show inside the
// step's transaction and applies booking.Show.CheckOnSale: an unknown show
// is ErrShowNotFound. It returns the show's currency.
func (s *Store) checkOnSale(ctx context.Context, tx *sql.Tx, showID string, m booking.Moment) (string, error) {
	var startsAt, cancelledAt sql.NullInt64
	var currency string
	err := tx.StmtContext(ctx, s.stmts.showSale).QueryRowContext(ctx, showID).Scan(&startsAt, &cancelledAt, &currency)
	if err != nil {
		return "", notFound(err, booking.ErrShowNotFound)
	}
	show := booking.Show{ID: showID, StartsAt: fromNanos(startsAt), CancelledAt: fromNanos(cancelledAt)}
	return currency, show.CheckOnSale(m)
}

// prevHold reads h.Owner's previous hold for the show (prevHoldSQL); ID
// "" when there is none.
func (s *Store) prevHold(ctx context.Context, tx *sql.Tx, h booking.Hold) (booking.PreviousHold, error) {
	var (
		prev    booking.PreviousHold
		seatIDs string
	)
	err := tx.StmtContext(ctx, s.stmts.prevHold).QueryRowContext(ctx, h.ShowID, h.Owner).Scan(&prev.ID, &seatIDs, &prev.Paying)
	if errors.Is(err, sql.ErrNoRows) {
		return booking.PreviousHold{}, nil
	}
	prev.SeatIDs = splitIDs(seatIDs)
	return prev, err
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
	h, err := scanHold(q.QueryRowContext(ctx, `SELECT `+holdColumns+` FROM holds
		WHERE id = (SELECT hold_id FROM seats INDEXED BY seats_hold
			WHERE show_id = ? AND hold_owner = ? AND status = 'locked' LIMIT 1)
		AND state = 'active'`, showID, owner))
	return h, notFound(err, booking.ErrHoldNotFound)
}

// ReleaseHold frees the seats the hold still locks and marks it released if
// it was active. Releasing twice changes nothing the second time.
func (s *Store) ReleaseHold(ctx context.Context, holdID, owner string) (booking.Hold, error) {
	var h booking.Hold
	err := s.inTx(ctx, "release hold", func(tx *sql.Tx) error {
		var err error
		if h, err = getOwnHold(ctx, tx, holdID, owner); err != nil {
			return err
		}
		if _, err := tx.StmtContext(ctx, s.stmts.releaseHold).ExecContext(ctx, h.ShowID, h.Owner, h.ID); err != nil {
			return err
		}
		if h.State != booking.HoldActive {
			return nil
		}
		h.State = booking.HoldReleased
		_, err = tx.ExecContext(ctx, `UPDATE holds SET state = ? WHERE id = ?`, h.State, h.ID)
		return err
	})
	if err != nil {
		return booking.Hold{}, err
	}
	return h, nil
}
