package mongo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// showDoc is a show with what never changes about its seats (how many, the
// price range), so that listings need to count only the seats left.
type showDoc struct {
	ID         string     `bson:"_id"`
	Movie      movieDoc   `bson:"movie"`
	Theatre    theatreDoc `bson:"theatre"`
	Screen     string     `bson:"screen"`
	ScreenID   string     `bson:"screen_id"` // "" for synthetic shows and in documents older than the catalog
	StartsAt   int64      `bson:"starts_at"` // Unix ns
	Currency   string     `bson:"currency"`
	SeatsTotal int        `bson:"seats_total"`
	MinPrice   int64      `bson:"min_price"`
	MaxPrice   int64      `bson:"max_price"`
	// CancelledAt is Unix ns, 0 while the show runs; documents written
	// before shows could be cancelled lack it and decode as 0.
	CancelledAt int64 `bson:"cancelled_at"`
}

type movieDoc struct {
	ID         string `bson:"id"`
	Title      string `bson:"title"`
	Rating     string `bson:"rating"`
	RuntimeMin int    `bson:"runtime_min"`
	Language   string `bson:"language"`
}

type theatreDoc struct {
	ID   string `bson:"id"`
	Name string `bson:"name"`
	City string `bson:"city"`
	// TimeZone is the theatre's IANA zone, "" in documents older than the
	// catalog.
	TimeZone string `bson:"tz"`
}

func (d showDoc) show() booking.Show {
	return booking.Show{
		ID: d.ID,
		Movie: booking.Movie{
			ID: d.Movie.ID, Title: d.Movie.Title, Rating: d.Movie.Rating,
			RuntimeMin: d.Movie.RuntimeMin, Language: d.Movie.Language,
		},
		Theatre: booking.Theatre{
			ID: d.Theatre.ID, Name: d.Theatre.Name, City: d.Theatre.City, TimeZone: d.Theatre.TimeZone,
		},
		Screen:      d.Screen,
		ScreenID:    d.ScreenID,
		StartsAt:    fromNanos(d.StartsAt),
		Currency:    d.Currency,
		CancelledAt: fromNanos(d.CancelledAt),
	}
}

// seatBatch is how many seats one InsertMany sends: big enough that a
// million seats take about a thousand round trips, small enough to keep each
// request far below MongoDB's 48 MB message limit.
const seatBatch = 1000

// CreateShow stores a show and its seats, all available. The seats go first
// and the show document last, so that a show is never listed with seats
// missing. It is not one transaction on purpose: `boxoffice seed` creates
// shows of a million seats, far beyond what a transaction should hold. So a
// failure after the first insert deletes, best effort, the seats of the show
// before returning, rather than leave seats of a show that does not exist
// (which would make every retry with that id fail). That is safe because the
// show document does not exist yet, and a hold reads the show first, so
// nobody can hold those seats; it assumes, as everywhere, that one show id is
// created once (ids are random).
func (s *Store) CreateShow(ctx context.Context, show booking.Show, seats []booking.Seat) error {
	// A seat listed twice would fail one insert of an unordered batch and
	// leave the others: refuse it before writing anything.
	seen := make(map[string]bool, len(seats))
	for _, st := range seats {
		if seen[st.ID] {
			return booking.Errorf(booking.EINVALID, "Show %s lists seat %s twice.", show.ID, st.ID)
		}
		seen[st.ID] = true
	}
	doc := showDoc{
		ID: show.ID,
		Movie: movieDoc{
			ID: show.Movie.ID, Title: show.Movie.Title, Rating: show.Movie.Rating,
			RuntimeMin: show.Movie.RuntimeMin, Language: show.Movie.Language,
		},
		Theatre: theatreDoc{
			ID: show.Theatre.ID, Name: show.Theatre.Name, City: show.Theatre.City, TimeZone: show.Theatre.TimeZone,
		},
		Screen:      show.Screen,
		ScreenID:    show.ScreenID,
		StartsAt:    nanos(show.StartsAt),
		Currency:    show.Currency,
		SeatsTotal:  len(seats),
		CancelledAt: nanos(show.CancelledAt),
	}
	for i, st := range seats {
		p := int64(st.Price)
		if i == 0 || p < doc.MinPrice {
			doc.MinPrice = p
		}
		if i == 0 || p > doc.MaxPrice {
			doc.MaxPrice = p
		}
	}
	switch err := s.showExists(ctx, show.ID); {
	case err == nil:
		return booking.ErrShowExists
	case !errors.Is(err, booking.ErrShowNotFound):
		return err
	}
	batch := make([]seatDoc, 0, min(seatBatch, len(seats)))
	// Unordered: the server may apply a batch's inserts in parallel.
	insertOpts := options.InsertMany().SetOrdered(false)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if _, err := s.col(colSeats).InsertMany(ctx, batch, insertOpts); err != nil {
			return err
		}
		batch = batch[:0]
		return nil
	}
	// The seats are distinct (checked above), so a duplicate key while
	// inserting them means another CreateShow of the same id (two
	// processes seeding the demo at once) got there first: its seats are
	// left alone.
	for _, st := range seats {
		batch = append(batch, toSeatDoc(show.ID, st))
		if len(batch) == seatBatch {
			if err := flush(); err != nil {
				return s.undoCreateShowUnlessTaken(ctx, show.ID, err)
			}
		}
	}
	if err := flush(); err != nil {
		return s.undoCreateShowUnlessTaken(ctx, show.ID, err)
	}
	if _, err := s.col(colShows).InsertOne(ctx, doc); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			// A concurrent CreateShow of the same id won: the seats
			// are its seats now, leave them.
			return booking.ErrShowExists
		}
		return s.undoCreateShow(ctx, show.ID, err)
	}
	return nil
}

