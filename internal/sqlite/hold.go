package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

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

// HoldSeats locks h.SeatIDs for h at m.Now, all or nothing, replacing the
// owner's previous hold for the show, in one BEGIN IMMEDIATE transaction.
// The common case, a session's first hold for a show, is two statements:
// one conditional UPDATE that locks the requested seats that are free, and
// the insert of the hold, which sums the prices and inserts nothing unless
// the owner locks no seat of the show but these. Otherwise the owner has a
// previous hold: it is looked up by the seats it locks, those of its seats
// that were requested are taken over, its others freed, it is marked
// replaced, and the hold is inserted again. When fewer seats than asked
// could be locked, the others still hold their state from before, so
// booking.CheckHoldable names the culprits from inside the same
// transaction, which is then rolled back.
func (s *Store) HoldSeats(ctx context.Context, h booking.Hold, m booking.Moment) error {
	if err := booking.CheckHoldRequest(h); err != nil {
		return err
	}
	h.SeatIDs = booking.NormalizeSeatIDs(h.SeatIDs)
	now := m.Now.UnixNano()
	b, err := json.Marshal(h.SeatIDs)
	if err != nil {
		return wrapErr("hold seats", err)
	}
	idsJSON := string(b) // the seat ids as the lock statements and the gap check take them
	lockArgs := []any{h.ID, h.Owner, now, h.ShowID, idsJSON, cutoff(m), h.Owner}
	seatIDs := joinIDs(h.SeatIDs)

	return s.inTx(ctx, "hold seats", func(tx *sql.Tx) error {
		if err := s.holdSeats(ctx, tx, h, m, lockArgs, seatIDs); err != nil {
			return err
		}
		if err := s.checkGaps(ctx, tx, h, m, idsJSON); err != nil {
			return err
		}
		return s.checkHeldPerAddress(ctx, tx, h, m)
	})
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

// holdSeats is HoldSeats' work inside its transaction.
func (s *Store) holdSeats(ctx context.Context, tx *sql.Tx, h booking.Hold, m booking.Moment, lockArgs []any, seatIDs string) error {
	n, now := len(h.SeatIDs), m.Now.UnixNano()
	if err := s.checkOnSale(ctx, tx, h.ShowID, m); err != nil {
		return err
	}
	locked, err := execCount(ctx, tx.StmtContext(ctx, s.stmts.lock), lockArgs...)
	if err != nil {
		return err
	}
	if locked == n {
		inserted, err := s.insertHold(ctx, tx, h, seatIDs, now, n)
		if err != nil || inserted {
			return err
		}
	}
	// The owner locks other seats of the show, a previous hold's, or
	// some requested seats were not free.
	prevs, err := s.prevHolds(ctx, tx, h) // one, but see lockPrevSQL
	if err != nil {
		return err
	}
	if len(prevs) > 0 && locked < n {
		args := append(slices.Clip(lockArgs[:5]), h.Owner, h.ID)
		more, err := execCount(ctx, tx.StmtContext(ctx, s.stmts.lockPrev), args...)
		if err != nil {
			return err
		}
		locked += more
	}
	if locked < n {
		// Every requested seat of the owner's is taken over by now,
		// so the seats missed are others'.
		return s.whyNotHeld(ctx, tx, h, m)
	}
	// The seats the new hold took over carry its id already; the
	// previous hold's others go back to available, after which the
	// owner's locked seats are the new hold's alone.
	if _, err := tx.StmtContext(ctx, s.stmts.releasePrev).ExecContext(ctx, h.ShowID, h.Owner, h.ID); err != nil {
		return err
	}
	for _, prev := range prevs {
		if _, err := tx.StmtContext(ctx, s.stmts.replaceHold).ExecContext(ctx, prev); err != nil {
			return err
		}
	}
	inserted, err := s.insertHold(ctx, tx, h, seatIDs, now, n)
	if err == nil && !inserted {
		err = fmt.Errorf("hold %s of show %s was not inserted (previous holds %v): %w", h.ID, h.ShowID, prevs, errIntegrity)
	}
	return err
}

// checkOnSale reads what the sales window needs of the show inside the
// step's transaction (a prepared statement of two columns: the hold route
// pays it on every hold) and applies booking.Show.CheckOnSale: an unknown
// show is ErrShowNotFound.
func (s *Store) checkOnSale(ctx context.Context, tx *sql.Tx, showID string, m booking.Moment) error {
	var startsAt, cancelledAt sql.NullInt64
	err := tx.StmtContext(ctx, s.stmts.showSale).QueryRowContext(ctx, showID).Scan(&startsAt, &cancelledAt)
	if err != nil {
		return notFound(err, booking.ErrShowNotFound)
	}
	show := booking.Show{ID: showID, StartsAt: fromNanos(startsAt), CancelledAt: fromNanos(cancelledAt)}
	return show.CheckOnSale(m)
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

// whyNotHeld explains, inside the failed hold's transaction, why the lock
// UPDATEs missed some seats. The seats they locked carry h.ID now,
// including every requested seat the owner's previous hold had; the others
// are as they were, so booking.CheckHoldable decides on those. The error it
// returns rolls the transaction back.
func (s *Store) whyNotHeld(ctx context.Context, tx *sql.Tx, h booking.Hold, m booking.Moment) error {
	seats, err := seatsByID(ctx, tx, h.ShowID, h.SeatIDs)
	if err != nil {
		return err
	}
	if len(seats) == 0 {
		var one int
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM shows WHERE id = ?`, h.ShowID).Scan(&one); err != nil {
			return notFound(err, booking.ErrShowNotFound)
		}
	}
	var missed []string
	for _, id := range h.SeatIDs {
		if !slices.ContainsFunc(seats, func(s booking.Seat) bool { return s.ID == id && s.HoldID == h.ID }) {
			missed = append(missed, id)
		}
	}
	if err := booking.CheckHoldable(missed, seats, "", m); err != nil {
		return err
	}
	// The SQL rule refused seats the Go rule accepts: a bug, not a conflict.
	return fmt.Errorf("seat rule in SQL and Go disagree on seats %v of show %s", missed, h.ShowID)
}

// insertHold runs insertHoldSQL for h and reports whether it inserted it.
func (s *Store) insertHold(ctx context.Context, tx *sql.Tx, h booking.Hold, seatIDs string, now int64, n int) (bool, error) {
	res, err := tx.StmtContext(ctx, s.stmts.insertHold).ExecContext(ctx, h.ID, h.Owner, seatIDs, h.ShowID, now, n, h.Address)
	if err != nil {
		return false, err
	}
	inserted, err := res.RowsAffected()
	return inserted == 1, err
}

// prevHolds returns the ids of h.Owner's previous holds for the show that
// still lock a seat: none, or one (see lockPrevSQL).
func (s *Store) prevHolds(ctx context.Context, tx *sql.Tx, h booking.Hold) ([]string, error) {
	rows, err := tx.StmtContext(ctx, s.stmts.prevHolds).QueryContext(ctx, h.ShowID, h.Owner, h.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
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
	h, err := scanHold(s.read.QueryRowContext(ctx, `SELECT `+holdColumns+` FROM holds
		WHERE id = (SELECT hold_id FROM seats INDEXED BY seats_hold
			WHERE show_id = ? AND hold_owner = ? AND status = 'locked' LIMIT 1)
		AND state = 'active'`, showID, owner))
	return h, wrapErr("active hold", notFound(err, booking.ErrHoldNotFound))
}

// ReleaseHold frees the seats the hold still locks and marks it released if
// it was active. Releasing twice changes nothing the second time.
func (s *Store) ReleaseHold(ctx context.Context, holdID, owner string) (booking.Hold, error) {
	var h booking.Hold
	err := s.inTx(ctx, "release hold", func(tx *sql.Tx) error {
		var err error
		if h, err = getHold(ctx, tx, holdID); err != nil {
			return err
		}
		if err := h.CheckOwner(owner); err != nil {
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
