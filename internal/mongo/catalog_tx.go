package mongo

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// The catalog steps' reads and writes (booking.CatalogTx). Shows carry
// copies of their theatre (theatreDoc), screen name and movie (movieDoc);
// the Copy… writes update them by the indexes on theatre.id, screen_id
// and movie.id.

func (t *tx) TheatreByID(id string) (booking.Theatre, error) {
	var d catalogTheatre
	if err := t.s.col(colTheatres).FindOne(t.ctx, byID(id)).Decode(&d); err != nil {
		return booking.Theatre{}, noDoc(err, booking.ErrTheatreNotFound, "read theatre")
	}
	return d.theatre(), nil
}

func (t *tx) ScreenByID(id string) (booking.Screen, error) {
	var d catalogScreen
	if err := t.s.col(colScreens).FindOne(t.ctx, byID(id)).Decode(&d); err != nil {
		return booking.Screen{}, noDoc(err, booking.ErrScreenNotFound, "read screen")
	}
	return d.screen(), nil
}

func (t *tx) MovieByID(id string) (booking.Movie, error) {
	var d catalogMovie
	if err := t.s.col(colMovies).FindOne(t.ctx, byID(id)).Decode(&d); err != nil {
		return booking.Movie{}, noDoc(err, booking.ErrMovieNotFound, "read movie")
	}
	return d.movie(), nil
}

func (t *tx) CountTheatreScreens(theatreID string) (int, error) {
	return countIn(t, colScreens, "count screens", bson.D{{Key: "theatre_id", Value: theatreID}})
}

func (t *tx) CountTheatreShows(theatreID string) (int, error) {
	return countIn(t, colShows, "count shows", bson.D{{Key: "theatre.id", Value: theatreID}})
}

func (t *tx) CountScreenShows(screenID string) (int, error) {
	return countIn(t, colShows, "count shows", bson.D{{Key: "screen_id", Value: screenID}})
}

func (t *tx) CountMovieShows(movieID string) (int, error) {
	return countIn(t, colShows, "count shows", bson.D{{Key: "movie.id", Value: movieID}})
}

func countIn(t *tx, col, op string, filter bson.D) (int, error) {
	n, err := t.s.col(col).CountDocuments(t.ctx, filter)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	return int(n), nil
}

var upsertReplace = options.Replace().SetUpsert(true)

// PutTheatre sets the theatre's fields the catalog's form edits, keeping
// its tax rate (SetTheatreTaxRate), and drops a field an older version
// wrote (rev).
func (t *tx) PutTheatre(th booking.Theatre) error {
	return setDoc(t, colTheatres, "upsert theatre", th.ID, bson.D{
		{Key: "name", Value: th.Name}, {Key: "city", Value: th.City}, {Key: "time_zone", Value: th.TimeZone}, {Key: "currency", Value: th.Currency},
	}, bson.D{{Key: "rev", Value: ""}})
}

func (t *tx) CopyTheatreToShows(th booking.Theatre) error {
	return setShows(t, bson.D{{Key: "theatre.id", Value: th.ID}}, bson.D{
		{Key: "theatre.name", Value: th.Name},
		{Key: "theatre.city", Value: th.City},
		{Key: "theatre.tz", Value: th.TimeZone},
	})
}

func (t *tx) PutScreen(sc booking.Screen) error {
	doc := catalogScreen{ID: sc.ID, TheatreID: sc.TheatreID, Name: sc.Name, Layout: sc.Layout}
	return replaceDoc(t, colScreens, "upsert screen", sc.ID, doc)
}

func (t *tx) CopyScreenToShows(sc booking.Screen) error {
	return setShows(t, bson.D{{Key: "screen_id", Value: sc.ID}}, bson.D{{Key: "screen", Value: sc.Name}})
}

func (t *tx) PutMovie(m booking.Movie) error {
	// Its rental terms (SetMovieRent) stay.
	return setDoc(t, colMovies, "upsert movie", m.ID, bson.D{
		{Key: "title", Value: m.Title}, {Key: "rating", Value: m.Rating},
		{Key: "runtime_min", Value: m.RuntimeMin}, {Key: "language", Value: m.Language},
	}, nil)
}

func (t *tx) CopyMovieToShows(m booking.Movie) error {
	return setShows(t, bson.D{{Key: "movie.id", Value: m.ID}}, bson.D{
		{Key: "movie.title", Value: m.Title},
		{Key: "movie.rating", Value: m.Rating},
		{Key: "movie.runtime_min", Value: m.RuntimeMin},
		{Key: "movie.language", Value: m.Language},
	})
}

func (t *tx) DeleteTheatreRecord(id string) error {
	return deleteDoc(t, colTheatres, "delete theatre", id)
}
func (t *tx) DeleteScreenRecord(id string) error {
	return deleteDoc(t, colScreens, "delete screen", id)
}
func (t *tx) DeleteMovieRecord(id string) error { return deleteDoc(t, colMovies, "delete movie", id) }

// replaceDoc upserts doc as the whole document _id id of col.
func replaceDoc(t *tx, col, op, id string, doc any) error {
	if _, err := t.s.col(col).ReplaceOne(t.ctx, byID(id), doc, upsertReplace); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// setDoc upserts document _id id of col, setting fields and unsetting
// unset (nil for none).
func setDoc(t *tx, col, op, id string, fields, unset bson.D) error {
	update := bson.D{{Key: "$set", Value: fields}}
	if len(unset) > 0 {
		update = append(update, bson.E{Key: "$unset", Value: unset})
	}
	if _, err := t.s.col(col).UpdateOne(t.ctx, byID(id), update, options.UpdateOne().SetUpsert(true)); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// setShows sets fields in every show filter selects.
func setShows(t *tx, filter, fields bson.D) error {
	if _, err := t.s.col(colShows).UpdateMany(t.ctx, filter, bson.D{{Key: "$set", Value: fields}}); err != nil {
		return fmt.Errorf("update shows: %w", err)
	}
	return nil
}

func deleteDoc(t *tx, col, op, id string) error {
	if _, err := t.s.col(col).DeleteOne(t.ctx, byID(id)); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}