// undoCreateShowUnlessTaken is undoCreateShow, except after a duplicate key:
// the seats are another CreateShow's of the same id, and it is
// ErrShowExists.
func (s *Store) undoCreateShowUnlessTaken(ctx context.Context, showID string, err error) error {
	if mongo.IsDuplicateKeyError(err) {
		return booking.ErrShowExists
	}
	return s.undoCreateShow(ctx, showID, err)
}

// undoCreateShow deletes the seats a failed CreateShow inserted, also when
// ctx is what ended it, and returns the error that ended it (with the
// cleanup's own failure, if any).
func (s *Store) undoCreateShow(ctx context.Context, showID string, err error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	_, derr := s.col(colSeats).DeleteMany(ctx, bson.D{{Key: "show_id", Value: showID}})
	if derr != nil {
		return errors.Join(createShowError(showID, err),
			fmt.Errorf("mongo: create show: deleting the seats of show %s after the failure: %w", showID, derr))
	}
	return createShowError(showID, err)
}

func createShowError(showID string, err error) error {
	if mongo.IsDuplicateKeyError(err) {
		return booking.Errorf(booking.EINVALID, "Show %s already exists or lists a seat twice.", showID)
	}
	return fmt.Errorf("mongo: create show: %w", err)
}

// CountShows counts all shows, past ones too.
func (s *Store) CountShows(ctx context.Context) (int, error) {
	n, err := s.col(colShows).CountDocuments(ctx, bson.D{})
	if err != nil {
		return 0, fmt.Errorf("mongo: count shows: %w", err)
	}
	return int(n), nil
}

// Show returns one show.
func (s *Store) Show(ctx context.Context, showID string) (booking.Show, error) {
	var d showDoc
	if err := s.col(colShows).FindOne(ctx, bson.D{{Key: "_id", Value: showID}}).Decode(&d); err != nil {
		return booking.Show{}, notFound(err, booking.ErrShowNotFound, "show")
	}
	return d.show(), nil
}

