package mongo

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"boxoffice/internal/booking"
)

// ListOccupancy is the admin's overview as one aggregation on shows: the
// shows f selects (starts_at or theatre_starts_at index), then for each a
// $lookup of its seats counted by status, by "available online"'s own
// filter form (onlineRule, as Occupancy does) and reserved, from the
// show_status_locked_reserve index
// alone (occupancyFields says why the planner can), and a $lookup of its
// bookings (show_state index) summed. No seat leaves the database, nor is
// one read from the collection.
func (s *Store) ListOccupancy(ctx context.Context, f booking.ShowFilter, m booking.Moment) ([]booking.ShowOccupancy, error) {
	cur, err := s.col(colShows).Aggregate(ctx, listOccupancyPipeline(f, m))
	if err != nil {
		return nil, fmt.Errorf("mongo: list occupancy: %w", err)
	}
	var docs []struct {
		showDoc    `bson:",inline"`
		SeatCounts []seatCounts `bson:"seat_counts"`
		Money      []struct {
			Revenue    int64 `bson:"revenue"`
			RefundsDue int   `bson:"refunds_due"`
		} `bson:"money"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: list occupancy: %w", err)
	}
	list := make([]booking.ShowOccupancy, 0, len(docs))
	for _, d := range docs {
		so := booking.ShowOccupancy{Show: d.show(), Occupancy: occupancyOf(d.SeatCounts)}
		if len(d.Money) == 1 {
			so.Revenue, so.RefundsDue = booking.Money(d.Money[0].Revenue), d.Money[0].RefundsDue
		}
		list = append(list, so)
	}
	return list, nil
}

// listOccupancyPipeline is ListOccupancy's aggregation on shows.
func listOccupancyPipeline(f booking.ShowFilter, m booking.Moment) mongo.Pipeline {
	match := bson.D{}
	starts := bson.D{}
	if !f.From.IsZero() {
		starts = append(starts, bson.E{Key: "$gte", Value: nanos(f.From)})
	}
	if !f.To.IsZero() {
		starts = append(starts, bson.E{Key: "$lt", Value: nanos(f.To)})
	}
	if len(starts) > 0 {
		match = append(match, bson.E{Key: "starts_at", Value: starts})
	}
	if f.TheatreID != "" {
		match = append(match, bson.E{Key: "theatre.id", Value: f.TheatreID})
	}
	dir := 1
	if f.Newest {
		dir = -1
	}
	pipeline := mongo.Pipeline{
		{{Key: "$match", Value: match}},
		{{Key: "$sort", Value: bson.D{{Key: "starts_at", Value: dir}, {Key: "_id", Value: dir}}}},
	}
	// $skip before $limit: the planner folds both into the sort on the
	// index, so only the page's shows reach the $lookups.
	if f.Offset > 0 {
		pipeline = append(pipeline, bson.D{{Key: "$skip", Value: int64(f.Offset)}})
	}
	if f.Limit > 0 {
		pipeline = append(pipeline, bson.D{{Key: "$limit", Value: f.Limit}})
	}
	pipeline = append(pipeline,
		bson.D{{Key: "$lookup", Value: bson.D{
			{Key: "from", Value: colSeats},
			{Key: "localField", Value: "_id"},
			{Key: "foreignField", Value: "show_id"},
			{Key: "pipeline", Value: bson.A{occupancyFields, occupancyFacet(m)}},
			{Key: "as", Value: "seat_counts"},
		}}},
		bson.D{{Key: "$lookup", Value: bson.D{
			{Key: "from", Value: colBookings},
			{Key: "localField", Value: "_id"},
			{Key: "foreignField", Value: "show_id"},
			{Key: "pipeline", Value: bson.A{
				bson.D{{Key: "$group", Value: bson.D{
					{Key: "_id", Value: nil},
					{Key: "revenue", Value: bson.D{{Key: "$sum", Value: bson.D{{Key: "$cond", Value: bson.A{
						bson.D{{Key: "$eq", Value: bson.A{"$state", string(booking.BookingConfirmed)}}}, "$amount", 0,
					}}}}}},
					{Key: "refunds_due", Value: bson.D{{Key: "$sum", Value: bson.D{{Key: "$cond", Value: bson.A{
						// booking.Booking.RefundPending: refund_due alone.
						bson.D{{Key: "$eq", Value: bson.A{"$state", string(booking.BookingRefundDue)}}}, 1, 0,
					}}}}}},
				}}},
			}},
			{Key: "as", Value: "money"},
		}}},
	)
	return pipeline
}

// Theatres lists the theatres that have shows, by name.
func (s *Store) Theatres(ctx context.Context) ([]booking.Theatre, error) {
	cur, err := s.col(colShows).Aggregate(ctx, mongo.Pipeline{
		{{Key: "$group", Value: bson.D{
			{Key: "_id", Value: "$theatre.id"},
			{Key: "name", Value: bson.D{{Key: "$min", Value: "$theatre.name"}}},
			{Key: "city", Value: bson.D{{Key: "$min", Value: "$theatre.city"}}},
		}}},
		{{Key: "$sort", Value: bson.D{{Key: "name", Value: 1}, {Key: "_id", Value: 1}}}},
	})
	if err != nil {
		return nil, fmt.Errorf("mongo: theatres: %w", err)
	}
	var docs []struct {
		ID   string `bson:"_id"`
		Name string `bson:"name"`
		City string `bson:"city"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: theatres: %w", err)
	}
	list := make([]booking.Theatre, 0, len(docs))
	for _, d := range docs {
		list = append(list, booking.Theatre{ID: d.ID, Name: d.Name, City: d.City})
	}
	return list, nil
}
