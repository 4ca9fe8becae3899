package booking

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// BookingSale is a booking as the sales report reads it (SPEC §17): where
// and how it was sold, its seats as sold, when it became confirmed (its
// sale time; zero when it never was) and when its money went back (zero
// unless it is refunded).
type BookingSale struct {
	BookingID string
	ShowID    string
	TheatreID string
	Theatre   string // its name
	TimeZone  string // the theatre's zone ("" when unknown: the caller's)
	Currency  string
	Channel   Channel
	// Method is how the box office took its money (cash, card, comp);
	// Provider is its payment's provider: "" for the one the process is
	// configured with, ProviderBoxOffice at the counter.
	Method      Method
	Provider    string
	Amount      Money
	Tickets     []SeatTicket // TicketsOf the booking
	ConfirmedAt time.Time
	RefundedAt  time.Time
}

// SaleOf is b as the sales report reads it, but for its theatre and its
// payment's provider, which the store reads beside it: RefundedAt only
// while b is refunded (a refund that failed later gave nothing back).
func SaleOf(b Booking) BookingSale {
	s := BookingSale{
		BookingID: b.ID, ShowID: b.ShowID, Currency: b.Currency, Channel: b.Channel, Method: b.Method,
		Amount: b.Amount, Tickets: TicketsOf(b), ConfirmedAt: b.ConfirmedAt,
	}
	if b.State == BookingRefunded {
		s.RefundedAt = b.RefundedAt
	}
	return s
}

// SalesQuery selects the bookings of the sales report: those confirmed in
// [From, To), and those refunded in it, of one show when ShowID is set
// (the audit's).
type SalesQuery struct {
	From, To time.Time
	ShowID   string
}

// SalesReportReader reads the sales report's bookings; every Store does.
type SalesReportReader interface {
	// SalesBookings lists the bookings q selects: confirmed (ConfirmedAt)
	// in [q.From, q.To), or in state refunded with RefundedAt in it, in
	// any order, each once, with its show's theatre (name and zone as the
	// theatre has them now) and its payment's provider. The report's days
	// are worked out by BuildSalesReport, in each theatre's zone.
	SalesBookings(ctx context.Context, q SalesQuery) ([]BookingSale, error)
}

// The sales report's rows are by channel (SPEC §17, §20): a booking's own,
// or ChannelUnsold for money returned for a payment that never made a
// booking (a late or mismatched payment); and by ticket type, a type's id
// or AllTypes for the row that counts each booking once.
const (
	ChannelUnsold Channel = "unsold"
	AllTypes              = "all"
)

// SalesFigures are the sales report's columns: bookings (with a seat of
// the row's type; each once in the AllTypes row), their seats and gross,
// by sale day, and the money returned that day.
type SalesFigures struct {
	Bookings, Seats int
	Gross, Refunds  Money
}

// Add is f and o added up.
func (f SalesFigures) Add(o SalesFigures) SalesFigures {
	return SalesFigures{Bookings: f.Bookings + o.Bookings, Seats: f.Seats + o.Seats, Gross: f.Gross + o.Gross, Refunds: f.Refunds + o.Refunds}
}

// SalesRow is one row of the sales report: a theatre's day, channel,
// payment method, currency and ticket type.
type SalesRow struct {
	TheatreID, Theatre string
	Day                time.Time // a date (DayOf)
	Channel            Channel
	// Method is the payment provider online (stripe, sandbox), the
	// counter's method at the box office (cash, card, comp).
	Method     string
	Currency   string
	TicketType string // a type's id, or AllTypes
	TypeName   string // as people read it
	SalesFigures
}

// SalesReport is the sales report (SPEC §17) of the sale days from From
// to To, inclusive.
type SalesReport struct {
	From, To time.Time // dates
	Rows     []SalesRow
}

// SaleMethod is the sales report's payment method of s: at the box office
// its method; online its payment's provider, provider (the configured
// one) for a payment stored without one.
func SaleMethod(s BookingSale, provider string) string {
	if s.Channel == ChannelBoxOffice {
		return string(s.Method)
	}
	if s.Provider != "" && s.Provider != ProviderBoxOffice {
		return s.Provider
	}
	return provider
}

