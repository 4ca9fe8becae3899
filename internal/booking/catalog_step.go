package booking

import (
	"context"
	"errors"
	"slices"
	"time"
)

// The catalog's steps (SPEC §10): each saves or deletes one theatre,
// screen or movie, or creates a show planned from them, in one
// transaction.
//
// Serialisation: a show copies its theatre's, screen's and movie's names
// when it is created, and the deletions decide on counts of shows and
// screens they only read, so in MongoDB two of these steps could each
// miss the other's write. Every step that changes a record, and every
// creation of a show that copies it, serialises on the record's key
// (theatreKey, screenKey, movieKey): of two at once, one runs after the
// other and sees what it did.

func theatreKey(id string) string { return "catalog:theatre:" + id }
func screenKey(id string) string  { return "catalog:screen:" + id }
func movieKey(id string) string   { return "catalog:movie:" + id }

// SaveTheatreStep inserts or updates t and sets its name, city and zone in
// the shows at it, in one step. Its currency changes only while no show
// and no price card is priced in the old one (CheckCurrencyChange:
// ECONFLICT).
func SaveTheatreStep(ctx context.Context, st Transactor, clock func() time.Time, t Theatre) error {
	return st.Atomically(ctx, clock, func(tx Tx) error { return saveTheatre(tx, t) })
}

// SaveTheatreTaxStep is SaveTheatreStep and SetTheatreTaxRateStep in one
// step: the theatre's form saves its fields and its tax rates (SPEC §17),
// or neither.
func SaveTheatreTaxStep(ctx context.Context, st Transactor, clock func() time.Time, t Theatre, rates TaxRates) error {
	if err := rates.Validate(); err != nil {
		return err
	}
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if err := saveTheatre(tx, t); err != nil {
			return err
		}
		return tx.SetTheatreTaxRate(t.ID, rates)
	})
}

func saveTheatre(tx Tx, t Theatre) error {
	{
		// A show created at once copies the theatre: it commits first,
		// and is updated here (or refused a new currency), or runs again
		// after and copies the edit.
		if err := tx.Serialize(theatreKey(t.ID)); err != nil {
			return err
		}
		switch old, err := tx.TheatreByID(t.ID); {
		case errors.Is(err, ErrTheatreNotFound):
		case err != nil:
			return err
		case old.Currency != t.Currency:
			shows, err := tx.CountTheatreShows(t.ID)
			if err != nil {
				return err
			}
			// The theatre's price cards (SPEC §15) are priced in it too.
			// A card saved at once serialises on typesKey: of the two,
			// one runs after the other (in MongoDB they write different
			// documents, and would not conflict otherwise).
			if err := tx.Serialize(typesKey(t.ID)); err != nil {
				return err
			}
			cards, err := tx.PriceCards(t.ID)
			if err != nil {
				return err
			}
			if err := CheckCurrencyChange(old.Currency, t.Currency, shows, len(cards)); err != nil {
				return err
			}
		}
		if err := tx.PutTheatre(t); err != nil {
			return err
		}
		return tx.CopyTheatreToShows(t)
	}
}

// SaveScreenStep inserts or updates sc, a screen of an existing theatre
// (ErrTheatreNotFound), and sets its name in the shows made on it, in one
// step. A screen keeps its theatre: an edit naming another one changes
// only the name and the layout.
func SaveScreenStep(ctx context.Context, st Transactor, clock func() time.Time, sc Screen) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		sc := sc // a run again starts from what was asked
		// DeleteTheatreStep counts the theatre's screens, which a new
		// screen adds to.
		if err := tx.Serialize(theatreKey(sc.TheatreID)); err != nil {
			return err
		}
		// A show created at once on the screen copies its name.
		if err := tx.Serialize(screenKey(sc.ID)); err != nil {
			return err
		}
		if _, err := tx.TheatreByID(sc.TheatreID); err != nil {
			return err
		}
		switch old, err := tx.ScreenByID(sc.ID); {
		case err == nil:
			sc.TheatreID = old.TheatreID
		case !errors.Is(err, ErrScreenNotFound):
			return err
		}
		if err := tx.PutScreen(sc); err != nil {
			return err
		}
		return tx.CopyScreenToShows(sc)
	})
}

