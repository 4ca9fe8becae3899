package mongo

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"boxoffice/internal/booking"
)

// openCheckoutsIndex is the partial index on payments that EndedCheckouts
// reads; openCheckout is its filter, which the query repeats as it is, so
// that the planner can prove the query is within the index.
const openCheckoutsIndex = "open_checkouts"

// openCheckout selects the pending payments with a checkout that boxoffice
// has not closed, as SQLite's payments_open_checkouts, written in the
// operators every server allows in a partial filter
// (equality, $exists: true, $gt, $gte, $lt, $lte, $type, $and; never $ne
// or $not, and $in or $or only on recent ones). Every string but "" sorts
// after "", so `$gt: ""` is "not empty". checkout_closed_at is 0 until
// closed, and present in every payment with a checkout ref, also one
// written before the field existed, because the write that records the
// ref (tx.UpdatePayment) sets it.
// Payments that are settled or whose checkout is closed leave the index.
func openCheckout() bson.D {
	return bson.D{
		{Key: "state", Value: string(booking.PaymentPending)},
		{Key: "checkout_ref", Value: bson.D{{Key: "$gt", Value: ""}}},
		{Key: "checkout_closed_at", Value: int64(0)},
	}
}

// OpenCheckouts reads one page of booking.EndedCheckouts' candidates
// through open_checkouts, oldest first, each with its hold ($lookup on the
// holds' _id), outside a transaction: nothing is decided on it that is
// written.
func (s *Store) OpenCheckouts(ctx context.Context, lapsedBefore time.Time, after booking.Payment, limit int) ([]booking.OpenCheckout, error) {
	if limit <= 0 {
		return nil, nil
	}
	match := openCheckout()
	if after.ID != "" {
		// The page after the last one: by (created_at, _id).
		at := nanos(after.CreatedAt)
		match = append(match, bson.E{Key: "$or", Value: bson.A{
			bson.D{{Key: "created_at", Value: bson.D{{Key: "$gt", Value: at}}}},
			bson.D{{Key: "created_at", Value: at}, {Key: "_id", Value: bson.D{{Key: "$gt", Value: after.ID}}}},
		}})
	}
	pipeline := mongo.Pipeline{
		{{Key: "$match", Value: match}},
		{{Key: "$sort", Value: bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}}}},
		{{Key: "$lookup", Value: bson.D{
			{Key: "from", Value: colHolds},
			{Key: "localField", Value: "hold_id"},
			{Key: "foreignField", Value: "_id"},
			{Key: "as", Value: "hold"},
		}}},
		{{Key: "$unwind", Value: "$hold"}},
		{{Key: "$match", Value: bson.D{{Key: "$or", Value: bson.A{
			bson.D{{Key: "hold.state", Value: bson.D{{Key: "$ne", Value: string(booking.HoldActive)}}}},
			bson.D{{Key: "hold.created_at", Value: bson.D{{Key: "$lte", Value: nanos(lapsedBefore)}}}},
		}}}}},
		{{Key: "$limit", Value: int64(limit)}},
	}
	cur, err := s.col(colPayments).Aggregate(ctx, pipeline)
	if err != nil {
		return nil, fmt.Errorf("mongo: open checkouts: %w", err)
	}
	var docs []struct {
		paymentDoc `bson:",inline"`
		Hold       holdDoc `bson:"hold"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: open checkouts: %w", err)
	}
	out := make([]booking.OpenCheckout, len(docs))
	for i, d := range docs {
		out[i] = booking.OpenCheckout{Payment: d.payment(), Hold: d.Hold.hold()}
	}
	return out, nil
}

// SeatsByID reads the show's seats among ids, as stored.
func (s *Store) SeatsByID(ctx context.Context, showID string, ids []string) ([]booking.Seat, error) {
	seats, err := seatsOf(ctx, s.col(colSeats), showID, ids)
	if err != nil {
		return nil, fmt.Errorf("mongo: seats by id: %w", err)
	}
	return seats, nil
}