// showExists tells an empty answer about a show's seats from an unknown show.
func (s *Store) showExists(ctx context.Context, showID string) error {
	err := s.col(colShows).FindOne(ctx, bson.D{{Key: "_id", Value: showID}},
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	if err != nil {
		return notFound(err, booking.ErrShowNotFound, "show")
	}
	return nil
}

// onSaleProjection is what a hold or a payment reads of its show: what
// booking.Show.CheckOnSale decides on, and the currency a hold is priced in.
var onSaleProjection = bson.D{
	{Key: "starts_at", Value: 1}, {Key: "cancelled_at", Value: 1}, {Key: "currency", Value: 1},
}

// showOnSale reads a show inside the caller's transaction, so that a
// cancellation committed by another process is seen, and lets
// booking.Show.CheckOnSale decide; an unknown show is ErrShowNotFound. The
// document carries only onSaleProjection's fields.
func (s *Store) showOnSale(ctx context.Context, showID string, m booking.Moment) (showDoc, error) {
	var d showDoc
	err := s.col(colShows).FindOne(ctx, byID(showID), options.FindOne().SetProjection(onSaleProjection)).Decode(&d)
	if err != nil {
		return showDoc{}, noDoc(err, booking.ErrShowNotFound, "read show")
	}
	if err := d.show().CheckOnSale(m); err != nil {
		return showDoc{}, err
	}
	return d, nil
}

// notCancelled selects the shows that run: cancelled_at 0, or absent in
// documents older than cancellation (null matches a missing field).
var notCancelled = bson.E{Key: "cancelled_at", Value: bson.D{{Key: "$in", Value: bson.A{int64(0), nil}}}}

// UpcomingShows lists up to limit shows starting at or after from that are
// not cancelled, soonest first, with the seats left counted in the database by the seat rule at m:
// one aggregation over the seats of all listed shows.
func (s *Store) UpcomingShows(ctx context.Context, from time.Time, limit int, m booking.Moment) ([]booking.ShowSummary, error) {
	opts := options.Find().SetSort(bson.D{{Key: "starts_at", Value: 1}, {Key: "_id", Value: 1}})
	if limit > 0 {
		opts.SetLimit(int64(limit))
	}
	// The starts_at index serves the range and the sort; cancelled shows,
	// a few, are skipped as the scan fetches them.
	filter := bson.D{{Key: "starts_at", Value: bson.D{{Key: "$gte", Value: nanos(from)}}}, notCancelled}
	cur, err := s.col(colShows).Find(ctx, filter, opts)
	if err != nil {
		return nil, fmt.Errorf("mongo: upcoming shows: %w", err)
	}
	var docs []showDoc
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: upcoming shows: %w", err)
	}
	if len(docs) == 0 {
		return []booking.ShowSummary{}, nil
	}
	ids := make([]string, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
	}
	left, err := s.seatsLeft(ctx, ids, m)
	if err != nil {
		return nil, fmt.Errorf("mongo: upcoming shows: %w", err)
	}
	out := make([]booking.ShowSummary, len(docs))
	for i, d := range docs {
		out[i] = booking.ShowSummary{
			Show: d.show(), SeatsTotal: d.SeatsTotal, SeatsLeft: left[d.ID],
			MinPrice: booking.Money(d.MinPrice), MaxPrice: booking.Money(d.MaxPrice),
		}
	}
	return out, nil
}

// seatsLeft counts the available seats of each show by the seat rule.
func (s *Store) seatsLeft(ctx context.Context, showIDs []string, m booking.Moment) (map[string]int, error) {
	pipeline := mongo.Pipeline{
		{{Key: "$match", Value: bson.D{
			{Key: "show_id", Value: bson.D{{Key: "$in", Value: showIDs}}},
			seatRule(m, ""),
		}}},
		{{Key: "$group", Value: bson.D{
			{Key: "_id", Value: "$show_id"},
			{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}},
		}}},
	}
	cur, err := s.col(colSeats).Aggregate(ctx, pipeline)
	if err != nil {
		return nil, err
	}
	var groups []struct {
		ShowID string `bson:"_id"`
		N      int    `bson:"n"`
	}
	if err := cur.All(ctx, &groups); err != nil {
		return nil, err
	}
	left := make(map[string]int, len(groups))
	for _, g := range groups {
		left[g.ShowID] = g.N
	}
	return left, nil
}

// cancellation is what one attempt of CancelShow returns.
type cancellation struct {
	show booking.Show
	due  []booking.Booking
}

