package model

// The box office's pages (SPEC §16), for a person at a counter with a
// queue: the show and its live map, the hold with a type per seat and
// the method, the sale's answer with its ticket, and the cash-up.

// Counter is /admin/boxoffice: the show choice and the chosen show's live
// map, whose seats are checkboxes of the hold form.
type Counter struct {
	AdminPage
	Shows      []Option // the show choice; Value is the show's id
	AllShows   bool     // every show on sale is listed, not the next 12 hours only
	AllURL     string   // the choice of every show
	Chosen     *Show    // nil when there is no show to sell
	Map        SeatMap  // the chosen show's seats as the counter sees them
	HoldAction string
	Closed     string // why the box office cannot sell the chosen show; "" while it can
	Notice     *Notice
	MyHoldURL  string // the session's counter hold of the show, to go back to
	CashUpURL  string
	Find       CounterFind
}

// CounterFind is the counter's search for a booking to print again, by
// ticket code or email (SPEC §16, "Printing").
type CounterFind struct {
	Query  string // as typed
	Asked  bool   // a search was made (find was given)
	Notice *Notice
	Found  []FoundBooking
}

// FoundBooking is one booking the counter's search found.
type FoundBooking struct {
	ID         string
	State      string // data-state
	Channel    string // data-channel: online or box_office
	Method     string // the box office's cash, card or comp; "" online
	TicketCode string
	Email      string
	Total      string
	Show       Show
	Seats      []BookingSeat
	PrintURL   string // "" when there is nothing to print (not confirmed)
	CounterURL string // the box office's page of the booking; "" online
	Created    string // when it was made, in the theatre's zone
}

// CounterHold is the counter's hold: a type per seat, the method, an
// email, and Sell.
type CounterHold struct {
	AdminPage
	HoldID       string
	Show         Show
	Seats        []CheckoutSeat
	Total        string
	Amount       int64
	Method       string // cash, card or comp, as chosen
	Tendered     string // the cash tendered, as typed
	Change       string // the change to give, when tendered covers the total
	Reference    string
	Reason       string
	Email        string
	SellAction   string
	UpdateAction string
	MapURL       string // the show's map at the counter, to choose again
	Notice       *Notice
	// ErrSeat, ErrRule name what a refused Sell was refused for
	// (data-error-seat, data-rule); Lost are the seats a Sell lost
	// (data-conflict).
	ErrSeat string
	ErrRule string
	Lost    []string
	Gone    string // the hold cannot be sold any more: why
}

// CounterBooking is the answer to Sell, and a box-office booking as the
// counter finds it again: its ticket to scan from the screen, its print
// page, its tickets as printed (for print media only), and the refund.
type CounterBooking struct {
	AdminPage
	ID           string
	State        string
	Channel      string
	Method       string
	Amount       int64
	Total        string
	TicketCode   string
	QR           *QR
	Seats        []BookingSeat
	Show         Show
	SoldBy       string
	CardRef      string
	CompReason   string
	Email        string
	PrintURL     string
	AutoPrint    bool   // just sold: the page's print dialog opens when JavaScript runs
	Change       string // change to give from the cash tendered
	RefundAction string
	CanRefund    bool
	RefundMethod string // the refund's method, once refunded
	RefundedBy   string
	RefundedAt   string
	Reason       string
	Notice       *Notice
	NewSaleURL   string
	// Print is the booking's tickets as the print page draws them, one per
	// seat, which the page shows in print media only (nil unless
	// confirmed): printing the page prints the tickets.
	Print *PrintTickets
}

// CashUp is /admin/boxoffice/cashup: one row per staff account.
type CashUp struct {
	AdminPage
	Date string // YYYY-MM-DD, the date field's value
	// DateLabel is Date for people, in the page's language: "Monday 7
	// December 2026".
	DateLabel string
	Theatre   string // its name
	Theatres  []Option
	Rows      []CashUpRow
	CSVURL    string
	Notice    *Notice
}

// CashUpRow is one staff account's day.
type CashUpRow struct {
	Staff string
	Cells []CashUpCell
}

// CashUpCell is one column of a row: data-col, data-value and the text.
type CashUpCell struct {
	Col   string
	Value int64
	Text  string
}
