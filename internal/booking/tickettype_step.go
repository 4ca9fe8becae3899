package booking

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
)

// The steps of ticket types, price cards and shows' price tables (SPEC
// §15). A theatre's types and its cards decide on each other (a type in
// use by a card stays; a card is checked against the types), and a show
// created with a card copies both, so each of these steps serialises on
// the theatre's typesKey: of two at once, one runs after the other and
// sees what it did.

func typesKey(theatreID string) string { return "catalog:types:" + theatreID }

// typeInUse is ErrInUse when a card of the theatre prices the type, or a
// show copied it; what says what was asked ("deleted", "changed where it
// is sold").
func typeInUse(tx Tx, theatreID, typeID, what string) error {
	cards, err := tx.PriceCards(theatreID)
	if err != nil {
		return err
	}
	var names []string
	for _, c := range cards {
		if slices.ContainsFunc(c.Cells, func(p PriceCell) bool { return p.Type == typeID }) {
			names = append(names, c.Name)
		}
	}
	if len(names) > 0 {
		return ErrInUse("The price card(s) %s price the type %s: take it off them before it is %s.", strings.Join(names, ", "), typeID, what)
	}
	shows, err := tx.CountShowsWithType(theatreID, typeID)
	if err != nil {
		return err
	}
	if shows > 0 {
		return ErrInUse("%d show(s) sell the type %s; it cannot be %s. Add a new type instead.", shows, typeID, what)
	}
	return nil
}

// SaveTicketTypeStep adds t to the theatre's types (oldID "": last in the
// order), or replaces the type oldID (its id and place stay), after
// ValidateTicketType. Changing where a type is sold while a card or a
// show uses it is ErrInUse.
func SaveTicketTypeStep(ctx context.Context, st Transactor, clock func() time.Time, theatreID, oldID string, t TicketType) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		t := t
		if err := tx.Serialize(typesKey(theatreID)); err != nil {
			return err
		}
		if _, err := tx.TheatreByID(theatreID); err != nil {
			return err
		}
		types, err := tx.TicketTypes(theatreID)
		if err != nil {
			return err
		}
		if oldID == "" {
			if err := ValidateTicketType(t, types); err != nil {
				return err
			}
			return tx.PutTicketTypes(theatreID, append(slices.Clone(types), t))
		}
		i := slices.IndexFunc(types, func(x TicketType) bool { return x.ID == oldID })
		if i < 0 {
			return ErrTicketTypeNotFound
		}
		t.ID = oldID
		others := slices.Delete(slices.Clone(types), i, i+1)
		if err := ValidateTicketType(t, others); err != nil {
			return err
		}
		if old := types[i]; old.Online != t.Online || old.BoxOffice != t.BoxOffice {
			if err := typeInUse(tx, theatreID, oldID, "changed where it is sold"); err != nil {
				return err
			}
		}
		out := slices.Clone(types)
		out[i] = t
		return tx.PutTicketTypes(theatreID, out)
	})
}

// EnsureTicketTypesStep adds each of types the theatre has no type of its
// id yet, after the ones it has, in one step: the demo's seeding, which
// may run again after it was cut short.
func EnsureTicketTypesStep(ctx context.Context, st Transactor, clock func() time.Time, theatreID string, types []TicketType) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if err := tx.Serialize(typesKey(theatreID)); err != nil {
			return err
		}
		have, err := tx.TicketTypes(theatreID)
		if err != nil {
			return err
		}
		out := slices.Clone(have)
		for _, t := range types {
			if _, ok := TypeByID(out, t.ID); ok {
				continue
			}
			if err := ValidateTicketType(t, out); err != nil {
				return err
			}
			out = append(out, t)
		}
		if len(out) == len(have) {
			return nil
		}
		return tx.PutTicketTypes(theatreID, out)
	})
}

// MoveTicketTypeStep moves the theatre's type id one place up (earlier)
// or down; at the end it stays.
func MoveTicketTypeStep(ctx context.Context, st Transactor, clock func() time.Time, theatreID, id string, up bool) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if err := tx.Serialize(typesKey(theatreID)); err != nil {
			return err
		}
		types, err := tx.TicketTypes(theatreID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(types, func(x TicketType) bool { return x.ID == id })
		if i < 0 {
			return ErrTicketTypeNotFound
		}
		j := i + 1
		if up {
			j = i - 1
		}
		if j < 0 || j >= len(types) {
			return nil
		}
		out := slices.Clone(types)
		out[i], out[j] = out[j], out[i]
		return tx.PutTicketTypes(theatreID, out)
	})
}

// DeleteTicketTypeStep deletes the theatre's type id unless a card or a
// show uses it (ErrInUse).
func DeleteTicketTypeStep(ctx context.Context, st Transactor, clock func() time.Time, theatreID, id string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if err := tx.Serialize(typesKey(theatreID)); err != nil {
			return err
		}
		types, err := tx.TicketTypes(theatreID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(types, func(x TicketType) bool { return x.ID == id })
		if i < 0 {
			return ErrTicketTypeNotFound
		}
		if err := typeInUse(tx, theatreID, id, "deleted"); err != nil {
			return err
		}
		return tx.PutTicketTypes(theatreID, slices.Delete(slices.Clone(types), i, i+1))
	})
}

