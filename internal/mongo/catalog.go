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
// copies of its name, city and zone (theatreDoc), which SaveTheatre keeps
// current.
type catalogTheatre struct {
	ID       string `bson:"_id"`
	Name     string `bson:"name"`
	City     string `bson:"city"`
	TimeZone string `bson:"time_zone"`
}

func (d catalogTheatre) theatre() booking.Theatre {
	return booking.Theatre{ID: d.ID, Name: d.Name, City: d.City, TimeZone: d.TimeZone}
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
}

func (d catalogMovie) movie() booking.Movie {
	return booking.Movie{ID: d.ID, Title: d.Title, Rating: d.Rating, RuntimeMin: d.RuntimeMin, Language: d.Language}
}

var upsertReplace = options.Replace().SetUpsert(true)

// SaveTheatre inserts or replaces a theatre and, in the same transaction,
// the name, city and zone its shows carry (theatre_starts_at index).
func (s *Store) SaveTheatre(ctx context.Context, t booking.Theatre) error {
	_, err := inTx(ctx, s, func(ctx context.Context) (struct{}, error) {
		doc := catalogTheatre{ID: t.ID, Name: t.Name, City: t.City, TimeZone: t.TimeZone}
		if _, err := s.col(colTheatres).ReplaceOne(ctx, byID(t.ID), doc, upsertReplace); err != nil {
			return struct{}{}, fmt.Errorf("upsert theatre: %w", err)
		}
		_, err := s.col(colShows).UpdateMany(ctx, bson.D{{Key: "theatre.id", Value: t.ID}},
			bson.D{{Key: "$set", Value: bson.D{
				{Key: "theatre.name", Value: t.Name},
				{Key: "theatre.city", Value: t.City},
				{Key: "theatre.tz", Value: t.TimeZone},
			}}})
		if err != nil {
			return struct{}{}, fmt.Errorf("update shows: %w", err)
		}
		return struct{}{}, nil
	})
	return wrap("save theatre", err)
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

// DeleteTheatre deletes a theatre without screens or shows, in one
// transaction. Deleting the document conflicts with a concurrent SaveScreen
// of one of its screens, which writes it too (touchTheatre), so a screen is
// never left without its theatre.
func (s *Store) DeleteTheatre(ctx context.Context, id string) error {
	_, err := inTx(ctx, s, func(ctx context.Context) (struct{}, error) {
		if err := exists(ctx, s.col(colTheatres), id, booking.ErrTheatreNotFound); err != nil {
			return struct{}{}, err
		}
		n, err := s.col(colScreens).CountDocuments(ctx, bson.D{{Key: "theatre_id", Value: id}})
		if err != nil || n > 0 {
			return struct{}{}, inUse(err, "count screens", "The theatre has %d screen(s): delete them first.", n)
		}
		n, err = s.col(colShows).CountDocuments(ctx, bson.D{{Key: "theatre.id", Value: id}})
		if err != nil || n > 0 {
			return struct{}{}, inUse(err, "count shows", "The theatre has %d show(s); a theatre with shows stays.", n)
		}
		if _, err := s.col(colTheatres).DeleteOne(ctx, byID(id)); err != nil {
			return struct{}{}, fmt.Errorf("delete theatre: %w", err)
		}
		return struct{}{}, nil
	})
	return wrap("delete theatre", err)
}

// touchTheatre writes theatre id's document, so that this transaction and a
// concurrent DeleteTheatre conflict and one of them retries against the
// other's result (reads alone would not conflict); an unknown theatre is
// ErrTheatreNotFound. The counter it bumps is read by nothing.
func (s *Store) touchTheatre(ctx context.Context, id string) error {
	res, err := s.col(colTheatres).UpdateOne(ctx, byID(id), bson.D{{Key: "$inc", Value: bson.D{{Key: "rev", Value: 1}}}})
	switch {
	case err != nil:
		return fmt.Errorf("read theatre: %w", err)
	case res.MatchedCount == 0:
		return booking.ErrTheatreNotFound
	}
	return nil
}

// SaveScreen inserts or updates a screen of an existing theatre and, in the
// same transaction, the name its shows carry (screen index). As in the
// SQLite adapter, an existing screen keeps its theatre.
func (s *Store) SaveScreen(ctx context.Context, sc booking.Screen) error {
	_, err := inTx(ctx, s, func(ctx context.Context) (struct{}, error) {
		if err := s.touchTheatre(ctx, sc.TheatreID); err != nil {
			return struct{}{}, err
		}
		if _, err := s.col(colScreens).UpdateOne(ctx, byID(sc.ID),
			bson.D{
				{Key: "$set", Value: bson.D{{Key: "name", Value: sc.Name}, {Key: "layout", Value: sc.Layout}}},
				{Key: "$setOnInsert", Value: bson.D{{Key: "theatre_id", Value: sc.TheatreID}}},
			},
			options.UpdateOne().SetUpsert(true)); err != nil {
			return struct{}{}, fmt.Errorf("upsert screen: %w", err)
		}
		_, err := s.col(colShows).UpdateMany(ctx, bson.D{{Key: "screen_id", Value: sc.ID}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "screen", Value: sc.Name}}}})
		if err != nil {
			return struct{}{}, fmt.Errorf("update shows: %w", err)
		}
		return struct{}{}, nil
	})
	return wrap("save screen", err)
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

