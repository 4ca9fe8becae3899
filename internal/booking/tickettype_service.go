package booking

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// The catalog's ticket types, price cards and shows' price tables (SPEC
// §15), as the admin pages manage them.

// TicketTypes are the theatre's stored types, in order (none: TypesOf
// makes them the implicit standard); ErrTheatreNotFound.
func (c *Catalog) TicketTypes(ctx context.Context, theatreID string) ([]TicketType, error) {
	if _, err := c.store.Theatre(ctx, theatreID); err != nil {
		return nil, err
	}
	return c.store.TicketTypes(ctx, theatreID)
}

// SaveTicketType adds t to the theatre (oldID "") or replaces its type
// oldID: SaveTicketTypeStep.
func (c *Catalog) SaveTicketType(ctx context.Context, theatreID, oldID string, t TicketType) error {
	t.ID, t.Name, t.Note = strings.TrimSpace(t.ID), strings.TrimSpace(t.Name), strings.TrimSpace(t.Note)
	return SaveTicketTypeStep(ctx, c.store, c.clock.Now, theatreID, oldID, t)
}

// MoveTicketType moves a type one place up or down.
func (c *Catalog) MoveTicketType(ctx context.Context, theatreID, id string, up bool) error {
	return MoveTicketTypeStep(ctx, c.store, c.clock.Now, theatreID, id, up)
}

// DeleteTicketType deletes a type no card or show uses.
func (c *Catalog) DeleteTicketType(ctx context.Context, theatreID, id string) error {
	return DeleteTicketTypeStep(ctx, c.store, c.clock.Now, theatreID, id)
}

// TheatreCategories are the seat categories of the theatre's screens, in
// the order of their screens and layouts, each once: the rows of its
// price cards.
func (c *Catalog) TheatreCategories(ctx context.Context, theatreID string) ([]string, error) {
	screens, err := c.store.ListScreens(ctx, theatreID)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, sc := range screens {
		l, err := ParseLayout(sc.Layout)
		if err != nil {
			continue // a stored layout always parses; a broken one adds nothing
		}
		for _, name := range l.CategoryNames() {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out, nil
}

// PriceCards are the theatre's cards, by name.
func (c *Catalog) PriceCards(ctx context.Context, theatreID string) ([]PriceCard, error) {
	return c.store.PriceCards(ctx, theatreID)
}

// PriceCard is one card.
func (c *Catalog) PriceCard(ctx context.Context, id string) (PriceCard, error) {
	return c.store.PriceCard(ctx, id)
}

// SavePriceCard validates and stores a card of its theatre (a new one,
// ID empty, gets an id, which is returned): SavePriceCardStep.
func (c *Catalog) SavePriceCard(ctx context.Context, card PriceCard) (string, error) {
	card.Name = strings.TrimSpace(card.Name)
	if card.ID != "" {
		old, err := c.PriceCard(ctx, card.ID)
		if err != nil {
			return "", err
		}
		card.TheatreID = old.TheatreID
	}
	cats, err := c.TheatreCategories(ctx, card.TheatreID)
	if err != nil {
		return "", err
	}
	if card.ID == "" {
		card.ID = c.newID()
	}
	return card.ID, SavePriceCardStep(ctx, c.store, c.clock.Now, card, cats)
}

// DeletePriceCard deletes a card; shows made with it keep their copies.
func (c *Catalog) DeletePriceCard(ctx context.Context, id string) error {
	return DeletePriceCardStep(ctx, c.store, c.clock.Now, id)
}

// NewShowWithCard is NewShow for a theatre with price cards: the show's
// prices, in its theatre's currency, come from the card cardID
// (CreateCardShowStep), not typed per category.
func (c *Catalog) NewShowWithCard(ctx context.Context, movieID, screenID, start, cardID string) (Show, error) {
	var f fields
	if cardID == "" {
		f.add("card", "Choose a price card.")
	}
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
	layout, err := ParseLayout(screen.Layout)
	if err != nil {
		return Show{}, InvalidFields{{Field: "screen", Message: "The screen's layout is not valid: " + err.Error()}}
	}
	// Plan with a placeholder price per category: the step prices the
	// seats from the card it reads.
	placeholder := map[string]string{}
	for _, name := range layout.CategoryNames() {
		placeholder[name] = "1"
	}
	show, seats, err := PlanShow(c.newID(), movie, theatre, screen, start, placeholder, c.clock.Now())
	if err != nil {
		return Show{}, err
	}
	show, err = CreateCardShowStep(ctx, c.store, c.clock.Now, show, seats, &ShowPlanBasis{Layout: screen.Layout, TimeZone: theatre.TimeZone, Currency: theatre.Currency}, cardID)
	switch {
	case errors.Is(err, ErrMovieNotFound):
		f.add("movie", "Choose a movie.")
	case errors.Is(err, ErrScreenNotFound):
		f.add("screen", "Choose a screen.")
	case errors.Is(err, ErrPriceCardNotFound):
		f.add("card", "Choose a price card.")
	case err != nil:
		return Show{}, err
	}
	if len(f) > 0 {
		return Show{}, f.err()
	}
	return show, nil
}

// ShowPricing is a show's price table as its admin page shows it: what it
// sells (ShowPricesOf) and the theatre's types it does not sell yet, which
// the table may gain.
type ShowPricing struct {
	Categories []string
	Prices     ShowPrices
	// More are the theatre's types the show has not copied.
	More []TicketType
}

// ShowPricing reads a show's table, its categories and the types it may
// gain.
func (c *Catalog) ShowPricing(ctx context.Context, showID string) (ShowPricing, error) {
	seats, stored, theatreTypes, err := c.store.ShowPricing(ctx, showID)
	if err != nil {
		return ShowPricing{}, err
	}
	out := ShowPricing{Categories: seatCategories(seats), Prices: ShowPricesOf(stored, Categories(seats))}
	for _, t := range theatreTypes {
		if _, ok := TypeByID(out.Prices.Types, t.ID); !ok {
			out.More = append(out.More, t)
		}
	}
	return out, nil
}

// SaveShowPrices sets the show's table to cells, adding the theatre's
// types among add that cells price (as they are now): SaveShowPricesStep.
func (c *Catalog) SaveShowPrices(ctx context.Context, showID string, cells PriceTable) error {
	pricing, err := c.ShowPricing(ctx, showID)
	if err != nil {
		return err
	}
	want := ShowPrices{Types: slices.Clone(pricing.Prices.Types), Cells: cells}
	for _, t := range pricing.More {
		if slices.ContainsFunc(cells, func(p PriceCell) bool { return p.Type == t.ID }) {
			want.Types = append(want.Types, t)
		}
	}
	return SaveShowPricesStep(ctx, c.store, c.clock.Now, c.rules, showID, want)
}