// SavePriceCardStep validates c against the theatre's seat categories
// (categories, of all its screens) and its types as they are in the step,
// and stores it. An existing card keeps its theatre.
func SavePriceCardStep(ctx context.Context, st Transactor, clock func() time.Time, c PriceCard, categories []string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		c := c
		switch old, err := tx.PriceCardByID(c.ID); {
		case err == nil:
			c.TheatreID = old.TheatreID
		case !errors.Is(err, ErrPriceCardNotFound):
			return err
		}
		if err := tx.Serialize(typesKey(c.TheatreID)); err != nil {
			return err
		}
		if _, err := tx.TheatreByID(c.TheatreID); err != nil {
			return err
		}
		types, err := tx.TicketTypes(c.TheatreID)
		if err != nil {
			return err
		}
		if err := ValidatePriceCard(c, categories, TypesOf(types)); err != nil {
			return err
		}
		c.Cells = c.Cells.Sorted(categories, TypesOf(types))
		return tx.PutPriceCard(c)
	})
}

// DeletePriceCardStep deletes a card; the shows made with it keep their
// copies.
func DeletePriceCardStep(ctx context.Context, st Transactor, clock func() time.Time, id string) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		c, err := tx.PriceCardByID(id)
		if err != nil {
			return err
		}
		if err := tx.Serialize(typesKey(c.TheatreID)); err != nil {
			return err
		}
		return tx.DeletePriceCardRecord(id)
	})
}

// pricedSeats are seats with the price of each seat set to its category's
// DefaultOnline price in p: what checkout charges before a buyer chooses
// another type. p must offer each category online (ValidatePriceTable).
func pricedSeats(seats []Seat, p ShowPrices) []Seat {
	out := slices.Clone(seats)
	for i := range out {
		if low, ok := p.Cells.DefaultOnline(out[i].Category, p.Types); ok {
			out[i].Price = low
		}
	}
	return out
}

// seatCategories are the category names of seats, in map order.
func seatCategories(seats []Seat) []string { return CategoryNames(Categories(seats)) }

// checkShowPrices validates p for a show of seats: 422 naming the cell or
// category, with the field names of the show's admin page.
func checkShowPrices(p ShowPrices, seats []Seat) error {
	if len(p.Types) == 0 {
		return Errorf(EINVALID, "A show's price table needs at least one ticket type.")
	}
	return ValidatePriceTable(p.Cells, seatCategories(seats), p.Types)
}

// CreatePricedShowStep stores a new show with its seats and its own price
// table p, as CreateShowStep does; each seat costs its category's
// DefaultOnline price in p. A table that does not offer every category of the
// seats online and at the box office is EINVALID. "boxoffice seed" makes
// its shows with it.
func CreatePricedShowStep(ctx context.Context, st Transactor, clock func() time.Time, show Show, seats []Seat, p ShowPrices) error {
	if err := checkNewShow(show, seats); err != nil {
		return err
	}
	if err := checkShowPrices(p, seats); err != nil {
		return err
	}
	seats = pricedSeats(seats, p)
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if err := checkShowIsNew(tx, show.ID); err != nil {
			return err
		}
		if err := tx.InsertShow(show, seats); err != nil {
			return err
		}
		return tx.PutShowPrices(show.ID, show.Theatre.ID, p)
	})
}

// errPriceCardUnfit is a card that does not price every category of the
// show's screen online and at the box office.
func errPriceCardUnfit(card string, err error) error {
	return InvalidFields{{Field: "card", Message: "The price card " + card + " does not fit this screen: " + err.Error()}}
}

// CreateCardShowStep is CreateCatalogShowStep for a show made with the
// price card cardID of its theatre: in the same step it reads the card
// and the theatre's types, copies both into the show (ShowPrices) and
// prices each seat at its category's DefaultOnline price. A card deleted
// meanwhile is ErrPriceCardNotFound, one of another theatre or that does
// not offer each of the screen's categories online and at the box office
// a field error on "card".
func CreateCardShowStep(ctx context.Context, st Transactor, clock func() time.Time, show Show, seats []Seat, plan *ShowPlanBasis, cardID string) (Show, error) {
	return createCatalogShow(ctx, st, clock, show, seats, plan, cardID)
}

