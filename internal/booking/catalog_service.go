package booking

import (
	"context"
	"strings"
)

// The catalog as the admin pages manage it: the rules (ValidateTheatre,
// ValidateScreen, ValidateMovie, PlanShow) run here, the store stores.

// SaveTheatre validates t and stores it; a new theatre (ID empty) gets an
// id, which is returned.
func (s *Service) SaveTheatre(ctx context.Context, t Theatre) (string, error) {
	t.Name, t.City, t.TimeZone = strings.TrimSpace(t.Name), strings.TrimSpace(t.City), strings.TrimSpace(t.TimeZone)
	if err := ValidateTheatre(t); err != nil {
		return "", err
	}
	if t.ID == "" {
		t.ID = s.newID()
	}
	return t.ID, s.store.SaveTheatre(ctx, t)
}

// SaveScreen validates sc (its layout parses) and stores it, keeping the
// text as typed so the admin finds it as they wrote it.
func (s *Service) SaveScreen(ctx context.Context, sc Screen) (string, error) {
	sc.Name = strings.TrimSpace(sc.Name)
	if _, err := ValidateScreen(sc); err != nil {
		return "", err
	}
	if sc.ID == "" {
		sc.ID = s.newID()
	}
	return sc.ID, s.store.SaveScreen(ctx, sc)
}

// SaveMovie validates m and stores it.
func (s *Service) SaveMovie(ctx context.Context, m Movie) (string, error) {
	m.Title, m.Language, m.Rating = strings.TrimSpace(m.Title), strings.TrimSpace(m.Language), strings.TrimSpace(m.Rating)
	if err := ValidateMovie(m); err != nil {
		return "", err
	}
	if m.ID == "" {
		m.ID = s.newID()
	}
	return m.ID, s.store.SaveMovie(ctx, m)
}

// NewShow plans a show of movieID on screenID (PlanShow) and stores it with
// its seats, copied from the screen's layout.
func (s *Service) NewShow(ctx context.Context, movieID, screenID, start string, prices map[string]string, currency string) (Show, error) {
	var f fields
	movie, err := s.store.Movie(ctx, movieID)
	switch {
	case ErrorCode(err) == ENOTFOUND:
		f.add("movie", "Choose a movie.")
	case err != nil:
		return Show{}, err
	}
	screen, err := s.store.Screen(ctx, screenID)
	switch {
	case ErrorCode(err) == ENOTFOUND:
		f.add("screen", "Choose a screen.")
	case err != nil:
		return Show{}, err
	}
	if len(f) > 0 {
		return Show{}, f.err()
	}
	theatre, err := s.store.Theatre(ctx, screen.TheatreID)
	if err != nil {
		return Show{}, err
	}
	show, seats, err := PlanShow(s.newID(), movie, theatre, screen, start, prices, currency, s.clock.Now())
	if err != nil {
		return Show{}, err
	}
	return show, CreateShowStep(ctx, s.store, s.clock.Now, show, seats)
}

// Catalog reads, for the admin pages.

func (s *Service) Theatre(ctx context.Context, id string) (Theatre, error) {
	return s.store.Theatre(ctx, id)
}
func (s *Service) ListTheatres(ctx context.Context) ([]Theatre, error) {
	return s.store.ListTheatres(ctx)
}
func (s *Service) Screen(ctx context.Context, id string) (Screen, error) {
	return s.store.Screen(ctx, id)
}
func (s *Service) ListScreens(ctx context.Context, theatreID string) ([]Screen, error) {
	return s.store.ListScreens(ctx, theatreID)
}
func (s *Service) Movie(ctx context.Context, id string) (Movie, error) { return s.store.Movie(ctx, id) }
func (s *Service) ListMovies(ctx context.Context) ([]Movie, error)     { return s.store.ListMovies(ctx) }

// Deletions: each refused with ErrInUse while something uses it.

func (s *Service) DeleteTheatre(ctx context.Context, id string) error {
	return s.store.DeleteTheatre(ctx, id)
}
func (s *Service) DeleteScreen(ctx context.Context, id string) error {
	return s.store.DeleteScreen(ctx, id)
}
func (s *Service) DeleteMovie(ctx context.Context, id string) error {
	return s.store.DeleteMovie(ctx, id)
}
func (s *Service) DeleteShow(ctx context.Context, id string) error {
	return DeleteShowStep(ctx, s.store, s.clock.Now, id)
}
