package booking

import "time"

// ShowFilter narrows the admin's occupancy overview. Zero fields do not
// filter.
type ShowFilter struct {
	From      time.Time // shows starting at or after
	To        time.Time // shows starting before
	TheatreID string
	Limit     int // most shows listed; 0 means all
	Offset    int // shows skipped first, in the list's order: a page after the first
	// Newest lists the latest start first (past shows, newest first);
	// otherwise the soonest start is first. Ties go by id, either way.
	Newest bool
}

// ShowOccupancy is one line of the admin's overview: a show, its seats
// counted by the seat rule at one moment (in the database), the money its
// confirmed bookings took and how many refunds it still owes.
type ShowOccupancy struct {
	Show
	Occupancy
	Revenue    Money // sum of the amounts of confirmed bookings
	RefundsDue int   // refund_due bookings not yet marked refunded
}

// Percent is the share of seats taken (booked or held), 0 to 100, rounded
// down so that a show is only 100% full when no seat is left.
func (o Occupancy) Percent() int {
	if o.Total == 0 {
		return 0
	}
	return (o.Booked + o.Held) * 100 / o.Total
}

// Summarize is the Go reference for ShowOccupancy's money columns, as stores
// compute them in their query: revenue of confirmed bookings, refunds owed.
func Summarize(bookings []Booking) (revenue Money, refundsDue int) {
	for _, b := range bookings {
		switch {
		case b.State == BookingConfirmed:
			revenue += b.Amount
		case b.RefundPending():
			refundsDue++
		}
	}
	return revenue, refundsDue
}
