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

// Numbering the queue (booking.QueueTx, run by booking.NumberQueueStep in
// Atomically) and reading a position. A queue document is stored with
// unnumbered: true (JoinQueue); numbering sets its position and unsets
// unnumbered, which takes it out of the partial indexes that numbering
// reads from the front (a partial index takes $eq and $exists filters,
// not position: null). The on-sale's document keeps how far its queue is
// numbered: numbered and early_numbered.

// Names of the queue's indexes that numbering and the position read rely
// on.
const (
	queueUnnumberedRankIndex = "onsale_unnumbered_rank"
	queueUnnumberedTimeIndex = "onsale_unnumbered_joined"
	queuePositionIndex       = "onsale_position"
	queueOnSaleIndex         = "onsale_id"
)

// unnumbered is the filter of the partial indexes of the entries not
// numbered yet.
func unnumbered() bson.D {
	return bson.D{{Key: "unnumbered", Value: bson.D{{Key: "$eq", Value: true}}}}
}

// queueNumberIndexes are the queue's indexes (Migrate makes them): the
// unnumbered entries of a queue in each order, one position at most once
// in a queue, and every entry of a queue. The partial ones cannot serve a
// filter on onsale alone (a query must imply an index's filter to use it,
// and $exists: false or position: null cannot be one), so without
// onsale_id CountQueue (the admin's on-sale page) and pruning a closed
// on-sale's queue (a Find by onsale, again after each batch deleted)
// would scan the whole collection, every on-sale's queue; with it, one
// covered range (SQLite's primary key (onsale_id, join_id) serves both).
func queueNumberIndexes() map[string][]mongo.IndexModel {
	return map[string][]mongo.IndexModel{
		colQueue: {
			{
				Keys: bson.D{{Key: "onsale", Value: 1}, {Key: "before", Value: 1}, {Key: "rank", Value: 1}, {Key: "_id", Value: 1}},
				Options: options.Index().SetName(queueUnnumberedRankIndex).
					SetPartialFilterExpression(unnumbered()),
			},
			{
				Keys: bson.D{{Key: "onsale", Value: 1}, {Key: "joined_at", Value: 1}, {Key: "_id", Value: 1}},
				Options: options.Index().SetName(queueUnnumberedTimeIndex).
					SetPartialFilterExpression(unnumbered()),
			},
			{
				Keys:    bson.D{{Key: "onsale", Value: 1}, {Key: "_id", Value: 1}},
				Options: options.Index().SetName(queueOnSaleIndex),
			},
			{
				Keys: bson.D{{Key: "onsale", Value: 1}, {Key: "position", Value: 1}},
				Options: options.Index().SetName(queuePositionIndex).SetUnique(true).
					SetPartialFilterExpression(bson.D{{Key: "position", Value: bson.D{{Key: "$exists", Value: true}}}}),
			},
		},
	}
}

// convertQueuePositions is conversion 0025_queue_positions: the entries
// stored before queues were numbered get unnumbered: true, so that
// numbering finds them, and the indexes the counted positions used go.
// Idempotent: an entry numbered since has a position and is left alone.
func convertQueuePositions(ctx context.Context, s *Store) error {
	_, err := s.col(colQueue).UpdateMany(ctx, bson.D{
		{Key: "position", Value: bson.D{{Key: "$exists", Value: false}}},
		{Key: "unnumbered", Value: bson.D{{Key: "$exists", Value: false}}},
	}, bson.D{{Key: "$set", Value: bson.D{{Key: "unnumbered", Value: true}}}})
	if err != nil {
		return err
	}
	for _, name := range []string{"onsale_before_rank", "onsale_before_joined"} {
		if err := s.col(colQueue).Indexes().DropOne(ctx, name); err != nil && !hasCode(err, codeIndexNotFound) {
			return fmt.Errorf("drop %s: %w", name, err)
		}
	}
	return nil
}

// queueNumberingDoc is how far an on-sale's queue is numbered, as its
// on-sale document keeps it (absent: nothing yet).
type queueNumberingDoc struct {
	Numbered      int64 `bson:"numbered"`
	EarlyNumbered bool  `bson:"early_numbered"`
}

