package mongo

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// The steps' reads and writes of ticket types, price cards and shows'
// price tables (booking.TypesTx). A theatre's types are one document
// (colTicketTypes, _id the theatre's id), in order; a card is one document
// with its cells; a show's table and copied types are one document
// (colShowPrices, _id the show's id), written with the show.

type typeDoc struct {
	ID          string `bson:"id"`
	Name        string `bson:"name"`
	Note        string `bson:"note"`
	DoorCheck   bool   `bson:"door_check"`
	Accompanied bool   `bson:"accompanied"`
	Online      bool   `bson:"online"`
	BoxOffice   bool   `bson:"box_office"`
}

type cellDoc struct {
	Category string `bson:"category"`
	Type     string `bson:"type"`
	Price    int64  `bson:"price"`
}

// theatreTypesDoc is a document of colTicketTypes.
type theatreTypesDoc struct {
	ID    string    `bson:"_id"` // the theatre's id
	Types []typeDoc `bson:"types"`
}

// priceCardDoc is a document of colPriceCards.
type priceCardDoc struct {
	ID        string    `bson:"_id"`
	TheatreID string    `bson:"theatre_id"`
	Name      string    `bson:"name"`
	Cells     []cellDoc `bson:"cells"`
}

// showPricesDoc is a document of colShowPrices.
type showPricesDoc struct {
	ID        string    `bson:"_id"` // the show's id
	TheatreID string    `bson:"theatre_id"`
	Types     []typeDoc `bson:"types"`
	Cells     []cellDoc `bson:"cells"`
}

func toTypeDocs(types []booking.TicketType) []typeDoc {
	out := make([]typeDoc, len(types))
	for i, t := range types {
		out[i] = typeDoc{ID: t.ID, Name: t.Name, Note: t.Note, DoorCheck: t.DoorCheck, Accompanied: t.Accompanied, Online: t.Online, BoxOffice: t.BoxOffice}
	}
	return out
}

func fromTypeDocs(docs []typeDoc) []booking.TicketType {
	out := make([]booking.TicketType, len(docs))
	for i, d := range docs {
		out[i] = booking.TicketType{ID: d.ID, Name: d.Name, Note: d.Note, DoorCheck: d.DoorCheck, Accompanied: d.Accompanied, Online: d.Online, BoxOffice: d.BoxOffice}
	}
	return out
}

func toCellDocs(cells booking.PriceTable) []cellDoc {
	out := make([]cellDoc, len(cells))
	for i, c := range cells {
		out[i] = cellDoc{Category: c.Category, Type: c.Type, Price: int64(c.Price)}
	}
	return out
}

func fromCellDocs(docs []cellDoc) booking.PriceTable {
	out := make(booking.PriceTable, len(docs))
	for i, d := range docs {
		out[i] = booking.PriceCell{Category: d.Category, Type: d.Type, Price: booking.Money(d.Price)}
	}
	return out
}

func (d priceCardDoc) card() booking.PriceCard {
	return booking.PriceCard{ID: d.ID, TheatreID: d.TheatreID, Name: d.Name, Cells: fromCellDocs(d.Cells)}
}

func (t *tx) TicketTypes(theatreID string) ([]booking.TicketType, error) {
	var d theatreTypesDoc
	err := t.s.col(colTicketTypes).FindOne(t.ctx, byID(theatreID)).Decode(&d)
	switch err := noDoc(err, booking.ErrTicketTypeNotFound, "read ticket types"); {
	case err == booking.ErrTicketTypeNotFound:
		return []booking.TicketType{}, nil
	case err != nil:
		return nil, err
	}
	return fromTypeDocs(d.Types), nil
}

func (t *tx) PutTicketTypes(theatreID string, types []booking.TicketType) error {
	return replaceDoc(t, colTicketTypes, "put ticket types", theatreID, theatreTypesDoc{ID: theatreID, Types: toTypeDocs(types)})
}

