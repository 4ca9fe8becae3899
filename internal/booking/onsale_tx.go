package booking

import "time"

// OnSaleTx is what the on-sale steps (create, pause, resume, rate, close,
// extend) read and write in a transaction.
type OnSaleTx interface {
	// OnSaleByID is one on-sale with its shows and segments;
	// ErrOnSaleNotFound when none.
	OnSaleByID(id string) (OnSale, error)
	// OpenOnSalesCovering are the on-sales still open at now (ClosesAt
	// after it) that cover one of showIDs.
	OpenOnSalesCovering(showIDs []string, now time.Time) ([]OnSale, error)
	// ShowsOfMovie are the shows of a movie, in every state, by start.
	ShowsOfMovie(movieID string) ([]Show, error)

	// InsertOnSale stores a new on-sale with its shows and segments.
	InsertOnSale(o OnSale) error
	// SetOnSale stores o's segments, ClosesAt and ClosedAt.
	SetOnSale(o OnSale) error
	// SetShowSalesOpen sets the show's sales opening to at.
	SetShowSalesOpen(showID string, at time.Time) error
}