func (t *tx) QueueNumbering(onSaleID string) (booking.QueueNumbering, error) {
	var d queueNumberingDoc
	err := t.s.col(colOnSales).FindOne(t.ctx, byID(onSaleID), options.FindOne().SetProjection(bson.D{
		{Key: "numbered", Value: 1}, {Key: "early_numbered", Value: 1},
	})).Decode(&d)
	if err != nil {
		return booking.QueueNumbering{}, noDoc(err, booking.ErrOnSaleNotFound, "read queue numbering")
	}
	return booking.QueueNumbering{Numbered: int(d.Numbered), EarlyDone: d.EarlyNumbered}, nil
}

// UnnumberedQueue reads the front of one of the partial indexes.
func (t *tx) UnnumberedQueue(onSaleID string, early bool, limit int) ([]string, error) {
	filter := bson.D{{Key: "onsale", Value: onSaleID}, {Key: "unnumbered", Value: true}}
	sort := bson.D{{Key: "joined_at", Value: 1}, {Key: "_id", Value: 1}}
	hint := queueUnnumberedTimeIndex
	if early {
		filter = bson.D{{Key: "onsale", Value: onSaleID}, {Key: "before", Value: true}, {Key: "unnumbered", Value: true}}
		sort = bson.D{{Key: "rank", Value: 1}, {Key: "_id", Value: 1}}
		hint = queueUnnumberedRankIndex
	}
	cur, err := t.s.col(colQueue).Find(t.ctx, filter, options.Find().
		SetSort(sort).SetLimit(int64(limit)).SetHint(hint).SetProjection(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("read unnumbered queue: %w", err)
	}
	var docs []idDoc
	if err := cur.All(t.ctx, &docs); err != nil {
		return nil, fmt.Errorf("read unnumbered queue: %w", err)
	}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	return ids, nil
}

// NumberQueue is one BulkWrite of an UpdateOne by _id per entry.
func (t *tx) NumberQueue(onSaleID string, joinIDs []string, from int) error {
	if len(joinIDs) == 0 {
		return nil
	}
	models := make([]mongo.WriteModel, len(joinIDs))
	for i, id := range joinIDs {
		models[i] = mongo.NewUpdateOneModel().
			SetFilter(bson.D{{Key: "_id", Value: id}, {Key: "onsale", Value: onSaleID}}).
			SetUpdate(bson.D{
				{Key: "$set", Value: bson.D{{Key: "position", Value: int64(from + i)}}},
				{Key: "$unset", Value: bson.D{{Key: "unnumbered", Value: ""}}},
			})
	}
	res, err := t.s.col(colQueue).BulkWrite(t.ctx, models, options.BulkWrite().SetOrdered(true))
	if err != nil {
		return fmt.Errorf("number queue: %w", err)
	}
	if res.MatchedCount != int64(len(joinIDs)) {
		return fmt.Errorf("number queue: %d of %d entries found", res.MatchedCount, len(joinIDs))
	}
	return nil
}

func (t *tx) SetQueueNumbering(onSaleID string, n booking.QueueNumbering) error {
	_, err := t.s.col(colOnSales).UpdateOne(t.ctx, byID(onSaleID), bson.D{{Key: "$set", Value: bson.D{
		{Key: "numbered", Value: int64(n.Numbered)},
		{Key: "early_numbered", Value: n.EarlyDone},
	}}})
	if err != nil {
		return fmt.Errorf("update queue numbering: %w", err)
	}
	return nil
}

// queuePositionDoc is a queue entry's position, absent until numbered.
type queuePositionDoc struct {
	Position *int64 `bson:"position"`
}

// QueuePosition reads the entry's position by its _id.
func (s *Store) QueuePosition(ctx context.Context, onSaleID, joinID string) (int, bool, error) {
	var d queuePositionDoc
	err := s.col(colQueue).FindOne(ctx, bson.D{{Key: "_id", Value: joinID}, {Key: "onsale", Value: onSaleID}},
		options.FindOne().SetProjection(bson.D{{Key: "position", Value: 1}})).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("mongo: queue position: %w", err)
	}
	if d.Position == nil {
		return 0, false, nil
	}
	return int(*d.Position), true, nil
}
