package mongo

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// seatDoc is one seat of one show. Its _id is "<show id>/<seat id>", derived
// from the seat key, so that a seat is one document whatever index exists.
type seatDoc struct {
	ID        string `bson:"_id"`
	ShowID    string `bson:"show_id"`
	SeatID    string `bson:"seat_id"`
	Row       string `bson:"row"`
	Number    int    `bson:"number"`
	GridRow   int    `bson:"grid_row"`
	GridCol   int    `bson:"grid_col"`
	Category  string `bson:"category"`
	Price     int64  `bson:"price"`
	Kind      string `bson:"kind"`
	Status    string `bson:"status"`
	LockedAt  int64  `bson:"locked_at"` // Unix ns; 0 unless locked
	HoldID    string `bson:"hold_id"`   // "" unless locked
	BookingID string `bson:"booking_id"`
	// Reserve is the seat's reserve (SPEC §16): house or blocked; absent
	// (or "") for none, as every seat stored before reserves is.
	Reserve string `bson:"reserve,omitempty"`
}

func seatKey(showID, seatID string) string { return showID + "/" + seatID }

func toSeatDoc(showID string, s booking.Seat) seatDoc {
	return seatDoc{
		ID: seatKey(showID, s.ID), ShowID: showID, SeatID: s.ID,
		Row: s.Row, Number: s.Number, GridRow: s.GridRow, GridCol: s.GridCol,
		Category: s.Category, Price: int64(s.Price), Kind: string(s.Kind),
		Status: string(booking.SeatAvailable),
	}
}

func (d seatDoc) seat() booking.Seat {
	return booking.Seat{
		ShowID: d.ShowID, ID: d.SeatID, Row: d.Row, Number: d.Number,
		GridRow: d.GridRow, GridCol: d.GridCol, Category: d.Category,
		Price: booking.Money(d.Price), Kind: booking.SeatKind(d.Kind),
		Status: booking.SeatStatus(d.Status), LockedAt: fromNanos(d.LockedAt),
		HoldID: d.HoldID, BookingID: d.BookingID, Reserve: booking.SeatReserve(d.Reserve),
	}
}

// seatRule is the seat rule of SPEC §1 (booking.SeatIsAvailable) as a query
// filter element, the only place the adapter writes it: a seat is available
// when its status is available, or when it is locked and locked_at is at or
// before m's cutoff (booking.Moment.LapsedBefore, the same comparison as
// booking.LockLapsed, exact because both sides are integer nanoseconds).
// The seat map's available list, the listing's seats left and occupancy
// use it; the steps decide in Go on the seats they read.
func seatRule(m booking.Moment) bson.E {
	alternatives := bson.A{
		bson.D{{Key: "status", Value: string(booking.SeatAvailable)}},
		bson.D{
			{Key: "status", Value: string(booking.SeatLocked)},
			{Key: "locked_at", Value: bson.D{{Key: "$lte", Value: nanos(m.LapsedBefore())}}},
		},
	}
	return bson.E{Key: "$or", Value: alternatives}
}

// noReserve is the rest of "available online" of SPEC §1
// (booking.SeatIsAvailableOnline) as a filter element: no reserve, the
// field absent, null or "". With seatRule beside it in one filter it is
// the rule's query form, onlineRule.
var noReserve = bson.E{Key: "reserve", Value: bson.D{{Key: "$in", Value: bson.A{nil, ""}}}}

// onlineRule is "available online" as filter elements: the seat rule and
// no reserve.
func onlineRule(m booking.Moment) bson.D { return bson.D{seatRule(m), noReserve} }

// reserved selects the seats with a reserve that are not booked, which
// booking.CountOccupancy counts as Reserved: the exact complement of
// noReserve, whatever value a seat's reserve has.
var reserved = bson.D{
	{Key: "reserve", Value: bson.D{{Key: "$nin", Value: bson.A{nil, ""}}}},
	{Key: "status", Value: bson.D{{Key: "$ne", Value: string(booking.SeatBooked)}}},
}

