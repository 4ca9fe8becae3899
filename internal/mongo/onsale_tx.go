package mongo

import (
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// The on-sale steps' reads and writes (booking.OnSaleTx).

func (t *tx) OnSaleByID(id string) (booking.OnSale, error) {
	var d onSaleDoc
	if err := t.s.col(colOnSales).FindOne(t.ctx, byID(id)).Decode(&d); err != nil {
		return booking.OnSale{}, noDoc(err, booking.ErrOnSaleNotFound, "read on-sale")
	}
	return d.onSale(), nil
}

// OpenOnSalesCovering reads by shows_closes_at. A creation serialises on
// each show it covers (booking.CreateOnSaleStep), so that two at once,
// which each read no on-sale of the other, conflict on the guard.
func (t *tx) OpenOnSalesCovering(showIDs []string, now time.Time) ([]booking.OnSale, error) {
	out, err := findOnSales(t.ctx, t.s.col(colOnSales), bson.D{
		{Key: "shows", Value: bson.D{{Key: "$in", Value: showIDs}}},
		{Key: "closes_at", Value: bson.D{{Key: "$gt", Value: nanos(now)}}},
	})
	if err != nil {
		return nil, fmt.Errorf("read on-sales covering: %w", err)
	}
	return out, nil
}

func (t *tx) ShowsOfMovie(movieID string) ([]booking.Show, error) {
	cur, err := t.s.col(colShows).Find(t.ctx, bson.D{{Key: "movie.id", Value: movieID}},
		options.Find().SetSort(bson.D{{Key: "starts_at", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("read shows of movie: %w", err)
	}
	var docs []showDoc
	if err := cur.All(t.ctx, &docs); err != nil {
		return nil, fmt.Errorf("read shows of movie: %w", err)
	}
	out := make([]booking.Show, len(docs))
	for i, d := range docs {
		out[i] = d.show()
	}
	return out, nil
}

func (t *tx) InsertOnSale(o booking.OnSale) error {
	if _, err := t.s.col(colOnSales).InsertOne(t.ctx, toOnSaleDoc(o)); err != nil {
		return fmt.Errorf("insert on-sale: %w", err)
	}
	return nil
}

func (t *tx) SetOnSale(o booking.OnSale) error {
	_, err := t.s.col(colOnSales).UpdateOne(t.ctx, byID(o.ID), bson.D{{Key: "$set", Value: bson.D{
		{Key: "segments", Value: toSegmentDocs(o.Segments)},
		{Key: "closes_at", Value: nanos(o.ClosesAt)},
		{Key: "closed_at", Value: nanos(o.ClosedAt)},
	}}})
	if err != nil {
		return fmt.Errorf("update on-sale: %w", err)
	}
	return nil
}

func (t *tx) SetShowSalesOpen(showID string, at time.Time) error {
	_, err := t.s.col(colShows).UpdateOne(t.ctx, byID(showID), bson.D{{Key: "$set", Value: bson.D{{Key: "sales_open_at", Value: nanos(at)}}}})
	if err != nil {
		return fmt.Errorf("set sales opening: %w", err)
	}
	return nil
}
