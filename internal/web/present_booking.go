package web

import (
	"context"
	"strconv"
	"strings"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
)

func bookingURL(bookingID string) string { return "/bookings/" + bookingID }

// bookingModel is the booking page of b in loc's language: money by
// loc.Money, the show's date with its names in the language.
func (s *Server) bookingModel(loc *i18n.Localizer, b booking.Booking, show booking.Show) (model.Booking, error) {
	m := model.Booking{
		ID: b.ID, URL: bookingURL(b.ID), State: string(b.State),
		StatusURL: bookingURL(b.ID) + "/status",
		ETag:      `"` + string(b.State) + `"`,
		Show:      s.showModelIn(loc, show),
		Seats:     strings.Join(b.SeatIDs, ", "), SeatCount: len(b.SeatIDs),
		Total: loc.Money(int64(b.Amount), b.Currency), Amount: int64(b.Amount),
		Reason: b.Reason, SeatMapURL: showURL(b.ShowID),
		Email: b.Email, Link: s.bookingLink(b), PrintURL: bookingURL(b.ID) + "/print",
	}
	m.Reason = reasonText(loc, b.Reason)
	m.Tickets = bookingSeatsIn(loc, b)
	if b.State == booking.BookingPending {
		age := s.svc.Now().Now.Sub(b.CreatedAt)
		m.PollEvery = bookingPollEvery(age).String()
		m.PollSlow = age >= booking.StuckAfter
		// The pace is part of the fragment: when it changes, the poll gets
		// the new fragment (200, not 304) and goes on at the new pace.
		m.ETag = `"` + string(b.State) + "-" + m.PollEvery + `"`
	}
	if b.State == booking.BookingConfirmed {
		q, err := ticketQR(b.TicketCode)
		if err != nil {
			return model.Booking{}, errorf("web: QR code of booking %s: %w", b.ID, err)
		}
		m.TicketCode, m.QR = b.TicketCode, &q
	}
	return m, nil
}

// otherShowsLimit bounds the other shows of a film that a booking of a
// cancelled show offers.
const otherShowsLimit = 6

// cancellationModel is what the page of b, a booking of the cancelled
// show, says of its money and which other shows of the same film it
// offers: upcoming, on sale now, with seats left online.
func (s *Server) cancellationModel(ctx context.Context, loc *i18n.Localizer, b booking.Booking, show booking.Show) (*model.Cancellation, error) {
	c := &model.Cancellation{Refund: "due", AtCounter: b.AtBoxOffice()}
	if b.State == booking.BookingRefunded {
		c.Refund = "refunded"
		if !b.RefundedAt.IsZero() {
			c.RefundedOn = loc.Date(b.RefundedAt.In(s.showLocation(show)), "Mon 2 Jan 2006, 15:04 MST")
		}
	}
	shows, err := s.svc.UpcomingShows(ctx, homeListLimit)
	if err != nil {
		return nil, errorf("web: other shows of movie %s: %w", show.Movie.ID, err)
	}
	at := s.svc.Now()
	for _, o := range shows {
		if len(c.OtherShows) == otherShowsLimit {
			break
		}
		if o.ID == show.ID || o.Movie.ID != show.Movie.ID || o.Cancelled() || o.SeatsLeft == 0 || o.CheckOnSale(at) != nil {
			continue
		}
		sm := s.adminShowModel(o.Show)
		t := o.StartsAt.In(s.showLocation(o.Show))
		c.OtherShows = append(c.OtherShows, model.ShowLink{
			ID: o.ID, URL: showURL(o.ID), Start: sm.StartsAt,
			Text: loc.Date(t, "Mon 2 Jan") + ", " + sm.Time + " " + sm.Zone + " · " + sm.Theatre + ", " + sm.City,
		})
	}
	return c, nil
}

// bookingSeatsIn is bookingSeats with the prices in loc's language
// (Localizer.Money), for the pages a moviegoer, the door or the counter
// read.
func bookingSeatsIn(loc *i18n.Localizer, b booking.Booking) []model.BookingSeat {
	return bookingSeatsPriced(b, func(p booking.Money) string { return loc.Money(int64(p), b.Currency) })
}

// bookingSeats are b's seats as sold (booking.TicketsOf), as the admin's
// pages and the mail list them, their prices by Money.Format.
func bookingSeats(b booking.Booking) []model.BookingSeat {
	return bookingSeatsPriced(b, func(p booking.Money) string { return p.Format(b.Currency) })
}

// bookingSeatsPriced is b's seats as sold, each price written by price.
func bookingSeatsPriced(b booking.Booking, price func(booking.Money) string) []model.BookingSeat {
	var out []model.BookingSeat
	for _, t := range booking.TicketsOf(b) {
		out = append(out, model.BookingSeat{
			ID: t.SeatID, Type: t.Type, TypeName: t.TypeName(), Note: t.Note,
			Price: price(t.Price), PriceRaw: strconv.FormatInt(int64(t.Price), 10),
		})
	}
	return out
}

// bookingPollEvery is how often a booking pending for age polls its status:
// every second at first, when the callback usually lands, then less often,
// and from booking.StuckAfter on every bookingPollCeiling for as long as it
// is pending: a poll of a stuck payment is what looks it up at the provider
// (Service.RefreshPending, at most once per booking.LookupEvery), so the
// polling must outlast the wait for its event.
func bookingPollEvery(age time.Duration) time.Duration {
	switch {
	case age < 30*time.Second:
		return time.Second
	case age < 2*time.Minute:
		return 2 * time.Second
	case age < 5*time.Minute:
		return 5 * time.Second
	case age < booking.StuckAfter:
		return 10 * time.Second
	}
	return bookingPollCeiling
}

// bookingPollCeiling is the slowest a pending booking polls: under
// booking.LookupEvery, so that a stuck payment is looked up about once a
// minute while its page is open.
const bookingPollCeiling = 30 * time.Second

// ticketQR encodes a ticket code as a QR code (medium error correction, with
// its quiet zone), as runs of dark modules for the view to draw as SVG.
func ticketQR(code string) (model.QR, error) {
	q, err := qrcode.New(code, qrcode.Medium)
	if err != nil {
		return model.QR{}, err
	}
	bm := q.Bitmap()
	m := model.QR{Size: len(bm)}
	for y, row := range bm {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			m.Runs = append(m.Runs, model.QRRun{X: start, Y: y, W: x - start})
		}
	}
	return m, nil
}