// lockedBy selects the seats of a show that hold holdID still locks.
func lockedBy(showID, holdID string) bson.D {
	return bson.D{
		{Key: "show_id", Value: showID},
		{Key: "hold_id", Value: holdID},
		{Key: "status", Value: string(booking.SeatLocked)},
	}
}

// releaseUpdate sets seats back to available. Nothing else ever does: a lock
// that lapsed stays written as locked until someone takes or releases it.
var releaseUpdate = bson.D{{Key: "$set", Value: bson.D{
	{Key: "status", Value: string(booking.SeatAvailable)},
	{Key: "hold_id", Value: ""},
	{Key: "locked_at", Value: int64(0)},
}}}

// mapOrder sorts seats as booking.Store.Seats promises: by grid place, and
// seats in one place (which CreateShow does not forbid) by seat_id, bytewise
// as SQLite's BINARY collation orders them, so that both stores and every
// read agree. The show_grid_seat index has these keys after show_id, so an
// equality on show_id reads seats in this order with no sort in memory.
var mapOrder = bson.D{{Key: "grid_row", Value: 1}, {Key: "grid_col", Value: 1}, {Key: "seat_id", Value: 1}}

// Seats returns the seats of a show in map order, as stored. The show is
// looked up first (one _id lookup), so that seats left behind by a
// CreateShow that failed and could not clean up are never shown as a show.
func (s *Store) Seats(ctx context.Context, showID string) ([]booking.Seat, error) {
	if err := s.showExists(ctx, showID); err != nil {
		return nil, err
	}
	seats, err := findSeats(ctx, s.col(colSeats), bson.D{{Key: "show_id", Value: showID}})
	if err != nil {
		return nil, fmt.Errorf("mongo: seats: %w", err)
	}
	return seats, nil
}

