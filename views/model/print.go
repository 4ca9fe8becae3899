package model

// PrintTickets is a booking's printable tickets (SPEC §16 "Printing"): one
// ticket per seat, each on its own page of an 80 mm receipt printer; or, for
// a booking that is not confirmed, why there is nothing to print.
type PrintTickets struct {
	Page
	BookingID  string
	State      string // the booking's state; tickets only when "confirmed"
	BookingURL string // the booking's page, with its key when opened by key
	Show       Show
	TicketCode string
	QR         *QR // the ticket code, as the door scans it
	Tickets    []PrintTicket
	// AutoPrint opens the print dialog once the page has loaded, when
	// JavaScript runs (?print=1: the counter links so).
	AutoPrint bool
}

// Confirmed reports whether the booking has tickets to print.
func (p PrintTickets) Confirmed() bool { return p.State == "confirmed" }

// PrintTicket is one seat's ticket: data-seat-id, data-ticket-type,
// data-price.
type PrintTicket struct {
	BookingSeat
	Row  string // "F"
	Seat string // "12"
}
