package mongo

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

var _ booking.OnSaleStore = (*Store)(nil)

// onSaleDoc is an on-sale (SPEC §18) with the ids of the shows it covers
// and its admission segments. Times are Unix ns, ClosedAt 0 while open.
type onSaleDoc struct {
	ID        string       `bson:"_id"`
	Name      string       `bson:"name"`
	OpensAt   int64        `bson:"opens_at"`
	ClosesAt  int64        `bson:"closes_at"`
	PassTTL   int64        `bson:"pass_ttl"` // ns
	Key       []byte       `bson:"key"`
	Shows     []string     `bson:"shows"`
	Segments  []segmentDoc `bson:"segments"`
	ClosedAt  int64        `bson:"closed_at"`
	CreatedAt int64        `bson:"created_at"`
}

type segmentDoc struct {
	From   int64 `bson:"from"`
	Rate   int   `bson:"rate"`
	Paused bool  `bson:"paused"`
}

func toOnSaleDoc(o booking.OnSale) onSaleDoc {
	return onSaleDoc{
		ID: o.ID, Name: o.Name, OpensAt: nanos(o.OpensAt), ClosesAt: nanos(o.ClosesAt), PassTTL: int64(o.PassTTL),
		Key: o.Key, Shows: o.Shows, Segments: toSegmentDocs(o.Segments), ClosedAt: nanos(o.ClosedAt), CreatedAt: nanos(o.CreatedAt),
	}
}

func toSegmentDocs(segs []booking.Segment) []segmentDoc {
	out := make([]segmentDoc, len(segs))
	for i, s := range segs {
		out[i] = segmentDoc{From: nanos(s.From), Rate: s.Rate, Paused: s.Paused}
	}
	return out
}

func (d onSaleDoc) onSale() booking.OnSale {
	o := booking.OnSale{
		ID: d.ID, Name: d.Name, OpensAt: fromNanos(d.OpensAt), ClosesAt: fromNanos(d.ClosesAt), PassTTL: time.Duration(d.PassTTL),
		Key: d.Key, Shows: d.Shows, ClosedAt: fromNanos(d.ClosedAt), CreatedAt: fromNanos(d.CreatedAt),
	}
	if o.Shows == nil {
		o.Shows = []string{}
	}
	for _, s := range d.Segments {
		o.Segments = append(o.Segments, booking.Segment{From: fromNanos(s.From), Rate: s.Rate, Paused: s.Paused})
	}
	return o
}

// queueDoc is one join of an on-sale's queue; its _id is the join id.
// Unnumbered is true until numbering gives it a position, which unsets it
// (queue_number.go).
type queueDoc struct {
	JoinID     string `bson:"_id"`
	OnSale     string `bson:"onsale"`
	JoinedAt   int64  `bson:"joined_at"`
	Before     bool   `bson:"before"`
	Rank       string `bson:"rank"`
	Unnumbered bool   `bson:"unnumbered,omitempty"`
}

// OnSale returns one on-sale.
func (s *Store) OnSale(ctx context.Context, id string) (booking.OnSale, error) {
	var d onSaleDoc
	if err := s.col(colOnSales).FindOne(ctx, byID(id)).Decode(&d); err != nil {
		return booking.OnSale{}, notFound(err, booking.ErrOnSaleNotFound, "on-sale")
	}
	return d.onSale(), nil
}

// ListOnSales lists every on-sale, the latest opening first.
func (s *Store) ListOnSales(ctx context.Context) ([]booking.OnSale, error) {
	out, err := findOnSales(ctx, s.col(colOnSales), bson.D{},
		options.Find().SetSort(bson.D{{Key: "opens_at", Value: -1}, {Key: "_id", Value: 1}}))
	return out, wrap("list on-sales", err)
}

// OpenOnSales lists the on-sales open at now, by the closes_at index.
func (s *Store) OpenOnSales(ctx context.Context, now time.Time) ([]booking.OnSale, error) {
	out, err := findOnSales(ctx, s.col(colOnSales), bson.D{{Key: "closes_at", Value: bson.D{{Key: "$gt", Value: nanos(now)}}}},
		options.Find().SetSort(bson.D{{Key: "opens_at", Value: 1}, {Key: "_id", Value: 1}}))
	return out, wrap("open on-sales", err)
}

func findOnSales(ctx context.Context, col *mongo.Collection, filter bson.D, opts ...options.Lister[options.FindOptions]) ([]booking.OnSale, error) {
	cur, err := col.Find(ctx, filter, opts...)
	if err != nil {
		return nil, err
	}
	var docs []onSaleDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	out := make([]booking.OnSale, len(docs))
	for i, d := range docs {
		out[i] = d.onSale()
	}
	return out, nil
}

// JoinQueue inserts e: one InsertOne, outside any transaction.
func (s *Store) JoinQueue(ctx context.Context, e booking.QueueEntry) error {
	_, err := s.col(colQueue).InsertOne(ctx, queueDoc{
		JoinID: e.JoinID, OnSale: e.OnSaleID, JoinedAt: nanos(e.JoinedAt), Before: e.Before, Rank: e.Rank, Unnumbered: true,
	})
	return wrap("join queue", err)
}

// CountQueue counts an on-sale's queue entries (a range of onsale_id).
func (s *Store) CountQueue(ctx context.Context, onSaleID string) (int, error) {
	n, err := s.col(colQueue).CountDocuments(ctx, bson.D{{Key: "onsale", Value: onSaleID}})
	if err != nil {
		return 0, fmt.Errorf("mongo: count queue: %w", err)
	}
	return int(n), nil
}

// pruneOnSales deletes, up to limit, the queue entries of the on-sales
// closed before cut, then those on-sales once they have none left.
func (s *Store) pruneOnSales(ctx context.Context, cut int64, limit int) (int, error) {
	cur, err := s.col(colOnSales).Find(ctx, bson.D{{Key: "closes_at", Value: bson.D{{Key: "$lt", Value: cut}}}},
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}).SetLimit(pruneStep))
	if err != nil {
		return 0, err
	}
	var docs []idDoc
	if err := cur.All(ctx, &docs); err != nil {
		return 0, err
	}
	if len(docs) == 0 {
		return 0, nil
	}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	n, err := s.deleteInSteps(ctx, colQueue, bson.D{{Key: "onsale", Value: bson.D{{Key: "$in", Value: ids}}}}, limit)
	if err != nil || n >= limit {
		return n, err
	}
	k, err := s.deleteInSteps(ctx, colOnSales, bson.D{
		{Key: "_id", Value: bson.D{{Key: "$in", Value: ids}}},
		{Key: "closes_at", Value: bson.D{{Key: "$lt", Value: cut}}},
	}, limit-n)
	return n + k, err
}
