package booking

import (
	"context"
	"errors"
	"strings"
)

// Catalog is the catalog as the admin pages manage it (SPEC §10): the
// rules (ValidateTheatre, ValidateScreen, ValidateMovie, PlanShow) run
// here, the store stores. Like Admins it is a service of its own: it needs
// the store's catalog, new ids and the time, and none of the policy of the
// hold lifecycle that Service carries.
type Catalog struct {
	store catalogStore
	clock Clock
	newID func() string
	rules Rules // the seat rule's, for SaveShowPrices
}

// catalogStore is the part of the store port the catalog uses: its reads,
// and the transactions of its steps (catalog_step.go, DeleteShowStep).
type catalogStore interface {
	CatalogStore
	TypesStore
	Transactor
}

// Catalog is the catalog of this service's store, on its clock.
func (s *Service) Catalog() *Catalog {
	return &Catalog{store: s.store, clock: s.clock, newID: s.newID, rules: s.rules}
}

// SaveTheatre validates t and stores it; a new theatre (ID empty) gets an
// id, which is returned.
func (c *Catalog) SaveTheatre(ctx context.Context, t Theatre) (string, error) {
	t.Name, t.City, t.TimeZone = strings.TrimSpace(t.Name), strings.TrimSpace(t.City), strings.TrimSpace(t.TimeZone)
	t.Currency = strings.ToUpper(strings.TrimSpace(t.Currency))
	if err := ValidateTheatre(t); err != nil {
		return "", err
	}

	if t.ID == "" {
		t.ID = c.newID()
	}
	return t.ID, SaveTheatreStep(ctx, c.store, c.clock.Now, t)
}

// TaxText is a theatre form's tax fields as typed (SPEC §17): a percent,
// a price in the theatre's currency above which the second percent
// applies instead; empty is none.
type TaxText struct {
	Rate, Above, AboveRate string
}

// SaveTheatreTaxed is SaveTheatre with the theatre's tax rates from its
// form: both are validated (one InvalidFields naming every field), then
// saved in one step.
func (c *Catalog) SaveTheatreTaxed(ctx context.Context, t Theatre, tax TaxText) (string, error) {
	t.Name, t.City, t.TimeZone = strings.TrimSpace(t.Name), strings.TrimSpace(t.City), strings.TrimSpace(t.TimeZone)
	t.Currency = strings.ToUpper(strings.TrimSpace(t.Currency))
	rates, err := ParseTaxRates(tax, t.Currency)
	if err := joinFields(ValidateTheatre(t), err); err != nil {
		return "", err
	}
	if t.ID == "" {
		t.ID = c.newID()
	}
	return t.ID, SaveTheatreTaxStep(ctx, c.store, c.clock.Now, t, rates)
}

// SaveMovieRented is SaveMovie with the movie's rental terms from its
// form ("50,45,40"; empty for none): both are validated, then saved in
// one step.
func (c *Catalog) SaveMovieRented(ctx context.Context, m Movie, rentText string) (string, error) {
	m.Title, m.Language, m.Rating = strings.TrimSpace(m.Title), strings.TrimSpace(m.Language), strings.TrimSpace(m.Rating)
	var (
		rent    []int
		rentErr error
	)
	if strings.TrimSpace(rentText) != "" {
		if rent, rentErr = ParseRent(rentText); rentErr != nil {
			rentErr = InvalidFields{{Field: "rent", Message: ErrorMessage(rentErr)}}
		}
	}
	if err := joinFields(ValidateMovie(m), rentErr); err != nil {
		return "", err
	}
	if m.ID == "" {
		m.ID = c.newID()
	}
	return m.ID, SaveMovieRentStep(ctx, c.store, c.clock.Now, m, rent)
}

// SaveScreen validates sc (its layout parses) and stores it, keeping the
// text as typed so the admin finds it as they wrote it.
func (c *Catalog) SaveScreen(ctx context.Context, sc Screen) (string, error) {
	sc.Name = strings.TrimSpace(sc.Name)
	if _, err := ValidateScreen(sc); err != nil {
		return "", err
	}
	if sc.ID == "" {
		sc.ID = c.newID()
	}
	return sc.ID, SaveScreenStep(ctx, c.store, c.clock.Now, sc)
}