// SaveMovieStep inserts or updates m and sets its copies in its shows, in
// one step.
func SaveMovieStep(ctx context.Context, st Transactor, clock func() time.Time, m Movie) error {
	return st.Atomically(ctx, clock, func(tx Tx) error { return saveMovie(tx, m) })
}

// SaveMovieRentStep is SaveMovieStep and SetMovieRentStep in one step: the
// movie's form saves its fields and its rental terms (SPEC §17), or
// neither.
func SaveMovieRentStep(ctx context.Context, st Transactor, clock func() time.Time, m Movie, rent []int) error {
	if err := checkRent(rent); err != nil {
		return err
	}
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if err := saveMovie(tx, m); err != nil {
			return err
		}
		return tx.SetMovieRent(m.ID, FormatRent(rent))
	})
}

func saveMovie(tx Tx, m Movie) error {
	// A show created at once copies the movie.
	if err := tx.Serialize(movieKey(m.ID)); err != nil {
		return err
	}
	if err := tx.PutMovie(m); err != nil {
		return err
	}
	return tx.CopyMovieToShows(m)
}

// DeleteTheatreStep deletes a theatre when CheckDeleteTheatre allows: one
// with screens or shows stays (ErrInUse).
func DeleteTheatreStep(ctx context.Context, st Transactor, clock func() time.Time, id string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		// A screen saved (SaveScreenStep) or a show created at once at
		// the theatre adds to what is counted here.
		if err := tx.Serialize(theatreKey(id)); err != nil {
			return err
		}
		if _, err := tx.TheatreByID(id); err != nil {
			return err
		}
		screens, err := tx.CountTheatreScreens(id)
		if err != nil {
			return err
		}
		shows, err := tx.CountTheatreShows(id)
		if err != nil {
			return err
		}
		if err := CheckDeleteTheatre(screens, shows); err != nil {
			return err
		}
		// Its ticket types and price cards go with it, so that a theatre
		// made again under the id does not find them (the card steps
		// serialise on typesKey).
		if err := tx.Serialize(typesKey(id)); err != nil {
			return err
		}
		cards, err := tx.PriceCards(id)
		if err != nil {
			return err
		}
		for _, c := range cards {
			if err := tx.DeletePriceCardRecord(c.ID); err != nil {
				return err
			}
		}
		if err := tx.PutTicketTypes(id, nil); err != nil {
			return err
		}
		return tx.DeleteTheatreRecord(id)
	})
}

// DeleteScreenStep deletes a screen when CheckDeleteScreen allows: one
// that shows were made on stays (ErrInUse).
func DeleteScreenStep(ctx context.Context, st Transactor, clock func() time.Time, id string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		// A show created at once on the screen adds to the count.
		if err := tx.Serialize(screenKey(id)); err != nil {
			return err
		}
		if _, err := tx.ScreenByID(id); err != nil {
			return err
		}
		shows, err := tx.CountScreenShows(id)
		if err != nil {
			return err
		}
		if err := CheckDeleteScreen(shows); err != nil {
			return err
		}
		return tx.DeleteScreenRecord(id)
	})
}

// DeleteMovieStep deletes a movie when CheckDeleteMovie allows: one with
// shows stays (ErrInUse).
func DeleteMovieStep(ctx context.Context, st Transactor, clock func() time.Time, id string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		// A show created at once of the movie adds to the count.
		if err := tx.Serialize(movieKey(id)); err != nil {
			return err
		}
		if _, err := tx.MovieByID(id); err != nil {
			return err
		}
		shows, err := tx.CountMovieShows(id)
		if err != nil {
			return err
		}
		if err := CheckDeleteMovie(shows); err != nil {
			return err
		}
		return tx.DeleteMovieRecord(id)
	})
}

// ShowPlanBasis is what a show's seats, start and prices were planned
// from: its screen's layout, its theatre's zone and currency.
type ShowPlanBasis struct{ Layout, TimeZone, Currency string }