// AvailableSeatIDs lists the seats that the query form of "available
// online" (onlineRule) finds at m, in map order.
func (s *Store) AvailableSeatIDs(ctx context.Context, showID string, m booking.Moment) ([]string, error) {
	filter := append(bson.D{{Key: "show_id", Value: showID}}, onlineRule(m)...)
	cur, err := s.col(colSeats).Find(ctx, filter, options.Find().
		SetSort(mapOrder).SetProjection(bson.D{{Key: "seat_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("mongo: available seats: %w", err)
	}
	var docs []struct {
		SeatID string `bson:"seat_id"`
	}
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: available seats: %w", err)
	}
	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		ids = append(ids, d.SeatID)
	}
	if len(ids) == 0 {
		if err := s.showExists(ctx, showID); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// Occupancy counts a show's seats at m in one aggregation: seats by status,
// the available ones by "available online"'s own filter (onlineRule, not a
// second expression of it), and the reserved ones not booked, so held =
// total - booked - available - reserved exactly as booking.CountOccupancy
// counts. It reads the show_status_locked_reserve index, not the seats
// (occupancyFields).
func (s *Store) Occupancy(ctx context.Context, showID string, m booking.Moment) (booking.Occupancy, error) {
	cur, err := s.col(colSeats).Aggregate(ctx, occupancyPipeline(showID, m))
	if err != nil {
		return booking.Occupancy{}, fmt.Errorf("mongo: occupancy: %w", err)
	}
	var out []seatCounts
	if err := cur.All(ctx, &out); err != nil {
		return booking.Occupancy{}, fmt.Errorf("mongo: occupancy: %w", err)
	}
	o := occupancyOf(out)
	if o.Total == 0 {
		if err := s.showExists(ctx, showID); err != nil {
			return booking.Occupancy{}, err
		}
	}
	return o, nil
}

// occupancyPipeline is Occupancy's aggregation on seats.
func occupancyPipeline(showID string, m booking.Moment) mongo.Pipeline {
	return mongo.Pipeline{
		{{Key: "$match", Value: bson.D{{Key: "show_id", Value: showID}}}},
		occupancyFields,
		occupancyFacet(m),
	}
}

// findSeats runs a seat query and returns the seats in map order.
func findSeats(ctx context.Context, c *mongo.Collection, filter bson.D) ([]booking.Seat, error) {
	cur, err := c.Find(ctx, filter, options.Find().SetSort(mapOrder))
	if err != nil {
		return nil, err
	}
	var docs []seatDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, err
	}
	seats := make([]booking.Seat, 0, len(docs))
	for _, d := range docs {
		seats = append(seats, d.seat())
	}
	return seats, nil
}

// seatsOf reads the named seats of a show.
func seatsOf(ctx context.Context, c *mongo.Collection, showID string, seatIDs []string) ([]booking.Seat, error) {
	return findSeats(ctx, c, bson.D{
		{Key: "show_id", Value: showID},
		{Key: "seat_id", Value: bson.D{{Key: "$in", Value: seatIDs}}},
	})
}

// occupancyFields keeps of each seat what occupancyFacet reads: status,
// locked_at and reserve ("available online" reads no more). Placed
// right after an equality on show_id — Occupancy's $match, or the one a
// $lookup on foreignField show_id puts in front of its pipeline — it lets
// the planner answer both from the show_status_locked_reserve index
// {show_id, status, locked_at, reserve} alone (a seat without a reserve
// is indexed, and projected, as null, which noReserve takes as none): the equality bounds the scan to the
// show's entries, every field left is in the index, and _id, which is not,
// is dropped, so the plan is an index scan with a covered projection and
// no FETCH. The other indexes on show_id (show_seat, show_hold,
// show_grid_seat) would have to fetch every seat document; the plan ranker
// prefers a plan without a fetch, and this one also does less work per
// seat, so it wins the trial. No field is an array (the index is not
// multikey) and every seat document has both fields, which a covered
// projection needs. Without this stage the pipeline would depend on
// $facet's dependency analysis to narrow what the query reads.
var occupancyFields = bson.D{{Key: "$project", Value: bson.D{
	{Key: "_id", Value: 0}, {Key: "status", Value: 1}, {Key: "locked_at", Value: 1}, {Key: "reserve", Value: 1},
}}}

// occupancyFacet counts a show's seats in one stage: by stored status,
// those available online by onlineRule's filter, so the rule is not
// written a second time in expression syntax, and those reserved and not
// booked. Held is what is left (occupancyOf). It reads status, locked_at
// and reserve only, which occupancyFields keeps.
func occupancyFacet(m booking.Moment) bson.D {
	return bson.D{{Key: "$facet", Value: bson.D{
		{Key: "by_status", Value: bson.A{
			bson.D{{Key: "$group", Value: bson.D{
				{Key: "_id", Value: "$status"},
				{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}},
			}}},
		}},
		{Key: "available", Value: bson.A{
			bson.D{{Key: "$match", Value: onlineRule(m)}},
			bson.D{{Key: "$count", Value: "n"}},
		}},
		{Key: "reserved", Value: bson.A{
			bson.D{{Key: "$match", Value: reserved}},
			bson.D{{Key: "$count", Value: "n"}},
		}},
	}}}
}

// seatCounts is what occupancyFacet yields.
type seatCounts struct {
	ByStatus []struct {
		Status string `bson:"_id"`
		N      int    `bson:"n"`
	} `bson:"by_status"`
	Available []struct {
		N int `bson:"n"`
	} `bson:"available"`
	Reserved []struct {
		N int `bson:"n"`
	} `bson:"reserved"`
}

// occupancyOf turns occupancyFacet's output (one document, or none for a
// show without seats) into counts.
func occupancyOf(out []seatCounts) booking.Occupancy {
	var o booking.Occupancy
	if len(out) == 1 {
		for _, g := range out[0].ByStatus {
			o.Total += g.N
			if g.Status == string(booking.SeatBooked) {
				o.Booked += g.N
			}
		}
		if len(out[0].Available) == 1 {
			o.Available = out[0].Available[0].N
		}
		if len(out[0].Reserved) == 1 {
			o.Reserved = out[0].Reserved[0].N
		}
	}
	o.Held = o.Total - o.Booked - o.Available - o.Reserved
	return o
}
