package mongo

import (
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// The hold lifecycle's reads and writes (booking.HoldTx). A write of a
// seat or a hold that another transaction wrote after this one's snapshot
// fails with WriteConflict, and the driver runs the step again on the new
// state: that is what makes a step that read a seat available and then
// locks it safe. What a step decides on without writing it, it serialises
// on itself (booking.Tx.Serialize).

func (t *tx) SaleFacts(showID string) (booking.Show, error) {
	var d showDoc
	err := t.s.col(colShows).FindOne(t.ctx, byID(showID), options.FindOne().SetProjection(onSaleProjection)).Decode(&d)
	if err != nil {
		return booking.Show{}, noDoc(err, booking.ErrShowNotFound, "read show")
	}
	show := d.show()
	show.ID = showID
	return show, nil
}

func (t *tx) Hold(holdID string) (booking.Hold, error) {
	d, err := findHold(t.ctx, t.s.col(colHolds), byID(holdID))
	if err != nil {
		return booking.Hold{}, noDoc(err, booking.ErrHoldNotFound, "read hold")
	}
	return d.hold(), nil
}

func (t *tx) ActiveHolds(showID, owner string) ([]booking.Hold, error) {
	cur, err := t.s.col(colHolds).Find(t.ctx, activeHoldFilter(showID, owner))
	if err != nil {
		return nil, fmt.Errorf("read active holds: %w", err)
	}
	var docs []holdDoc
	if err := cur.All(t.ctx, &docs); err != nil {
		return nil, fmt.Errorf("read active holds: %w", err)
	}
	holds := make([]booking.Hold, len(docs))
	for i, d := range docs {
		holds[i] = d.hold()
	}
	return holds, nil
}

func (t *tx) PendingPayments(holdID string) ([]booking.Payment, error) {
	cur, err := t.s.col(colPayments).Find(t.ctx, bson.D{
		{Key: "hold_id", Value: holdID},
		{Key: "state", Value: string(booking.PaymentPending)},
	})
	if err != nil {
		return nil, fmt.Errorf("read pending payments: %w", err)
	}
	var docs []paymentDoc
	if err := cur.All(t.ctx, &docs); err != nil {
		return nil, fmt.Errorf("read pending payments: %w", err)
	}
	payments := make([]booking.Payment, len(docs))
	for i, d := range docs {
		payments[i] = d.payment()
	}
	return payments, nil
}

func (t *tx) SeatsOf(showID string, ids []string, wholeRows bool) ([]booking.Seat, error) {
	seats, err := seatsOf(t.ctx, t.s.col(colSeats), showID, ids)
	if err != nil || !wholeRows || len(seats) == 0 {
		return seats, wrapRead("read seats", err)
	}
	rows := bson.A{}
	seen := map[int]bool{}
	for _, st := range seats {
		if !seen[st.GridRow] {
			seen[st.GridRow] = true
			rows = append(rows, st.GridRow)
		}
	}
	seats, err = findSeats(t.ctx, t.s.col(colSeats), bson.D{
		{Key: "show_id", Value: showID},
		{Key: "grid_row", Value: bson.D{{Key: "$in", Value: rows}}},
	})
	return seats, wrapRead("read rows", err)
}

func wrapRead(what string, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func (t *tx) LiveSeatsFrom(showID, address string, lapsedBefore time.Time) (int, time.Time, error) {
	cut := nanos(lapsedBefore)
	cur, err := t.s.col(colHolds).Find(t.ctx, bson.D{
		{Key: "show_id", Value: showID}, {Key: "address", Value: address},
		{Key: "created_at", Value: bson.D{{Key: "$gt", Value: cut}}},
		{Key: "state", Value: string(booking.HoldActive)},
	}, options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("read the address's holds: %w", err)
	}
	var ids []struct {
		ID string `bson:"_id"`
	}
	if err := cur.All(t.ctx, &ids); err != nil {
		return 0, time.Time{}, fmt.Errorf("read the address's holds: %w", err)
	}
	holdIDs := make(bson.A, 0, len(ids))
	for _, d := range ids {
		holdIDs = append(holdIDs, d.ID)
	}
	cur, err = t.s.col(colSeats).Find(t.ctx, bson.D{
		{Key: "show_id", Value: showID},
		{Key: "hold_id", Value: bson.D{{Key: "$in", Value: holdIDs}}},
		{Key: "status", Value: string(booking.SeatLocked)},
		{Key: "locked_at", Value: bson.D{{Key: "$gt", Value: cut}}},
	}, options.Find().SetProjection(bson.D{{Key: "locked_at", Value: 1}}))
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("count the address's seats: %w", err)
	}
	var locks []struct {
		LockedAt int64 `bson:"locked_at"`
	}
	if err := cur.All(t.ctx, &locks); err != nil {
		return 0, time.Time{}, fmt.Errorf("count the address's seats: %w", err)
	}
	oldest := int64(0)
	for _, l := range locks {
		if oldest == 0 || l.LockedAt < oldest {
			oldest = l.LockedAt
		}
	}
	return len(locks), fromNanos(oldest), nil
}

// LockSeats writes the locks unconditionally: the step decided on the seats
// as its snapshot read them, and a seat another step wrote since conflicts
// here. That holds while every write of a seat is in a transaction and
// changes the document (the package comment).
func (t *tx) LockSeats(showID string, ids []string, holdID, _ string, at time.Time) (int, error) {
	res, err := t.s.col(colSeats).UpdateMany(t.ctx,
		bson.D{{Key: "show_id", Value: showID}, {Key: "seat_id", Value: bson.D{{Key: "$in", Value: ids}}}},
		bson.D{{Key: "$set", Value: bson.D{
			{Key: "status", Value: string(booking.SeatLocked)},
			{Key: "hold_id", Value: holdID},
			{Key: "locked_at", Value: nanos(at)},
		}}})
	if err != nil {
		return 0, fmt.Errorf("lock seats: %w", err)
	}
	return int(res.MatchedCount), nil
}

func (t *tx) RelockSeats(h booking.Hold, at time.Time) (int, error) {
	res, err := t.s.col(colSeats).UpdateMany(t.ctx, lockedBy(h.ShowID, h.ID),
		bson.D{{Key: "$set", Value: bson.D{{Key: "locked_at", Value: nanos(at)}}}})
	if err != nil {
		return 0, fmt.Errorf("lock seats again: %w", err)
	}
	return int(res.MatchedCount), nil
}

func (t *tx) FreeSeats(h booking.Hold) error {
	if _, err := t.s.col(colSeats).UpdateMany(t.ctx, lockedBy(h.ShowID, h.ID), releaseUpdate); err != nil {
		return fmt.Errorf("release seats: %w", err)
	}
	return nil
}

func (t *tx) InsertHold(h booking.Hold) error {
	if _, err := t.s.col(colHolds).InsertOne(t.ctx, toHoldDoc(h)); err != nil {
		return fmt.Errorf("insert hold: %w", err)
	}
	return nil
}

func (t *tx) SetHoldState(holdID string, state booking.HoldState) error {
	if _, err := t.s.col(colHolds).UpdateOne(t.ctx, byID(holdID), setState(state)); err != nil {
		return fmt.Errorf("update hold: %w", err)
	}
	return nil
}

func (t *tx) SetHoldExtended(h booking.Hold) error {
	_, err := t.s.col(colHolds).UpdateOne(t.ctx, byID(h.ID), bson.D{{Key: "$set", Value: bson.D{
		{Key: "created_at", Value: nanos(h.CreatedAt)},
		{Key: "extensions", Value: h.Extensions},
	}}})
	if err != nil {
		return fmt.Errorf("update hold: %w", err)
	}
	return nil
}

func (t *tx) AllSeats(showID string) ([]booking.Seat, error) {
	seats, err := findSeats(t.ctx, t.s.col(colSeats), bson.D{{Key: "show_id", Value: showID}})
	return seats, wrapRead("read the show's seats", err)
}