// CancelShow cancels a show in one transaction: its cancelled_at, the seats
// its holds still lock freed and those holds, found through the seats'
// hold ids (the show_hold index), released as ReleaseHold leaves them, and
// each confirmed booking as booking.Booking.CancelledShow leaves it. A
// cancelled show is returned as it is, with no booking.
func (s *Store) CancelShow(ctx context.Context, showID string, m booking.Moment) (booking.Show, []booking.Booking, error) {
	out, err := inTx(ctx, s, func(ctx context.Context) (cancellation, error) {
		return s.cancelShow(ctx, showID, m)
	})
	if err != nil {
		return booking.Show{}, nil, wrap("cancel show", err)
	}
	return out.show, out.due, nil
}

// cancelShow is one attempt of CancelShow, run inside a transaction.
func (s *Store) cancelShow(ctx context.Context, showID string, m booking.Moment) (cancellation, error) {
	var d showDoc
	if err := s.col(colShows).FindOne(ctx, byID(showID)).Decode(&d); err != nil {
		return cancellation{}, noDoc(err, booking.ErrShowNotFound, "read show")
	}
	if d.show().Cancelled() {
		return cancellation{show: d.show()}, nil
	}
	d.CancelledAt = nanos(m.Now)
	if _, err := s.col(colShows).UpdateOne(ctx, byID(showID),
		bson.D{{Key: "$set", Value: bson.D{{Key: "cancelled_at", Value: d.CancelledAt}}}}); err != nil {
		return cancellation{}, fmt.Errorf("update show: %w", err)
	}

	// Every locked seat has its hold's id; the range on hold_id keeps the
	// scan within the show_hold index's entries of locked seats' holds.
	locked := bson.D{
		{Key: "show_id", Value: showID},
		{Key: "hold_id", Value: bson.D{{Key: "$gt", Value: ""}}},
		{Key: "status", Value: string(booking.SeatLocked)},
	}
	cur, err := s.col(colSeats).Aggregate(ctx, mongo.Pipeline{
		{{Key: "$match", Value: locked}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$hold_id"}}}},
	})
	if err != nil {
		return cancellation{}, fmt.Errorf("read holds of locked seats: %w", err)
	}
	var groups []struct {
		HoldID string `bson:"_id"`
	}
	if err := cur.All(ctx, &groups); err != nil {
		return cancellation{}, fmt.Errorf("read holds of locked seats: %w", err)
	}
	if len(groups) > 0 {
		holdIDs := make([]string, len(groups))
		for i, g := range groups {
			holdIDs[i] = g.HoldID
		}
		if _, err := s.col(colSeats).UpdateMany(ctx, locked, releaseUpdate); err != nil {
			return cancellation{}, fmt.Errorf("release seats: %w", err)
		}
		if _, err := s.col(colHolds).UpdateMany(ctx,
			bson.D{
				{Key: "_id", Value: bson.D{{Key: "$in", Value: holdIDs}}},
				{Key: "state", Value: string(booking.HoldActive)},
			},
			setState(booking.HoldReleased)); err != nil {
			return cancellation{}, fmt.Errorf("release holds: %w", err)
		}
	}

	cur, err = s.col(colBookings).Find(ctx,
		bson.D{{Key: "show_id", Value: showID}, {Key: "state", Value: string(booking.BookingConfirmed)}},
		options.Find().SetSort(bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return cancellation{}, fmt.Errorf("read confirmed bookings: %w", err)
	}
	var docs []bookingDoc
	if err := cur.All(ctx, &docs); err != nil {
		return cancellation{}, fmt.Errorf("read confirmed bookings: %w", err)
	}
	var due []booking.Booking
	for _, bd := range docs {
		b, changed := bd.booking().CancelledShow(m.Now)
		if !changed {
			continue
		}
		if _, err := s.col(colBookings).ReplaceOne(ctx, byID(b.ID), toBookingDoc(b)); err != nil {
			return cancellation{}, fmt.Errorf("update booking: %w", err)
		}
		due = append(due, b)
	}
	return cancellation{show: d.show(), due: due}, nil
}
