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
// written before the field existed, because SetCheckoutRef adds it.
// Payments that are settled or whose checkout is closed leave the index.
func openCheckout() bson.D {
	return bson.D{
		{Key: "state", Value: string(booking.PaymentPending)},
		{Key: "checkout_ref", Value: bson.D{{Key: "$gt", Value: ""}}},
		{Key: "checkout_closed_at", Value: int64(0)},
	}
}

// attemptIs matches payments at checkout attempt n; attempt 0 also those
// written before the field existed.
func attemptIs(n int) bson.E {
	if n == 0 {
		return bson.E{Key: "checkout_attempt", Value: bson.D{{Key: "$in", Value: bson.A{0, nil}}}}
	}
	return bson.E{Key: "checkout_attempt", Value: n}
}

// beganCheckout is what one attempt of BeginCheckout returns.
type beganCheckout struct {
	payment booking.Payment
	moved   bool
}

// BeginCheckout moves a pending payment from checkout attempt from to the
// next, in a transaction that reads the payment and updates it on the
// same compare: of two at once, the second's write conflicts with the
// first's, and its retried attempt reads the attempt the first began and
// moves nothing.
func (s *Store) BeginCheckout(ctx context.Context, paymentID string, from int, expiresAt, now time.Time) (booking.Payment, bool, error) {
	out, err := inTx(ctx, s, func(ctx context.Context) (beganCheckout, error) {
		var d paymentDoc
		if err := s.col(colPayments).FindOne(ctx, byID(paymentID)).Decode(&d); err != nil {
			return beganCheckout{}, noDoc(err, booking.ErrPaymentNotFound, "read payment")
		}
		if d.State != string(booking.PaymentPending) || d.CheckoutAttempt != from {
			return beganCheckout{payment: d.payment()}, nil
		}
		d.CheckoutAttempt, d.CheckoutExpiresAt = from+1, nanos(expiresAt)
		if d.CheckoutRef != "" && d.CheckoutClosedAt == 0 {
			d.CheckoutClosedAt = nanos(now) // the caller expired it at the provider
		}
		res, err := s.col(colPayments).UpdateOne(ctx,
			bson.D{{Key: "_id", Value: paymentID}, {Key: "state", Value: string(booking.PaymentPending)}, attemptIs(from)},
			bson.D{{Key: "$set", Value: bson.D{
				{Key: "checkout_attempt", Value: d.CheckoutAttempt},
				{Key: "checkout_expires_at", Value: d.CheckoutExpiresAt},
				{Key: "checkout_closed_at", Value: d.CheckoutClosedAt},
			}}})
		if err != nil {
			return beganCheckout{}, fmt.Errorf("begin checkout: %w", err)
		}
		if res.MatchedCount != 1 {
			return beganCheckout{}, fmt.Errorf("payment %s changed within its own snapshot", paymentID)
		}
		return beganCheckout{payment: d.payment(), moved: true}, nil
	})
	if err != nil {
		return booking.Payment{}, false, wrap("begin checkout", err)
	}
	return out.payment, out.moved, nil
}

// SetCheckoutRef records the open checkout of a payment's attempt. It is
// a pipeline update so that it can give a payment written before
// checkout_closed_at existed that field, 0, in the same write: otherwise
// the payment would be missing from open_checkouts. The same ref recorded
// again (a Pay that joined the attempt) keeps its closing, should the
// checkout have been closed since. The ref is a $literal, since in a
// pipeline a string beginning with "$" would be a field path.
func (s *Store) SetCheckoutRef(ctx context.Context, paymentID string, attempt int, ref string) error {
	lit := bson.D{{Key: "$literal", Value: ref}}
	res, err := s.col(colPayments).UpdateOne(ctx, bson.D{{Key: "_id", Value: paymentID}, attemptIs(attempt)},
		mongo.Pipeline{{{Key: "$set", Value: bson.D{
			{Key: "checkout_closed_at", Value: bson.D{{Key: "$cond", Value: bson.A{
				bson.D{{Key: "$eq", Value: bson.A{"$checkout_ref", lit}}},
				bson.D{{Key: "$ifNull", Value: bson.A{"$checkout_closed_at", int64(0)}}},
				int64(0),
			}}}},
			{Key: "checkout_ref", Value: lit},
		}}}})
	if err != nil {
		return fmt.Errorf("mongo: set checkout ref: %w", err)
	}
	if res.MatchedCount == 1 {
		return nil
	}
	if err := s.col(colPayments).FindOne(ctx, byID(paymentID)).Err(); err != nil {
		return notFound(err, booking.ErrPaymentNotFound, "set checkout ref")
	}
	return booking.ErrCheckoutSuperseded
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

// CloseCheckout records that a payment's checkout was closed at the
// provider, in one conditional update: only the first close is recorded.
// When it matches nothing, the payment is either closed already, which is
// fine, or unknown, which a lookup by _id tells.
func (s *Store) CloseCheckout(ctx context.Context, paymentID string, at time.Time) error {
	res, err := s.col(colPayments).UpdateOne(ctx,
		bson.D{
			{Key: "_id", Value: paymentID},
			// 0, or absent in a payment written before the field existed.
			{Key: "checkout_closed_at", Value: bson.D{{Key: "$in", Value: bson.A{int64(0), nil}}}},
		},
		bson.D{{Key: "$set", Value: bson.D{{Key: "checkout_closed_at", Value: nanos(at)}}}})
	if err != nil {
		return fmt.Errorf("mongo: close checkout: %w", err)
	}
	if res.MatchedCount == 1 {
		return nil
	}
	if err := s.col(colPayments).FindOne(ctx, byID(paymentID)).Err(); err != nil {
		return notFound(err, booking.ErrPaymentNotFound, "close checkout")
	}
	return nil
}

// ClaimLookup reads the payment and, when booking.Payment.LookupDue says so,
// records the lookup, in one transaction. Of two processes claiming at
// once, the second one's write conflicts with the first one's, and its
// retried attempt reads LookedUpAt just set and claims nothing.
func (s *Store) ClaimLookup(ctx context.Context, paymentID string, now time.Time) (bool, error) {
	claimed, err := inTx(ctx, s, func(ctx context.Context) (bool, error) {
		var d paymentDoc
		if err := s.col(colPayments).FindOne(ctx, byID(paymentID)).Decode(&d); err != nil {
			return false, noDoc(err, booking.ErrPaymentNotFound, "read payment")
		}
		if !d.payment().LookupDue(now) {
			return false, nil
		}
		if _, err := s.col(colPayments).UpdateOne(ctx, byID(paymentID),
			bson.D{{Key: "$set", Value: bson.D{{Key: "looked_up_at", Value: nanos(now)}}}}); err != nil {
			return false, fmt.Errorf("record lookup: %w", err)
		}
		return true, nil
	})
	if err != nil {
		return false, wrap("claim lookup", err)
	}
	return claimed, nil
}
