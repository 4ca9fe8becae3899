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
	// SalesOpenAt is its sales opening in Unix ns (an on-sale's T0), 0
	// or absent for none.
	SalesOpenAt int64 `bson:"sales_open_at,omitempty"`
	// OnlineCutoff is its online cut-off in seats (SPEC §16), 0 or
	// absent for none.
	OnlineCutoff int `bson:"online_cutoff,omitempty"`
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
		Screen:       d.Screen,
		ScreenID:     d.ScreenID,
		StartsAt:     fromNanos(d.StartsAt),
		Currency:     d.Currency,
		CancelledAt:  fromNanos(d.CancelledAt),
		SalesOpenAt:  fromNanos(d.SalesOpenAt),
		OnlineCutoff: d.OnlineCutoff,
	}
}

// seatBatch is how many seats one BulkWrite sends: big enough that a
// million seats take about a thousand round trips, small enough to keep each
// request far below MongoDB's 48 MB message limit.
const seatBatch = 1000

// toShowDoc is show as stored, with what never changes about its seats.
func toShowDoc(show booking.Show, seats []booking.Seat) showDoc {
	doc := showDoc{
		ID: show.ID,
		Movie: movieDoc{
			ID: show.Movie.ID, Title: show.Movie.Title, Rating: show.Movie.Rating,
			RuntimeMin: show.Movie.RuntimeMin, Language: show.Movie.Language,
		},
		Theatre: theatreDoc{
			ID: show.Theatre.ID, Name: show.Theatre.Name, City: show.Theatre.City, TimeZone: show.Theatre.TimeZone,
		},
		Screen:       show.Screen,
		ScreenID:     show.ScreenID,
		StartsAt:     nanos(show.StartsAt),
		Currency:     show.Currency,
		SeatsTotal:   len(seats),
		CancelledAt:  nanos(show.CancelledAt),
		SalesOpenAt:  nanos(show.SalesOpenAt),
		OnlineCutoff: show.OnlineCutoff,
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
	return doc
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

// onSaleProjection is what a step reads of a show's sale facts (Tx.SaleFacts): what
// booking.Show.CheckOnSale decides on (the theatre's zone names the opening),
// the currency a hold is priced in, and the online cut-off.
var onSaleProjection = bson.D{
	{Key: "starts_at", Value: 1}, {Key: "cancelled_at", Value: 1}, {Key: "currency", Value: 1},
	{Key: "sales_open_at", Value: 1}, {Key: "theatre.tz", Value: 1}, {Key: "online_cutoff", Value: 1},
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

// seatsLeft counts the seats of each show available online (onlineRule).
// The $group needs only show_id, and the filter reads show_id, status,
// locked_at and reserve, all in show_status_locked_reserve, so the planner
// can push the show_id $in into each branch of the rule's $or and scan
// that index once per branch (status available; status locked with
// locked_at up to the cutoff), the reserve bounded to null and "".
func (s *Store) seatsLeft(ctx context.Context, showIDs []string, m booking.Moment) (map[string]int, error) {
	cur, err := s.col(colSeats).Aggregate(ctx, seatsLeftPipeline(showIDs, m))
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

// seatsLeftPipeline counts the seats of each of showIDs available online
// at m, from the index showStatusIndex alone (TestSeatQueryPlans).
func seatsLeftPipeline(showIDs []string, m booking.Moment) mongo.Pipeline {
	return mongo.Pipeline{
		{{Key: "$match", Value: bson.D{
			{Key: "show_id", Value: bson.D{{Key: "$in", Value: showIDs}}},
			seatRule(m), noReserve,
		}}},
		{{Key: "$group", Value: bson.D{
			{Key: "_id", Value: "$show_id"},
			{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}},
		}}},
	}
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
