package booking

import "time"

// Movie is what is being shown.
type Movie struct {
	ID         string
	Title      string
	Rating     string // certificate, e.g. "UA"
	RuntimeMin int
	Language   string
	// Rent is its rental terms (SPEC §17): the distributor's percent of
	// the net per week of the run, as FormatRent writes them ("50,45,40");
	// "" for none. Saving the movie keeps it; SetMovieRentStep sets it.
	Rent string
}

// Theatre is where: a cinema with several screens.
type Theatre struct {
	ID   string
	Name string
	City string
	// TimeZone is the IANA zone its show times are given and shown in
	// (Asia/Kolkata). Shows made before theatres had one have "".
	TimeZone string
	// Currency is the ISO 4217 code its shows are priced in (Currencies):
	// a show copies it when it is created, so it changes only while the
	// theatre has no show (CheckCurrencyChange). A show's copy of its
	// theatre (Show.Theatre) leaves it "": Show.Currency is the show's.
	Currency string
	// Tax is the tax included in its prices (SPEC §17). Saving the
	// theatre keeps it; SetTheatreTaxRateStep sets it.
	Tax TaxRates
}

// Show is one screening of a movie in one screen of a theatre. Its seats are
// stored with it and carry their own category and price.
type Show struct {
	ID       string
	Movie    Movie
	Theatre  Theatre
	Screen   string
	ScreenID string // the screen whose layout the seats were copied from; "" for synthetic shows
	StartsAt time.Time
	Currency string // ISO 4217, e.g. "INR"
	// CancelledAt is when an admin cancelled the show; zero while it runs.
	CancelledAt time.Time
	// SalesOpenAt is its sales opening (SPEC §10), set by an on-sale
	// (SPEC §18): before it nothing is sold online. Zero for none.
	SalesOpenAt time.Time
	// OnlineCutoff is its online cut-off (SPEC §16): online holds stop
	// while at most this many seats are available online. 0 for none.
	OnlineCutoff int
}

// Cancelled reports whether the show was cancelled.
func (s Show) Cancelled() bool { return !s.CancelledAt.IsZero() }

// SalesCloseAt is when sales of the show close at m's SALES_CLOSE.
func (s Show) SalesCloseAt(m Moment) time.Time { return s.StartsAt.Add(m.SalesClose) }

// CheckOnSale says whether seats of the show may be held, paid for or held
// longer at m: not once it was cancelled, nor before its sales opening,
// nor from SalesCloseAt on. A payment started before the close still
// settles (DecideSettlement does not ask).
func (s Show) CheckOnSale(m Moment) error {
	switch {
	case s.Cancelled():
		return ErrShowCancelled
	case !m.Now.Before(s.SalesCloseAt(m)):
		return ErrSalesClosed
	case s.NotOpenYet(m.Now):
		at := s.InZone(s.SalesOpenAt)
		return Keyed(EGONE, "not_open_yet", "This show is on sale from "+at.Format("Mon 2 Jan 2006 15:04 MST")+".", "At", at)
	}
	return nil
}

// InZone is t in the show's theatre's zone (SPEC §10: every time a person
// reads about a show), or in the process's zone for a theatre stored
// without one.
func (s Show) InZone(t time.Time) time.Time {
	if loc, err := s.Theatre.Location(); err == nil {
		return t.In(loc)
	}
	return t.Local()
}

// NotOpenYet reports whether now is before the show's sales opening.
func (s Show) NotOpenYet(now time.Time) bool {
	return !s.SalesOpenAt.IsZero() && now.Before(s.SalesOpenAt)
}

// OnSaleStartsFrom is the earliest start of a show still on sale at m: one
// starting then or later has not reached its SalesCloseAt, one starting
// before has.
func OnSaleStartsFrom(m Moment) time.Time { return m.Now.Add(-m.SalesClose).Add(time.Nanosecond) }

// OnSale reports whether CheckOnSale allows sales at m.
func (s Show) OnSale(m Moment) bool { return s.CheckOnSale(m) == nil }

// ShowSummary is a show as listed: with what is left to sell, counted by the
// store's query under the seat rule.
type ShowSummary struct {
	Show
	SeatsTotal int
	SeatsLeft  int
	MinPrice   Money
	MaxPrice   Money
}

// Occupancy counts the seats of a show at a moment, by the seat rule: Held is
// locks that still protect their seats, lapsed locks count as Available;
// a seat with a reserve that is not booked is Reserved, whatever its lock.
// Booked + Held + Available + Reserved = Total.
type Occupancy struct {
	Total     int
	Booked    int
	Held      int
	Available int // available online: by the seat rule, without a reserve
	Reserved  int // with a reserve and not booked (SPEC §16)
}

// CountOccupancy is the Go reference for what stores compute in their query.
func CountOccupancy(seats []Seat, m Moment) Occupancy {
	var o Occupancy
	for _, s := range seats {
		o.Total++
		switch {
		case s.Status == SeatBooked:
			o.Booked++
		case s.Reserve != ReserveNone:
			o.Reserved++
		case s.AvailableAt(m):
			o.Available++
		default:
			o.Held++
		}
	}
	return o
}

// Category is a band of seats sold at one price, as shown in the legend.
type Category struct {
	Name  string
	Price Money
}

// Categories lists the categories of seats in map order (nearest the screen
// first), each once.
func Categories(seats []Seat) []Category {
	var out []Category
	seen := map[string]bool{}
	for _, s := range seats {
		if !seen[s.Category] {
			seen[s.Category] = true
			out = append(out, Category{Name: s.Category, Price: s.Price})
		}
	}
	return out
}
