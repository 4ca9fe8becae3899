package mongo

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// catalogTheatre is a document of the theatres collection. Shows carry
// copies of its name, city and zone (theatreDoc), which SaveTheatreStep
// keeps current.
type catalogTheatre struct {
	ID       string `bson:"_id"`
	Name     string `bson:"name"`
	City     string `bson:"city"`
	TimeZone string `bson:"time_zone"`
	TaxRate  int    `bson:"tax_rate,omitempty"`
	// TaxAbove and TaxRateAbove are its second rate, on prices above
	// TaxAbove (absent: none).
	TaxAbove     int64 `bson:"tax_above,omitempty"`
	TaxRateAbove int   `bson:"tax_rate_above,omitempty"`
	// Currency is its shows' ISO 4217 code; the conversion
	// 0026_theatre_currency sets it in documents written before theatres
	// had one, and a document written since by an older process reads as
	// INR, as SQLite's column default.
	Currency string `bson:"currency"`
}

func (d catalogTheatre) theatre() booking.Theatre {
	cur := d.Currency
	if cur == "" {
		cur = "INR"
	}
	return booking.Theatre{ID: d.ID, Name: d.Name, City: d.City, TimeZone: d.TimeZone, Currency: cur, Tax: booking.TaxRates{
		Rate: booking.TaxRate(d.TaxRate), Above: booking.Money(d.TaxAbove), AboveRate: booking.TaxRate(d.TaxRateAbove),
	}}
}

// catalogScreen is a document of the screens collection; shows carry a copy
// of its name (showDoc.Screen) and its id.
type catalogScreen struct {
	ID        string `bson:"_id"`
	TheatreID string `bson:"theatre_id"`
	Name      string `bson:"name"`
	Layout    string `bson:"layout"`
}

func (d catalogScreen) screen() booking.Screen {
	return booking.Screen{ID: d.ID, TheatreID: d.TheatreID, Name: d.Name, Layout: d.Layout}
}

// catalogMovie is a document of the movies collection; shows carry a copy
// of it (movieDoc).
type catalogMovie struct {
	ID         string `bson:"_id"`
	Title      string `bson:"title"`
	Rating     string `bson:"rating"`
	RuntimeMin int    `bson:"runtime_min"`
	Language   string `bson:"language"`
	Rent       string `bson:"rent,omitempty"`
}

func (d catalogMovie) movie() booking.Movie {
	return booking.Movie{ID: d.ID, Title: d.Title, Rating: d.Rating, RuntimeMin: d.RuntimeMin, Language: d.Language, Rent: d.Rent}
}

// Theatre returns one theatre.
func (s *Store) Theatre(ctx context.Context, id string) (booking.Theatre, error) {
	var d catalogTheatre
	if err := s.col(colTheatres).FindOne(ctx, byID(id)).Decode(&d); err != nil {
		return booking.Theatre{}, notFound(err, booking.ErrTheatreNotFound, "theatre")
	}
	return d.theatre(), nil
}

// ListTheatres lists the theatres by name.
func (s *Store) ListTheatres(ctx context.Context) ([]booking.Theatre, error) {
	return list(ctx, s.col(colTheatres), "list theatres", bson.D{}, "name", catalogTheatre.theatre)
}

// Screen returns one screen.
func (s *Store) Screen(ctx context.Context, id string) (booking.Screen, error) {
	var d catalogScreen
	if err := s.col(colScreens).FindOne(ctx, byID(id)).Decode(&d); err != nil {
		return booking.Screen{}, notFound(err, booking.ErrScreenNotFound, "screen")
	}
	return d.screen(), nil
}

// ListScreens lists a theatre's screens by name (theatre_name index).
func (s *Store) ListScreens(ctx context.Context, theatreID string) ([]booking.Screen, error) {
	return list(ctx, s.col(colScreens), "list screens", bson.D{{Key: "theatre_id", Value: theatreID}}, "name", catalogScreen.screen)
}

// Movie returns one movie.
func (s *Store) Movie(ctx context.Context, id string) (booking.Movie, error) {
	var d catalogMovie
	if err := s.col(colMovies).FindOne(ctx, byID(id)).Decode(&d); err != nil {
		return booking.Movie{}, notFound(err, booking.ErrMovieNotFound, "movie")
	}
	return d.movie(), nil
}

// ListMovies lists the movies by title.
func (s *Store) ListMovies(ctx context.Context) ([]booking.Movie, error) {
	return list(ctx, s.col(colMovies), "list movies", bson.D{}, "title", catalogMovie.movie)
}

// list finds the documents of col that filter selects, sorted by field and
// then _id, and converts each with conv; op names it in errors. It never
// returns a nil slice without an error.
func list[T, D any](ctx context.Context, col *mongo.Collection, op string, filter bson.D, field string, conv func(D) T) ([]T, error) {
	cur, err := col.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: field, Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("mongo: %s: %w", op, err)
	}
	var docs []D
	if err := cur.All(ctx, &docs); err != nil {
		return nil, fmt.Errorf("mongo: %s: %w", op, err)
	}
	out := make([]T, 0, len(docs))
	for _, d := range docs {
		out = append(out, conv(d))
	}
	return out, nil
}