// ErrShowPlanStale is a show whose screen's layout or theatre's zone or
// currency changed while it was planned.
var ErrShowPlanStale = &Error{Code: ECONFLICT, Message: "The screen's layout or the theatre's time zone or currency changed meanwhile; please create the show again."}

// CreateCatalogShowStep stores a show planned from the catalog (PlanShow)
// with its seats, as CreateShowStep does (ErrShowDeleted, ErrShowExists
// first), in one step that reads again its movie, its screen and the
// screen's theatre: one deleted meanwhile is ErrMovieNotFound,
// ErrScreenNotFound or ErrTheatreNotFound, and the show carries their
// names as they are now. It returns the show as stored. Serialised on the
// movie, the screen and the theatre, with their saves and deletions: a
// show is never made on a deleted screen, nor keeps a name edited while
// it was created.
//
// With plan, the screen's layout and the theatre's zone and currency the
// show was planned from (PlanShow: its seats, its start's instant and its
// prices come from them), one changed meanwhile is ErrShowPlanStale: the show is
// planned again rather than stored with seats or a time of before.
func CreateCatalogShowStep(ctx context.Context, st Transactor, clock func() time.Time, show Show, seats []Seat, plan *ShowPlanBasis) (Show, error) {
	return createCatalogShow(ctx, st, clock, show, seats, plan, "")
}

// createCatalogShow is CreateCatalogShowStep, and with cardID
// CreateCardShowStep.
func createCatalogShow(ctx context.Context, st Transactor, clock func() time.Time, show Show, seats []Seat, plan *ShowPlanBasis, cardID string) (Show, error) {
	if err := checkNewShow(show, seats); err != nil {
		return Show{}, err
	}
	var out Show
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		out = show
		// First, so that a show already stored (the demo, topped up every
		// hour) costs no guard.
		if err := checkShowIsNew(tx, show.ID); err != nil {
			return err
		}
		if err := tx.Serialize(movieKey(show.Movie.ID)); err != nil {
			return err
		}
		movie, err := tx.MovieByID(show.Movie.ID)
		if err != nil {
			return err
		}
		if err := tx.Serialize(screenKey(show.ScreenID)); err != nil {
			return err
		}
		screen, err := tx.ScreenByID(show.ScreenID)
		if err != nil {
			return err
		}
		if err := tx.Serialize(theatreKey(screen.TheatreID)); err != nil {
			return err
		}
		theatre, err := tx.TheatreByID(screen.TheatreID)
		if err != nil {
			return err
		}
		if plan != nil && (plan.Layout != screen.Layout || plan.TimeZone != theatre.TimeZone || plan.Currency != theatre.Currency) {
			return ErrShowPlanStale
		}
		out.Movie, out.Theatre, out.Screen = movie, theatre, screen.Name
		// The show's copy of its theatre carries no currency: the show's
		// own (Show.Currency) is the one it is priced in.
		out.Theatre.Currency = ""
		if cardID == "" {
			return tx.InsertShow(out, seats)
		}
		// The show copies the card and the types as they are now: an
		// edit of either serialises on typesKey and runs before or after.
		if err := tx.Serialize(typesKey(theatre.ID)); err != nil {
			return err
		}
		card, err := tx.PriceCardByID(cardID)
		if err != nil {
			return err
		}
		if card.TheatreID != theatre.ID {
			return InvalidFields{{Field: "card", Message: "Choose a price card of the screen's theatre."}}
		}
		types, err := tx.TicketTypes(theatre.ID)
		if err != nil {
			return err
		}
		p := ShowPrices{Types: TypesOf(types)}
		cats := seatCategories(seats)
		for _, c := range card.Cells {
			if slices.Contains(cats, c.Category) {
				p.Cells = append(p.Cells, c)
			}
		}
		if err := checkShowPrices(p, seats); err != nil {
			return errPriceCardUnfit(card.Name, err)
		}
		if err := tx.InsertShow(out, pricedSeats(seats, p)); err != nil {
			return err
		}
		return tx.PutShowPrices(out.ID, theatre.ID, p)
	})
	if err != nil {
		return Show{}, err
	}
	return out, nil
}
