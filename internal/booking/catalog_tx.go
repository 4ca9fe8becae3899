package booking

// CatalogTx is what the catalog steps (save and delete a theatre, screen
// or movie; create a show planned from them) read and write in a
// transaction. Shows carry copies of their theatre's name, city and zone,
// their screen's name and their movie; the Copy… writes keep those copies
// current.
type CatalogTx interface {
	// TheatreByID is one theatre; ErrTheatreNotFound when none.
	TheatreByID(id string) (Theatre, error)
	// ScreenByID is one screen; ErrScreenNotFound when none.
	ScreenByID(id string) (Screen, error)
	// MovieByID is one movie; ErrMovieNotFound when none.
	MovieByID(id string) (Movie, error)
	// CountTheatreScreens counts the screens of a theatre.
	CountTheatreScreens(theatreID string) (int, error)
	// CountTheatreShows counts the shows at a theatre, in every state.
	CountTheatreShows(theatreID string) (int, error)
	// CountScreenShows counts the shows made on a screen.
	CountScreenShows(screenID string) (int, error)
	// CountMovieShows counts the shows of a movie.
	CountMovieShows(movieID string) (int, error)

	// PutTheatre inserts t, or replaces the theatre of its id.
	PutTheatre(t Theatre) error
	// CopyTheatreToShows sets the theatre's name, city and zone in every
	// show at it.
	CopyTheatreToShows(t Theatre) error
	// PutScreen inserts sc, or replaces the screen of its id (theatre,
	// name and layout).
	PutScreen(sc Screen) error
	// CopyScreenToShows sets the screen's name in every show made on it.
	CopyScreenToShows(sc Screen) error
	// PutMovie inserts m, or replaces the movie of its id.
	PutMovie(m Movie) error
	// CopyMovieToShows sets the movie's title, rating, runtime and
	// language in every show of it.
	CopyMovieToShows(m Movie) error
	// DeleteTheatreRecord deletes the theatre with id.
	DeleteTheatreRecord(id string) error
	// DeleteScreenRecord deletes the screen with id.
	DeleteScreenRecord(id string) error
	// DeleteMovieRecord deletes the movie with id.
	DeleteMovieRecord(id string) error
}