// BuildSalesReport is the sales report of the dates from first to last
// (inclusive) out of sales as SalesBookings reads them for that range:
// each booking's sale day is the date of its ConfirmedAt in its theatre's
// zone (loc for one without), and its refund day that of its RefundedAt.
// A booking confirmed in the range counts in the AllTypes row of its
// theatre, sale day, channel, method (SaleMethod, provider the configured
// one) and currency (a booking, its seats, its amount), and in the row of
// each type it has a seat of (a booking, those seats, their prices); a
// refund in the range adds the booking's amount to the refunds of the
// rows of the booking on the refund day, split by type as its gross is,
// whenever it was sold. A refunded booking never confirmed adds its amount
// to the refunds of an AllTypes row of ChannelUnsold. Rows are by theatre
// name, day, channel (online, box office, unsold), method and currency,
// AllTypes first, then types by id; money of two currencies is never in
// one row.
func BuildSalesReport(first, last time.Time, sales []BookingSale, provider string, loc *time.Location) SalesReport {
	type key struct {
		theatre  string
		day      time.Time
		channel  Channel
		method   string
		currency string
		typ      string
	}
	rows := map[key]*SalesRow{}
	zoneOf := zonesOr(loc)
	in := func(day time.Time) bool { return !day.Before(first) && !day.After(last) }
	add := func(s BookingSale, day time.Time, channel Channel, typ, name string, f SalesFigures) {
		k := key{s.TheatreID, day, channel, SaleMethod(s, provider), s.Currency, typ}
		r, ok := rows[k]
		if !ok {
			r = &SalesRow{TheatreID: s.TheatreID, Theatre: s.Theatre, Day: day, Channel: channel, Method: k.method,
				Currency: s.Currency, TicketType: typ, TypeName: name}
			rows[k] = r
		}
		r.SalesFigures = r.SalesFigures.Add(f)
	}
	for _, s := range sales {
		zone := zoneOf(s.TimeZone)
		type typeSum struct {
			name  string
			seats int
			gross Money
		}
		var types []string
		byType := map[string]*typeSum{}
		for _, t := range s.Tickets {
			id := t.Type
			if id == "" {
				id = StandardTypeID
			}
			ts, ok := byType[id]
			if !ok {
				ts = &typeSum{name: t.TypeName()}
				byType[id] = ts
				types = append(types, id)
			}
			ts.seats++
			ts.gross += t.Price
		}
		channel := s.Channel
		if channel == "" {
			channel = ChannelOnline
		}
		if !s.ConfirmedAt.IsZero() {
			if day := DayOf(s.ConfirmedAt, zone); in(day) {
				add(s, day, channel, AllTypes, "All types", SalesFigures{Bookings: 1, Seats: len(s.Tickets), Gross: s.Amount})
				for _, id := range types {
					add(s, day, channel, id, byType[id].name, SalesFigures{Bookings: 1, Seats: byType[id].seats, Gross: byType[id].gross})
				}
			}
		}
		if s.RefundedAt.IsZero() {
			continue
		}
		day := DayOf(s.RefundedAt, zone)
		switch {
		case !in(day):
		case s.ConfirmedAt.IsZero():
			add(s, day, ChannelUnsold, AllTypes, "All types", SalesFigures{Refunds: s.Amount})
		default:
			add(s, day, channel, AllTypes, "All types", SalesFigures{Refunds: s.Amount})
			for _, id := range types {
				add(s, day, channel, id, byType[id].name, SalesFigures{Refunds: byType[id].gross})
			}
		}
	}
	out := SalesReport{From: first, To: last}
	for _, r := range rows {
		out.Rows = append(out.Rows, *r)
	}
	channelOrder := func(c Channel) int {
		switch c {
		case ChannelOnline:
			return 0
		case ChannelBoxOffice:
			return 1
		}
		return 2
	}
	slices.SortFunc(out.Rows, func(a, b SalesRow) int {
		return cmp.Or(cmp.Compare(a.Theatre, b.Theatre), cmp.Compare(a.TheatreID, b.TheatreID), a.Day.Compare(b.Day),
			cmp.Compare(channelOrder(a.Channel), channelOrder(b.Channel)), cmp.Compare(a.Method, b.Method),
			cmp.Compare(a.Currency, b.Currency), cmp.Compare(typeOrder(a.TicketType), typeOrder(b.TicketType)))
	})
	return out
}

// typeOrder sorts AllTypes before every type's id.
func typeOrder(typ string) string {
	if typ == AllTypes {
		return ""
	}
	return "~" + typ
}

// MaxSalesReportDays bounds the sale days of one sales report.
const MaxSalesReportDays = 366

// ParseSalesRange reads a sales report's dates, YYYY-MM-DD: from and to
// are both optional (to defaults to today, from to six days before to),
// to is not before from, and the range is at most MaxSalesReportDays
// days; anything else is EINVALID saying which.
func ParseSalesRange(from, to string, today time.Time) (first, last time.Time, err error) {
	last = today
	if to != "" {
		if last, err = time.Parse(DateLayout, to); err != nil {
			return first, last, Errorf(EINVALID, "The date to=%q must be a date, YYYY-MM-DD.", Truncate(to, 20))
		}
	}
	first = last.AddDate(0, 0, -6)
	if from != "" {
		if first, err = time.Parse(DateLayout, from); err != nil {
			return first, last, Errorf(EINVALID, "The date from=%q must be a date, YYYY-MM-DD.", Truncate(from, 20))
		}
	}
	switch days := int(last.Sub(first).Hours()/24) + 1; {
	case days < 1:
		return first, last, Errorf(EINVALID, "The range ends (%s) before it starts (%s): to must not be before from.",
			last.Format(DateLayout), first.Format(DateLayout))
	case days > MaxSalesReportDays:
		return first, last, Errorf(EINVALID, "The range from %s to %s has %d days; a sales report covers at most %d.",
			first.Format(DateLayout), last.Format(DateLayout), days, MaxSalesReportDays)
	}
	return first, last, nil
}

// SalesReport reads and builds the sales report of the sale days from
// first to last (ParseSalesRange), bookings of a theatre without a zone
// dated in loc, online payments stored without a provider made with
// provider, the configured one.
func (s *Service) SalesReport(ctx context.Context, first, last time.Time, provider string, loc *time.Location) (SalesReport, error) {
	from, to := InstantsOf(first, last)
	sales, err := s.store.SalesBookings(ctx, SalesQuery{From: from, To: to})
	if err != nil {
		return SalesReport{}, err
	}
	return BuildSalesReport(first, last, sales, provider, loc), nil
}