func (t *tx) PriceCards(theatreID string) ([]booking.PriceCard, error) {
	cur, err := t.s.col(colPriceCards).Find(t.ctx, bson.D{{Key: "theatre_id", Value: theatreID}},
		options.Find().SetSort(bson.D{{Key: "name", Value: 1}, {Key: "_id", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("read price cards: %w", err)
	}
	var docs []priceCardDoc
	if err := cur.All(t.ctx, &docs); err != nil {
		return nil, fmt.Errorf("read price cards: %w", err)
	}
	out := make([]booking.PriceCard, 0, len(docs))
	for _, d := range docs {
		out = append(out, d.card())
	}
	return out, nil
}

func (t *tx) PriceCardByID(id string) (booking.PriceCard, error) {
	var d priceCardDoc
	if err := t.s.col(colPriceCards).FindOne(t.ctx, byID(id)).Decode(&d); err != nil {
		return booking.PriceCard{}, noDoc(err, booking.ErrPriceCardNotFound, "read price card")
	}
	return d.card(), nil
}

func (t *tx) PutPriceCard(c booking.PriceCard) error {
	return replaceDoc(t, colPriceCards, "put price card", c.ID, priceCardDoc{ID: c.ID, TheatreID: c.TheatreID, Name: c.Name, Cells: toCellDocs(c.Cells)})
}

func (t *tx) DeletePriceCardRecord(id string) error {
	return deleteDoc(t, colPriceCards, "delete price card", id)
}

func (t *tx) CountShowsWithType(theatreID, typeID string) (int, error) {
	return countIn(t, colShowPrices, "count shows with type", bson.D{{Key: "theatre_id", Value: theatreID}, {Key: "types.id", Value: typeID}})
}

func (t *tx) ShowPrices(showID string) (booking.ShowPrices, error) {
	var d showPricesDoc
	err := t.s.col(colShowPrices).FindOne(t.ctx, byID(showID)).Decode(&d)
	switch err := noDoc(err, booking.ErrShowNotFound, "read show prices"); {
	case err == booking.ErrShowNotFound:
		return booking.ShowPrices{}, nil
	case err != nil:
		return booking.ShowPrices{}, err
	}
	return booking.ShowPrices{Types: fromTypeDocs(d.Types), Cells: fromCellDocs(d.Cells)}, nil
}

func (t *tx) PutShowPrices(showID, theatreID string, p booking.ShowPrices) error {
	return replaceDoc(t, colShowPrices, "put show prices", showID,
		showPricesDoc{ID: showID, TheatreID: theatreID, Types: toTypeDocs(p.Types), Cells: toCellDocs(p.Cells)})
}

// SetCategoryPrice sets the seats' price, and the show's price range
// (min_price, max_price), which the listing reads off the show's document,
// from its seats' prices as they are now.
func (t *tx) SetCategoryPrice(showID, cat string, price booking.Money) error {
	_, err := t.s.col(colSeats).UpdateMany(t.ctx, bson.D{{Key: "show_id", Value: showID}, {Key: "category", Value: cat}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "price", Value: int64(price)}}}})
	if err != nil {
		return fmt.Errorf("set category price: %w", err)
	}
	cur, err := t.s.col(colSeats).Find(t.ctx, bson.D{{Key: "show_id", Value: showID}},
		options.Find().SetProjection(bson.D{{Key: "price", Value: 1}}))
	if err != nil {
		return fmt.Errorf("read seat prices: %w", err)
	}
	var prices []struct {
		Price int64 `bson:"price"`
	}
	if err := cur.All(t.ctx, &prices); err != nil {
		return fmt.Errorf("read seat prices: %w", err)
	}
	var lo, hi int64
	for i, p := range prices {
		if i == 0 || p.Price < lo {
			lo = p.Price
		}
		if p.Price > hi {
			hi = p.Price
		}
	}
	if _, err := t.s.col(colShows).UpdateOne(t.ctx, byID(showID), bson.D{{Key: "$set", Value: bson.D{
		{Key: "min_price", Value: lo}, {Key: "max_price", Value: hi},
	}}}); err != nil {
		return fmt.Errorf("set price range: %w", err)
	}
	return nil
}

func (t *tx) SetTheatreTaxRate(theatreID string, rates booking.TaxRates) error {
	set := bson.D{
		{Key: "tax_rate", Value: int(rates.Rate)},
		{Key: "tax_above", Value: int64(rates.Above)},
		{Key: "tax_rate_above", Value: int(rates.AboveRate)},
	}
	if _, err := t.s.col(colTheatres).UpdateOne(t.ctx, byID(theatreID), bson.D{{Key: "$set", Value: set}}); err != nil {
		return fmt.Errorf("set tax rate: %w", err)
	}
	return nil
}

// ShowTaxRates reads the show's theatre id, then the theatre's rates: a
// show whose theatre is not in the catalog has none.
func (t *tx) ShowTaxRates(showID string) (booking.TaxRates, error) {
	var show struct {
		Theatre struct {
			ID string `bson:"id"`
		} `bson:"theatre"`
	}
	opts := options.FindOne().SetProjection(bson.D{{Key: "theatre.id", Value: 1}})
	if err := t.s.col(colShows).FindOne(t.ctx, byID(showID), opts).Decode(&show); err != nil {
		if errors.Is(err, mongo.ErrNoDocuments) {
			return booking.TaxRates{}, nil
		}
		return booking.TaxRates{}, fmt.Errorf("show tax rates: %w", err)
	}
	if show.Theatre.ID == "" {
		return booking.TaxRates{}, nil
	}
	var d catalogTheatre
	if err := t.s.col(colTheatres).FindOne(t.ctx, byID(show.Theatre.ID)).Decode(&d); err != nil {
		if errors.Is(err, mongo.ErrNoDocuments) {
			return booking.TaxRates{}, nil
		}
		return booking.TaxRates{}, fmt.Errorf("show tax rates: %w", err)
	}
	return d.theatre().Tax, nil
}