// DeleteScreen deletes a screen no show was made on, in one transaction.
func (s *Store) DeleteScreen(ctx context.Context, id string) error {
	_, err := inTx(ctx, s, func(ctx context.Context) (struct{}, error) {
		if err := exists(ctx, s.col(colScreens), id, booking.ErrScreenNotFound); err != nil {
			return struct{}{}, err
		}
		n, err := s.col(colShows).CountDocuments(ctx, bson.D{{Key: "screen_id", Value: id}})
		if err != nil || n > 0 {
			return struct{}{}, inUse(err, "count shows", "%d show(s) were made on this screen; a screen with shows stays.", n)
		}
		if _, err := s.col(colScreens).DeleteOne(ctx, byID(id)); err != nil {
			return struct{}{}, fmt.Errorf("delete screen: %w", err)
		}
		return struct{}{}, nil
	})
	return wrap("delete screen", err)
}

// SaveMovie inserts or replaces a movie and, in the same transaction, the
// copies its shows carry (movie index).
func (s *Store) SaveMovie(ctx context.Context, m booking.Movie) error {
	_, err := inTx(ctx, s, func(ctx context.Context) (struct{}, error) {
		doc := catalogMovie{ID: m.ID, Title: m.Title, Rating: m.Rating, RuntimeMin: m.RuntimeMin, Language: m.Language}
		if _, err := s.col(colMovies).ReplaceOne(ctx, byID(m.ID), doc, upsertReplace); err != nil {
			return struct{}{}, fmt.Errorf("upsert movie: %w", err)
		}
		_, err := s.col(colShows).UpdateMany(ctx, bson.D{{Key: "movie.id", Value: m.ID}},
			bson.D{{Key: "$set", Value: bson.D{
				{Key: "movie.title", Value: m.Title},
				{Key: "movie.rating", Value: m.Rating},
				{Key: "movie.runtime_min", Value: m.RuntimeMin},
				{Key: "movie.language", Value: m.Language},
			}}})
		if err != nil {
			return struct{}{}, fmt.Errorf("update shows: %w", err)
		}
		return struct{}{}, nil
	})
	return wrap("save movie", err)
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

// DeleteMovie deletes a movie no show shows, in one transaction.
func (s *Store) DeleteMovie(ctx context.Context, id string) error {
	_, err := inTx(ctx, s, func(ctx context.Context) (struct{}, error) {
		if err := exists(ctx, s.col(colMovies), id, booking.ErrMovieNotFound); err != nil {
			return struct{}{}, err
		}
		n, err := s.col(colShows).CountDocuments(ctx, bson.D{{Key: "movie.id", Value: id}})
		if err != nil || n > 0 {
			return struct{}{}, inUse(err, "count shows", "The movie has %d show(s); delete or keep them first.", n)
		}
		if _, err := s.col(colMovies).DeleteOne(ctx, byID(id)); err != nil {
			return struct{}{}, fmt.Errorf("delete movie: %w", err)
		}
		return struct{}{}, nil
	})
	return wrap("delete movie", err)
}

// exists is sentinel unless col has a document with _id id.
func exists(ctx context.Context, col *mongo.Collection, id string, sentinel error) error {
	err := col.FindOne(ctx, byID(id), options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	if err != nil {
		return noDoc(err, sentinel, "read "+col.Name())
	}
	return nil
}

// inUse is err, prefixed with op, or booking.ErrInUse with the message when
// there is none.
func inUse(err error, op, format string, n int64) error {
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return booking.ErrInUse(format, n)
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
