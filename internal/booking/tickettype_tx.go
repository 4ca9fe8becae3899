package booking

// TypesTx is what the steps of ticket types, price cards and shows' price
// tables (SPEC §15, tickettype_step.go) read and write in a transaction.
type TypesTx interface {
	// TicketTypes are the theatre's types in their order; none is an
	// empty list (TypesOf makes it the implicit standard).
	TicketTypes(theatreID string) ([]TicketType, error)
	// PutTicketTypes replaces the theatre's types with types, in that
	// order.
	PutTicketTypes(theatreID string, types []TicketType) error
	// PriceCards are the theatre's price cards, by name, with their cells.
	PriceCards(theatreID string) ([]PriceCard, error)
	// PriceCardByID is one card with its cells: ErrPriceCardNotFound.
	PriceCardByID(id string) (PriceCard, error)
	// PutPriceCard inserts c, or replaces the card of its id and all its
	// cells.
	PutPriceCard(c PriceCard) error
	// DeletePriceCardRecord deletes the card with id and its cells.
	DeletePriceCardRecord(id string) error
	// CountShowsWithType counts the shows at the theatre whose copied
	// types include typeID.
	CountShowsWithType(theatreID, typeID string) (int, error)
	// ShowPrices is the show's stored table and types; a show without
	// one answers an empty ShowPrices (Stored false).
	ShowPrices(showID string) (ShowPrices, error)
	// PutShowPrices replaces the show's table and types with p; theatreID
	// is the show's theatre (CountShowsWithType asks by it).
	PutShowPrices(showID, theatreID string, p ShowPrices) error
	// SetCategoryPrice sets the price of every seat of the show's
	// category cat (what a seat of it costs online at the least).
	SetCategoryPrice(showID, cat string, price Money) error
	// SetTheatreTaxRate stores the theatre's tax rates (SPEC §17).
	SetTheatreTaxRate(theatreID string, rates TaxRates) error
	// ShowTaxRates are the tax rates of the show's theatre now: none
	// (zero) for a show whose theatre is not in the catalog.
	ShowTaxRates(showID string) (TaxRates, error)
	// SetMovieRent stores the movie's rental terms (SPEC §17), as
	// FormatRent writes them.
	SetMovieRent(movieID, rent string) error
}