func (t *tx) SetMovieRent(movieID, rent string) error {
	if _, err := t.s.col(colMovies).UpdateOne(t.ctx, byID(movieID), bson.D{{Key: "$set", Value: bson.D{{Key: "rent", Value: rent}}}}); err != nil {
		return fmt.Errorf("set rent: %w", err)
	}
	return nil
}

var _ booking.TypesStore = (*Store)(nil)

// readTx runs f over the steps' reads in one snapshot: a transaction
// with snapshot read concern that writes nothing.
func (s *Store) readTx(ctx context.Context, what string, f func(*tx) error) error {
	_, err := inTx(ctx, s, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, f(&tx{s: s, ctx: ctx})
	})
	return wrap(what, err)
}

// TicketTypes are the theatre's types in order.
func (s *Store) TicketTypes(ctx context.Context, theatreID string) (out []booking.TicketType, err error) {
	err = s.readTx(ctx, "ticket types", func(t *tx) error { out, err = t.TicketTypes(theatreID); return err })
	return out, err
}

// PriceCards are the theatre's price cards with their cells.
func (s *Store) PriceCards(ctx context.Context, theatreID string) (out []booking.PriceCard, err error) {
	err = s.readTx(ctx, "price cards", func(t *tx) error { out, err = t.PriceCards(theatreID); return err })
	return out, err
}

// PriceCard is one price card with its cells.
func (s *Store) PriceCard(ctx context.Context, id string) (out booking.PriceCard, err error) {
	err = s.readTx(ctx, "price card", func(t *tx) error { out, err = t.PriceCardByID(id); return err })
	return out, err
}

// ShowPricing is the show's seats, stored table and theatre's types.
func (s *Store) ShowPricing(ctx context.Context, showID string) (seats []booking.Seat, stored booking.ShowPrices, types []booking.TicketType, err error) {
	err = s.readTx(ctx, "show pricing", func(t *tx) error {
		show, err := t.ShowByID(showID)
		if err != nil {
			return err
		}
		if seats, err = t.AllSeats(showID); err != nil {
			return err
		}
		booking.SortSeatsByPlace(seats)
		if stored, err = t.ShowPrices(showID); err != nil {
			return err
		}
		types, err = t.TicketTypes(show.Theatre.ID)
		return err
	})
	return seats, stored, types, err
}

// pricingProjection is what SeatPricing reads of a seat.
var pricingProjection = bson.D{
	{Key: "_id", Value: 0}, {Key: "seat_id", Value: 1}, {Key: "grid_row", Value: 1}, {Key: "grid_col", Value: 1},
	{Key: "category", Value: 1}, {Key: "price", Value: 1},
}

// SeatPricing is the show's seats among seatIDs, in map order, and its
// stored table, in one snapshot. The seats are found by {show_id,
// seat_id: {$in}}, which the unique show_seat index {show_id, seat_id}
// answers with one key per seat; no sort is asked of the query (with one,
// the planner might rather walk show_grid_seat's every key of the show),
// the few seats are put in map order here. The show is looked up by _id
// first, as Seats does: seats left behind by a CreateShow that failed are
// no show's.
func (s *Store) SeatPricing(ctx context.Context, showID string, seatIDs []string) (seats []booking.Seat, stored booking.ShowPrices, err error) {
	err = s.readTx(ctx, "seat pricing", func(t *tx) error {
		if err := s.showExists(t.ctx, showID); err != nil {
			return err
		}
		if len(seatIDs) > 0 {
			cur, err := s.col(colSeats).Find(t.ctx, bson.D{
				{Key: "show_id", Value: showID},
				{Key: "seat_id", Value: bson.D{{Key: "$in", Value: seatIDs}}},
			}, options.Find().SetProjection(pricingProjection))
			if err != nil {
				return fmt.Errorf("read seats: %w", err)
			}
			var docs []seatDoc
			if err := cur.All(t.ctx, &docs); err != nil {
				return fmt.Errorf("read seats: %w", err)
			}
			seats = make([]booking.Seat, 0, len(docs))
			for _, d := range docs {
				seats = append(seats, booking.Seat{ShowID: showID, ID: d.SeatID, GridRow: d.GridRow, GridCol: d.GridCol,
					Category: d.Category, Price: booking.Money(d.Price)})
			}
			slices.SortFunc(seats, func(a, b booking.Seat) int {
				return cmp.Or(cmp.Compare(a.GridRow, b.GridRow), cmp.Compare(a.GridCol, b.GridCol), strings.Compare(a.ID, b.ID))
			})
		}
		stored, err = t.ShowPrices(showID)
		return err
	})
	return seats, stored, err
}