// SaveShowPricesStep replaces a show's price table and types with want
// (SPEC §15): always allowed when it only adds types and prices in cells
// that were not offered; changing or removing an offered price is
// ErrInUse while a seat of the show is locked live under rules or a hold
// of it has a payment pending. Each seat then costs its category's
// DefaultOnline price (a hold keeps the amount it was made at).
// want must keep the show's types as they are (a show's copies do not
// follow its theatre's) and may add others. It writes every seat of the
// show when it changes an offered price, so that a hold racing it in
// MongoDB conflicts with it: one of the two runs after the other.
func SaveShowPricesStep(ctx context.Context, st Transactor, clock func() time.Time, rules Rules, showID string, want ShowPrices) error {
	return st.Atomically(ctx, clock, func(tx Tx) error {
		show, err := tx.ShowByID(showID)
		if err != nil {
			return err
		}
		seats, err := tx.AllSeats(showID)
		if err != nil {
			return err
		}
		SortSeatsByPlace(seats)
		stored, err := tx.ShowPrices(showID)
		if err != nil {
			return err
		}
		cats := Categories(seats)
		old := ShowPricesOf(stored, cats)
		for _, t := range old.Types {
			if n, ok := TypeByID(want.Types, t.ID); !ok || n != t {
				return Errorf(EINVALID, "The show's type %s must stay as the show copied it.", t.ID)
			}
		}
		if err := checkShowPrices(want, seats); err != nil {
			return err
		}
		changed := false
		for _, c := range old.Cells {
			if p, ok := want.Cells.Price(c.Category, c.Type); !ok || p != c.Price {
				changed = true
			}
		}
		newPrice := map[string]Money{}
		for _, cat := range cats {
			if low, ok := want.Cells.DefaultOnline(cat.Name, want.Types); ok && low != cat.Price {
				newPrice[cat.Name] = low
			}
		}
		if changed {
			if err := checkNoSaleUnderway(tx, rules.At(tx.Now()), seats); err != nil {
				return err
			}
			ids := make([]string, len(seats))
			for i, s := range seats {
				ids[i] = s.ID
			}
			if err := tx.GuardSeats(showID, ids); err != nil {
				return err
			}
		}
		if err := tx.PutShowPrices(showID, show.Theatre.ID, ShowPrices{Types: want.Types, Cells: want.Cells.Sorted(CategoryNames(cats), want.Types)}); err != nil {
			return err
		}
		for _, cat := range cats {
			if p, ok := newPrice[cat.Name]; ok {
				if err := tx.SetCategoryPrice(showID, cat.Name, p); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// checkNoSaleUnderway is ErrInUse naming the first seat locked live at m,
// or locked by a hold with a payment pending.
func checkNoSaleUnderway(tx Tx, m Moment, seats []Seat) error {
	asked := map[string]bool{}
	for _, s := range seats {
		if s.Status != SeatLocked {
			continue
		}
		if s.HeldAt(m) {
			return ErrInUse("Seat %s is held now: an offered price can change once no seat of the show is held or being paid for.", s.ID)
		}
		if s.HoldID == "" || asked[s.HoldID] {
			continue
		}
		asked[s.HoldID] = true
		payments, err := tx.PendingPayments(s.HoldID)
		if err != nil {
			return err
		}
		for _, p := range payments {
			if p.State == PaymentPending {
				return ErrInUse("Seat %s is being paid for: an offered price can change once no seat of the show is held or being paid for.", s.ID)
			}
		}
	}
	return nil
}

// SetTheatreTaxRateStep stores the theatre's tax rates (SPEC §17); rates
// that TaxRates.Validate refuses are InvalidFields, and nothing is saved.
func SetTheatreTaxRateStep(ctx context.Context, st Transactor, clock func() time.Time, theatreID string, rates TaxRates) error {
	if err := rates.Validate(); err != nil {
		return err
	}
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if err := tx.Serialize(theatreKey(theatreID)); err != nil {
			return err
		}
		if _, err := tx.TheatreByID(theatreID); err != nil {
			return err
		}
		return tx.SetTheatreTaxRate(theatreID, rates)
	})
}

// SetMovieRentStep stores the movie's rental terms (SPEC §17), as
// ParseRent reads them.
func SetMovieRentStep(ctx context.Context, st Transactor, clock func() time.Time, movieID string, rent []int) error {
	if err := checkRent(rent); err != nil {
		return err
	}
	return st.Atomically(ctx, clock, func(tx Tx) error {
		if err := tx.Serialize(movieKey(movieID)); err != nil {
			return err
		}
		if _, err := tx.MovieByID(movieID); err != nil {
			return err
		}
		return tx.SetMovieRent(movieID, FormatRent(rent))
	})
}

func checkRent(rent []int) error {
	for _, n := range rent {
		if n < 0 || n > 100 || len(rent) > MaxRentWeeks {
			return Errorf(EINVALID, "The rental terms must be percents from 0 to 100, for at most %d weeks.", MaxRentWeeks)
		}
	}
	return nil
}

// SortSeatsByPlace sorts seats in map order: from the screen, then left to
// right.
func SortSeatsByPlace(seats []Seat) {
	slices.SortFunc(seats, func(a, b Seat) int {
		if a.GridRow != b.GridRow {
			return a.GridRow - b.GridRow
		}
		return a.GridCol - b.GridCol
	})
}
