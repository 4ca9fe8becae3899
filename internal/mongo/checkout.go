package mongo

import (
	"context"
	"fmt"

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

// EndedCheckouts reads the pending payments with an open checkout through
// open_checkouts, oldest first, each with its hold ($lookup on the holds'
// _id), skips those whose hold is still active and not lapsed, which
// booking.CheckoutEnded would keep anyway, and lets CheckoutEnded decide on
// the rest with their seats. A lapsed hold whose seats are all its own is
// no ended checkout (its payment may still be rescued), so it pages on past
// such candidates by (created_at, _id), up to endedCheckoutsScan of them,
// rather than letting a hundred of them hide every ended one behind. It
// reads outside a transaction: it decides nothing that is written, and a
// checkout closed twice is no harm (Payments.Expire of a closed one is no
// error). A limit of 0 or less lists nothing.
func (s *Store) EndedCheckouts(ctx context.Context, m booking.Moment, limit int) ([]booking.Payment, error) {
	out := []booking.Payment{}
	if limit <= 0 {
		return out, nil
	}
	var after *paymentDoc
	for scanned := 0; len(out) < limit && scanned < endedCheckoutsScan; {
		match := openCheckout()
		if after != nil {
			// The page after the last one: by (created_at, _id).
			match = append(match, bson.E{Key: "$or", Value: bson.A{
				bson.D{{Key: "created_at", Value: bson.D{{Key: "$gt", Value: after.CreatedAt}}}},
				bson.D{{Key: "created_at", Value: after.CreatedAt}, {Key: "_id", Value: bson.D{{Key: "$gt", Value: after.ID}}}},
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
				bson.D{{Key: "hold.created_at", Value: bson.D{{Key: "$lte", Value: nanos(m.LapsedBefore())}}}},
			}}}}},
			{{Key: "$limit", Value: int64(limit)}},
		}
		cur, err := s.col(colPayments).Aggregate(ctx, pipeline)
		if err != nil {
			return nil, fmt.Errorf("mongo: ended checkouts: %w", err)
		}
		var docs []struct {
			paymentDoc `bson:",inline"`
			Hold       holdDoc `bson:"hold"`
		}
		if err := cur.All(ctx, &docs); err != nil {
			return nil, fmt.Errorf("mongo: ended checkouts: %w", err)
		}
		for _, d := range docs {
			p, h := d.payment(), d.Hold.hold()
			seats, err := seatsOf(ctx, s.col(colSeats), h.ShowID, h.SeatIDs)
			if err != nil {
				return nil, fmt.Errorf("mongo: ended checkouts: seats of hold %s: %w", h.ID, err)
			}
			if booking.CheckoutEnded(p, h, seats, m) && len(out) < limit {
				out = append(out, p)
			}
		}
		scanned += len(docs)
		if len(docs) < limit {
			break
		}
		last := docs[len(docs)-1].paymentDoc
		after = &last
	}
	return out, nil
}

// endedCheckoutsScan bounds the candidates one EndedCheckouts reads.
const endedCheckoutsScan = 2000
