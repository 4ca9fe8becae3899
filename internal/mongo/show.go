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

// seatBatch is how many seats one BulkWrite sends: big enough that a
// million seats take about a thousand round trips, small enough to keep each
// request far below MongoDB's 48 MB message limit.
const seatBatch = 1000

// CreateShow stores a show and its seats, all available. The seats go first
// and the show document last, so that a show is never listed with seats
// missing. It is not one transaction on purpose: `boxoffice seed` creates
// shows of a million seats, far beyond what a transaction should hold. The
// seats are insert-only upserts, so a failure or a crash before the show
// document leaves seats that nobody can hold (a hold reads the show first)
// and that a retry with the same id takes up, and two processes creating
// one show (the demo's ids are derived, not random) write the same seats;
// the show document's insert decides which one created it (ErrShowExists
// for the other).
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
	// Read after the show was found missing: DeleteShow removes the show
	// and keeps its id in one transaction, so a show deleted before that
	// read has its id here now.
	switch err := s.col(colDeletedShows).FindOne(ctx, byID(show.ID)).Err(); {
	case err == nil:
		return booking.ErrShowDeleted
	case !errors.Is(err, mongo.ErrNoDocuments):
		return fmt.Errorf("mongo: create show: deleted ids: %w", err)
	}
	// Each seat is an upsert that only inserts ($setOnInsert), unordered:
	// two processes creating the same show (seeding the demo, whose ids are
	// derived) write the same seats and neither undoes the other's, and
	// seats left by a crash before the show document are taken up by the
	// next CreateShow of that id. The show document, inserted last, decides
	// who created the show: a show never lists seats it does not have.
	batch := make([]mongo.WriteModel, 0, min(seatBatch, len(seats)))
	writeOpts := options.BulkWrite().SetOrdered(false)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if _, err := s.col(colSeats).BulkWrite(ctx, batch, writeOpts); err != nil {
			return fmt.Errorf("mongo: create show: seats: %w", err)
		}
		batch = batch[:0]
		return nil
	}
	for _, st := range seats {
		d := toSeatDoc(show.ID, st)
		fields, err := withoutID(d)
		if err != nil {
			return fmt.Errorf("mongo: create show: %w", err)
		}
		// The filter names the seat key besides _id (which implies it), so
		// that a seats collection sharded on {show_id, seat_id} or
		// {show_id} can route the upsert to one shard, which MongoDB does
		// only for an upsert whose filter names the whole shard key.
		filter := bson.D{{Key: "_id", Value: d.ID}, {Key: "show_id", Value: d.ShowID}, {Key: "seat_id", Value: d.SeatID}}
		batch = append(batch, mongo.NewUpdateOneModel().SetFilter(filter).
			SetUpdate(bson.D{{Key: "$setOnInsert", Value: fields}}).SetUpsert(true))
		if len(batch) == seatBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if _, err := s.col(colShows).InsertOne(ctx, doc); err != nil {
		if mongo.IsDuplicateKeyError(err) {
			return booking.ErrShowExists // a concurrent CreateShow of the same id won
		}
		return fmt.Errorf("mongo: create show: %w", err)
	}
	return nil
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

// seatsLeft counts the available seats of each show by the seat rule. The
// $group needs only show_id, and the filter reads show_id, status and
// locked_at, all in show_status_locked, so the planner can push the
// show_id $in into each branch of the rule's $or, scan that index once per
// branch (status available; status locked with locked_at up to the cutoff)
// and fetch no seat document.
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
	// MongoDB sees two transactions conflict only when both write one
	// document. A hold racing this cancellation writes seats that are not
	// booked, and a payment landing now writes its pending booking: both
	// are written here too (show_cancelled_at), so whichever commits second
	// conflicts, retries, and reads the show cancelled.
	mark := bson.D{{Key: "$set", Value: bson.D{{Key: "show_cancelled_at", Value: nanos(m.Now)}}}}
	if _, err := s.col(colSeats).UpdateMany(ctx, bson.D{
		{Key: "show_id", Value: showID},
		{Key: "status", Value: bson.D{{Key: "$ne", Value: string(booking.SeatBooked)}}},
	}, mark); err != nil {
		return cancellation{}, fmt.Errorf("mark seats: %w", err)
	}
	if _, err := s.col(colBookings).UpdateMany(ctx, bson.D{
		{Key: "show_id", Value: showID},
		{Key: "state", Value: string(booking.BookingPending)},
	}, mark); err != nil {
		return cancellation{}, fmt.Errorf("mark pending bookings: %w", err)
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
		if err := s.saveBooking(ctx, bd.booking(), b); err != nil {
			return cancellation{}, err
		}
		due = append(due, b)
	}
	return cancellation{show: d.show(), due: due}, nil
}

// withoutID is v as a document without its _id, which an upsert takes
// from its filter.
func withoutID(v any) (bson.D, error) {
	raw, err := bson.Marshal(v)
	if err != nil {
		return nil, err
	}
	var d bson.D
	if err := bson.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	out := d[:0]
	for _, e := range d {
		if e.Key != "_id" {
			out = append(out, e)
		}
	}
	return out, nil
}

// ShowSeats reads the show, its seats and owner's active hold in one
// snapshot session: the first read fixes a point in the cluster's history
// (atClusterTime) and the others read at it, so a hold, Back or payment
// committed meanwhile is in all three reads or in none. Snapshot reads
// need MongoDB 5.0 or later, as the replica set this adapter requires
// runs.
func (s *Store) ShowSeats(ctx context.Context, showID, owner string) (booking.ShowSeats, error) {
	sess, err := s.client.StartSession(options.Session().SetSnapshot(true))
	if err != nil {
		return booking.ShowSeats{}, fmt.Errorf("mongo: show seats: %w", err)
	}
	defer sess.EndSession(context.WithoutCancel(ctx))
	ctx = mongo.NewSessionContext(ctx, sess)

	var ss booking.ShowSeats
	var d showDoc
	if err := s.col(colShows).FindOne(ctx, bson.D{{Key: "_id", Value: showID}}).Decode(&d); err != nil {
		return booking.ShowSeats{}, notFound(err, booking.ErrShowNotFound, "show seats")
	}
	ss.Show = d.show()
	if ss.Seats, err = findSeats(ctx, s.col(colSeats), bson.D{{Key: "show_id", Value: showID}}); err != nil {
		return booking.ShowSeats{}, fmt.Errorf("mongo: show seats: %w", err)
	}
	if owner != "" {
		hd, err := findHold(ctx, s.col(colHolds), activeHoldFilter(showID, owner))
		switch {
		case err == nil:
			h := hd.hold()
			ss.Hold = &h
		case !errors.Is(err, mongo.ErrNoDocuments):
			return booking.ShowSeats{}, fmt.Errorf("mongo: show seats: active hold: %w", err)
		}
	}
	return ss, nil
}
