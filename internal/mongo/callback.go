package mongo

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// callbackDoc is one received payment callback. payment_id is what the body
// claimed: a refused callback may name a payment that does not exist.
type callbackDoc struct {
	ID         string `bson:"_id"`
	ReceivedAt int64  `bson:"received_at"`
	Signature  string `bson:"signature"`
	EventID    string `bson:"event_id"`
	EventType  string `bson:"event_type"`
	PaymentID  string `bson:"payment_id"`
	Status     int    `bson:"status"`
	Outcome    string `bson:"outcome"`
	Duplicate  bool   `bson:"duplicate"`
	Reason     string `bson:"reason"`
}

// RecordCallback stores one received payment callback.
func (s *Store) RecordCallback(ctx context.Context, r booking.CallbackRecord) error {
	_, err := s.col(colCallbacks).InsertOne(ctx, callbackDoc{
		ID: r.ID, ReceivedAt: nanos(r.ReceivedAt), Signature: string(r.Signature),
		EventID: r.EventID, EventType: r.EventType, PaymentID: r.PaymentID,
		Status: r.Status, Outcome: r.Outcome, Duplicate: r.Duplicate, Reason: r.Reason,
	})
	if err != nil {
		return fmt.Errorf("mongo: record callback: %w", err)
	}
	return nil
}

// Callbacks lists the records q selects, oldest first. A show's are those
// naming a payment of one of its bookings, found through the bookings'
// show_state index first.
func (s *Store) Callbacks(ctx context.Context, q booking.CallbackQuery) ([]booking.CallbackRecord, error) {
	filter := bson.D{}
	switch {
	case q.PaymentID != "":
		filter = bson.D{{Key: "payment_id", Value: q.PaymentID}}
	case q.ShowID != "":
		var paymentIDs []string
		res := s.col(colBookings).Distinct(ctx, "payment_id", bson.D{{Key: "show_id", Value: q.ShowID}})
		// DistinctResult.Decode does not return the operation's error,
		// whatever its doc comment says (driver v2.10.0,
		// mongo/results.go): Err is asked first.
		err := res.Err()
		if err == nil {
			err = res.Decode(&paymentIDs)
		}
		if err != nil && !errors.Is(err, mongo.ErrNoDocuments) {
			return nil, fmt.Errorf("mongo: callbacks: payments of show: %w", err)
		}
		if len(paymentIDs) == 0 {
			return []booking.CallbackRecord{}, nil
		}
		filter = bson.D{{Key: "payment_id", Value: bson.D{{Key: "$in", Value: paymentIDs}}}}
	}
	opts := options.Find().SetSort(bson.D{{Key: "received_at", Value: -1}, {Key: "_id", Value: -1}})
	if q.Limit > 0 {
		opts.SetLimit(int64(q.Limit))
	}
	cur, err := s.col(colCallbacks).Find(ctx, filter, opts)
	if err != nil {
		return nil, fmt.Errorf("mongo: callbacks: %w", err)
	}
	var docs []callbackDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: callbacks: %w", err)
	}
	list := make([]booking.CallbackRecord, 0, len(docs))
	for _, d := range docs {
		list = append(list, booking.CallbackRecord{
			ID: d.ID, ReceivedAt: fromNanos(d.ReceivedAt), Signature: booking.SignatureVerdict(d.Signature),
			EventID: d.EventID, EventType: d.EventType, PaymentID: d.PaymentID,
			Status: d.Status, Outcome: d.Outcome, Duplicate: d.Duplicate, Reason: d.Reason,
		})
	}
	return list, nil
}
