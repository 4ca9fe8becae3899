package mongo

import (
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// The show steps' reads and writes (booking.ShowTx).

func (t *tx) ShowByID(showID string) (booking.Show, error) {
	var d showDoc
	if err := t.s.col(colShows).FindOne(t.ctx, byID(showID)).Decode(&d); err != nil {
		return booking.Show{}, noDoc(err, booking.ErrShowNotFound, "read show")
	}
	return d.show(), nil
}

func (t *tx) ShowDeleted(showID string) (bool, error) {
	switch err := t.s.col(colDeletedShows).FindOne(t.ctx, byID(showID)).Err(); {
	case err == nil:
		return true, nil
	case errors.Is(err, mongo.ErrNoDocuments):
		return false, nil
	default:
		return false, fmt.Errorf("read deleted show ids: %w", err)
	}
}

// ShowSeatsAfter walks the unique {show_id, seat_id} index; strings sort
// by byte order under the simple collation.
func (t *tx) ShowSeatsAfter(showID, after string, limit int) ([]booking.Seat, error) {
	cur, err := t.s.col(colSeats).Find(t.ctx,
		bson.D{{Key: "show_id", Value: showID}, {Key: "seat_id", Value: bson.D{{Key: "$gt", Value: after}}}},
		options.Find().SetSort(bson.D{{Key: "show_id", Value: 1}, {Key: "seat_id", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("read seats: %w", err)
	}
	var docs []seatDoc
	if err := cur.All(t.ctx, &docs); err != nil {
		return nil, fmt.Errorf("read seats: %w", err)
	}
	seats := make([]booking.Seat, len(docs))
	for i, d := range docs {
		seats[i] = d.seat()
	}
	return seats, nil
}

func (t *tx) ConfirmedBookings(showID string, limit int) ([]booking.Booking, error) {
	cur, err := t.s.col(colBookings).Find(t.ctx,
		bson.D{{Key: "show_id", Value: showID}, {Key: "state", Value: string(booking.BookingConfirmed)}},
		options.Find().SetSort(bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("read confirmed bookings: %w", err)
	}
	var docs []bookingDoc
	if err := cur.All(t.ctx, &docs); err != nil {
		return nil, fmt.Errorf("read confirmed bookings: %w", err)
	}
	out := make([]booking.Booking, len(docs))
	for i, d := range docs {
		out[i] = d.booking()
	}
	return out, nil
}

func (t *tx) CountShowBookings(showID string) (int, error) {
	n, err := t.s.col(colBookings).CountDocuments(t.ctx, bson.D{{Key: "show_id", Value: showID}})
	if err != nil {
		return 0, fmt.Errorf("count bookings: %w", err)
	}
	return int(n), nil
}

// CountLockedSeats: every locked seat has its hold's id, and the range on
// hold_id keeps the scan within show_hold's entries of locked seats.
func (t *tx) CountLockedSeats(showID string) (int, error) {
	n, err := t.s.col(colSeats).CountDocuments(t.ctx, bson.D{
		{Key: "show_id", Value: showID},
		{Key: "hold_id", Value: bson.D{{Key: "$gt", Value: ""}}},
		{Key: "status", Value: string(booking.SeatLocked)},
	})
	if err != nil {
		return 0, fmt.Errorf("count locked seats: %w", err)
	}
	return int(n), nil
}

// InsertShow writes the seats as insert-only upserts ($setOnInsert), in
// bulk writes of seatBatch, then inserts the show document, all in the
// step's transaction. Each upsert's filter is the seat's _id alone, the
// key of the unique index a concurrent insert of the same seat collides
// on: in a transaction that collision is a WriteConflict, and the step
// runs again (and finds the show); a filter naming more fields than the
// unique index's made a racing upsert outside a transaction fail with
// E11000 instead of being retried by the server. Seats of the id left by
// an older version (which wrote them outside a transaction, before the
// show document) are taken as they are.
func (t *tx) InsertShow(show booking.Show, seats []booking.Seat) error {
	doc := toShowDoc(show, seats)
	batch := make([]mongo.WriteModel, 0, min(seatBatch, len(seats)))
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if _, err := t.s.col(colSeats).BulkWrite(t.ctx, batch); err != nil {
			return fmt.Errorf("insert seats: %w", err)
		}
		batch = batch[:0]
		return nil
	}
	for _, st := range seats {
		d := toSeatDoc(show.ID, st)
		fields, err := withoutID(d)
		if err != nil {
			return fmt.Errorf("insert seats: %w", err)
		}
		batch = append(batch, mongo.NewUpdateOneModel().SetFilter(byID(d.ID)).
			SetUpdate(bson.D{{Key: "$setOnInsert", Value: fields}}).SetUpsert(true))
		if len(batch) == seatBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if _, err := t.s.col(colShows).InsertOne(t.ctx, doc); err != nil {
		return fmt.Errorf("insert show: %w", err)
	}
	return nil
}

func (t *tx) SetShowCancelled(showID string, at time.Time) error {
	_, err := t.s.col(colShows).UpdateOne(t.ctx, byID(showID),
		bson.D{{Key: "$set", Value: bson.D{{Key: "cancelled_at", Value: nanos(at)}}}})
	if err != nil {
		return fmt.Errorf("update show: %w", err)
	}
	return nil
}

func (t *tx) FreeShowSeats(showID string, ids []string) error {
	_, err := t.s.col(colSeats).UpdateMany(t.ctx, bson.D{
		{Key: "show_id", Value: showID},
		{Key: "seat_id", Value: bson.D{{Key: "$in", Value: ids}}},
		{Key: "status", Value: string(booking.SeatLocked)},
	}, releaseUpdate)
	if err != nil {
		return fmt.Errorf("release seats: %w", err)
	}
	return nil
}

// GuardSeats writes each seat ($inc of its guard counter, a change on
// every write: an update that changed nothing would not conflict), so
// that a transaction that also writes one of them, started before this
// one committed, conflicts with it.
func (t *tx) GuardSeats(showID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := t.s.col(colSeats).UpdateMany(t.ctx, bson.D{
		{Key: "show_id", Value: showID},
		{Key: "seat_id", Value: bson.D{{Key: "$in", Value: ids}}},
	}, bson.D{{Key: "$inc", Value: bson.D{{Key: "guard", Value: int64(1)}}}})
	if err != nil {
		return fmt.Errorf("guard seats: %w", err)
	}
	return nil
}

func (t *tx) SetBookingCancelled(b booking.Booking) error {
	_, err := t.s.col(colBookings).UpdateOne(t.ctx, byID(b.ID), bson.D{{Key: "$set", Value: bson.D{
		{Key: "state", Value: string(b.State)},
		{Key: "reason", Value: b.Reason},
		{Key: "updated_at", Value: nanos(b.UpdatedAt)},
	}}})
	if err != nil {
		return fmt.Errorf("update booking: %w", err)
	}
	return nil
}

// DeleteShowRecords deletes in the step's transaction: a show far bigger
// than any screen (`boxoffice seed` makes some) may not fit in TxTimeout;
// then nothing is deleted.
func (t *tx) DeleteShowRecords(showID string) error {
	if _, err := t.s.col(colSeats).DeleteMany(t.ctx, bson.D{{Key: "show_id", Value: showID}}); err != nil {
		return fmt.Errorf("delete seats: %w", err)
	}
	if _, err := t.s.col(colHolds).DeleteMany(t.ctx, bson.D{{Key: "show_id", Value: showID}}); err != nil {
		return fmt.Errorf("delete holds: %w", err)
	}
	if _, err := t.s.col(colShows).DeleteOne(t.ctx, byID(showID)); err != nil {
		return fmt.Errorf("delete show: %w", err)
	}
	if _, err := t.s.col(colShowPrices).DeleteOne(t.ctx, byID(showID)); err != nil {
		return fmt.Errorf("delete show prices: %w", err)
	}
	if _, err := t.s.col(colDeletedShows).UpdateOne(t.ctx, byID(showID),
		bson.D{{Key: "$setOnInsert", Value: bson.D{{Key: "deleted", Value: true}}}}, options.UpdateOne().SetUpsert(true)); err != nil {
		return fmt.Errorf("keep deleted show id: %w", err)
	}
	return nil
}

// The reserve steps' writes (booking.ReserveTx).

// SetSeatReserve writes each seat, also one whose reserve it leaves as it
// was, so that a hold or settlement of one of them conflicts with it.
// ReserveNone unsets the field: absent is none.
func (t *tx) SetSeatReserve(showID string, ids []string, reserve booking.SeatReserve) error {
	if len(ids) == 0 {
		return nil
	}
	update := bson.D{{Key: "$unset", Value: bson.D{{Key: "reserve", Value: ""}}}}
	if reserve != booking.ReserveNone {
		update = bson.D{{Key: "$set", Value: bson.D{{Key: "reserve", Value: string(reserve)}}}}
	}
	update = append(update, bson.E{Key: "$inc", Value: bson.D{{Key: "guard", Value: int64(1)}}})
	_, err := t.s.col(colSeats).UpdateMany(t.ctx, bson.D{
		{Key: "show_id", Value: showID},
		{Key: "seat_id", Value: bson.D{{Key: "$in", Value: ids}}},
	}, update)
	if err != nil {
		return fmt.Errorf("set seat reserve: %w", err)
	}
	return nil
}

// SetShowOnlineCutoff sets the show's cut-off; 0 unsets it: absent is
// none.
func (t *tx) SetShowOnlineCutoff(showID string, seats int) error {
	update := bson.D{{Key: "$unset", Value: bson.D{{Key: "online_cutoff", Value: ""}}}}
	if seats > 0 {
		update = bson.D{{Key: "$set", Value: bson.D{{Key: "online_cutoff", Value: seats}}}}
	}
	if _, err := t.s.col(colShows).UpdateOne(t.ctx, byID(showID), update); err != nil {
		return fmt.Errorf("set online cut-off: %w", err)
	}
	return nil
}