// SaveMovie validates m and stores it.
func (c *Catalog) SaveMovie(ctx context.Context, m Movie) (string, error) {
	m.Title, m.Language, m.Rating = strings.TrimSpace(m.Title), strings.TrimSpace(m.Language), strings.TrimSpace(m.Rating)
	if err := ValidateMovie(m); err != nil {
		return "", err
	}
	if m.ID == "" {
		m.ID = c.newID()
	}
	return m.ID, SaveMovieStep(ctx, c.store, c.clock.Now, m)
}

// NewShow plans a show of movieID on screenID (PlanShow), priced in its
// theatre's currency, and stores it with its seats, copied from the
// screen's layout (CreateCatalogShowStep, which
// reads the movie, screen and theatre again). A movie or screen deleted
// meanwhile is the form's problem, as one missing before.
func (c *Catalog) NewShow(ctx context.Context, movieID, screenID, start string, prices map[string]string) (Show, error) {
	var f fields
	movie, err := c.store.Movie(ctx, movieID)
	switch {
	case ErrorCode(err) == ENOTFOUND:
		f.add("movie", "Choose a movie.")
	case err != nil:
		return Show{}, err
	}
	screen, err := c.store.Screen(ctx, screenID)
	switch {
	case ErrorCode(err) == ENOTFOUND:
		f.add("screen", "Choose a screen.")
	case err != nil:
		return Show{}, err
	}
	if len(f) > 0 {
		return Show{}, f.err()
	}
	theatre, err := c.store.Theatre(ctx, screen.TheatreID)
	if err != nil {
		return Show{}, err
	}
	show, seats, err := PlanShow(c.newID(), movie, theatre, screen, start, prices, c.clock.Now())
	if err != nil {
		return Show{}, err
	}
	show, err = CreateCatalogShowStep(ctx, c.store, c.clock.Now, show, seats, &ShowPlanBasis{Layout: screen.Layout, TimeZone: theatre.TimeZone, Currency: theatre.Currency})
	switch {
	case errors.Is(err, ErrMovieNotFound):
		f.add("movie", "Choose a movie.")
	case errors.Is(err, ErrScreenNotFound):
		f.add("screen", "Choose a screen.")
	case err != nil:
		return Show{}, err
	}
	if len(f) > 0 {
		return Show{}, f.err()
	}
	return show, nil
}

// Catalog reads, for the admin pages.

func (c *Catalog) Theatre(ctx context.Context, id string) (Theatre, error) {
	return c.store.Theatre(ctx, id)
}
func (c *Catalog) ListTheatres(ctx context.Context) ([]Theatre, error) {
	return c.store.ListTheatres(ctx)
}
func (c *Catalog) Screen(ctx context.Context, id string) (Screen, error) {
	return c.store.Screen(ctx, id)
}
func (c *Catalog) ListScreens(ctx context.Context, theatreID string) ([]Screen, error) {
	return c.store.ListScreens(ctx, theatreID)
}
func (c *Catalog) Movie(ctx context.Context, id string) (Movie, error) { return c.store.Movie(ctx, id) }
func (c *Catalog) ListMovies(ctx context.Context) ([]Movie, error)     { return c.store.ListMovies(ctx) }

// Deletions: each refused with ErrInUse while something uses it.

func (c *Catalog) DeleteTheatre(ctx context.Context, id string) error {
	return DeleteTheatreStep(ctx, c.store, c.clock.Now, id)
}
func (c *Catalog) DeleteScreen(ctx context.Context, id string) error {
	return DeleteScreenStep(ctx, c.store, c.clock.Now, id)
}
func (c *Catalog) DeleteMovie(ctx context.Context, id string) error {
	return DeleteMovieStep(ctx, c.store, c.clock.Now, id)
}
func (c *Catalog) DeleteShow(ctx context.Context, id string) error {
	return DeleteShowStep(ctx, c.store, c.clock.Now, id)
}

// joinFields is the problems of errs (each nil or InvalidFields) as one
// InvalidFields, nil when there are none; another error is returned as it
// is.
func joinFields(errs ...error) error {
	var f fields
	for _, err := range errs {
		var inv InvalidFields
		switch {
		case err == nil:
		case errors.As(err, &inv):
			f = append(f, inv...)
		default:
			return err
		}
	}
	return f.err()
}
