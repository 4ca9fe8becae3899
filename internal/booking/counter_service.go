package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The box office (SPEC §16) on the Service: the counter's hold, Sell, the
// refund at the counter, the shows it offers and the cash-up.

// CounterHold holds seatIDs of show showID at the box office for owner,
// the staff session's counter owner: HoldSeatsStep of a counter hold
// (Hold.Counter), which replaces owner's previous counter hold for the
// show, records no address, and is decided under the counter's rules.
// MAX_SEATS applies.
func (s *Service) CounterHold(ctx context.Context, showID, owner string, seatIDs []string) (string, error) {
	if owner == "" {
		return "", Errorf(EINVALID, "Your session has no counter id.")
	}
	if err := ValidateSeatRequest(seatIDs, s.maxSeats); err != nil {
		return "", err
	}
	h := Hold{ID: NewHoldID(s.clock.Now()), ShowID: showID, Owner: owner, SeatIDs: seatIDs, Counter: true}
	release, err := s.holds.enter(ctx, showID)
	if err != nil {
		return "", err
	}
	defer release()
	if err := HoldSeatsStep(ctx, s.store, s.clock.Now, h, s.rules); err != nil {
		return "", err
	}
	return h.ID, nil
}

// CounterHoldOf returns owner's counter hold holdID; anyone else's, and a
// hold made online, is ErrNotOwner.
func (s *Service) CounterHoldOf(ctx context.Context, holdID, owner string) (Hold, error) {
	h, err := s.Hold(ctx, holdID, owner)
	if err != nil {
		return Hold{}, err
	}
	if !h.Counter {
		return Hold{}, ErrNotOwner
	}
	return h, nil
}

// SellAtCounter is Sell (SPEC §16): SellAtCounterStep with fresh ids,
// after the email is checked. sale's ids and ticket code are the
// service's to make; a ticket code taken rolls the step back and it runs
// again with a fresh one.
func (s *Service) SellAtCounter(ctx context.Context, sale CounterSale) (Booking, error) {
	if strings.TrimSpace(sale.Email) != "" {
		addr, err := ValidateEmail(sale.Email)
		if err != nil {
			return Booking{}, err
		}
		sale.Email = addr
	} else {
		sale.Email = ""
	}
	sale.Lang = s.Lang(sale.Lang)
	sale.PaymentID, sale.BookingID, sale.Key = s.newID(), s.newID(), NewBookingKey()
	for attempt := 1; ; attempt++ {
		sale.TicketCode = s.ticket()
		b, err := SellAtCounterStep(ctx, s.store, s.clock.Now, sale, s.rules)
		switch {
		case errors.Is(err, ErrTicketCodeTaken) && attempt == ticketAttempts:
			return Booking{}, fmt.Errorf("sell at the counter: %d ticket codes in a row: %w", attempt, err)
		case errors.Is(err, ErrTicketCodeTaken):
			continue
		}
		return b, err
	}
}

// CounterRefund refunds box-office booking bookingID at the counter (SPEC
// §16), by staff account by, with method ("" for the sale's).
func (s *Service) CounterRefund(ctx context.Context, bookingID, by string, method Method) (Booking, error) {
	return CounterRefundStep(ctx, s.store, s.clock.Now, bookingID, by, method, s.rules)
}

// CounterWindow is how far ahead the box office offers shows at first.
const CounterWindow = 12 * time.Hour

// longestRun bounds how long ago a show still running may have started.
const longestRun = 8 * time.Hour

// CounterList bounds the shows the box office lists: the soonest first.
const CounterList = 500

// CounterShows are the shows the box office offers at first (SPEC §16),
// soonest first: those starting within CounterWindow of now, and those
// running now (from their start for their movie's runtime); cancelled
// shows are not listed.
func (s *Service) CounterShows(ctx context.Context) ([]ShowSummary, error) {
	m := s.Now()
	list, err := s.store.UpcomingShows(ctx, m.Now.Add(-longestRun), CounterList, m)
	if err != nil {
		return nil, err
	}
	var out []ShowSummary
	for _, sh := range list {
		if CounterOffers(sh.Show, m.Now) {
			out = append(out, sh)
		}
	}
	return out, nil
}

// CounterOffers reports whether the box office offers show at first at
// now: it starts within CounterWindow, or it is running.
func CounterOffers(show Show, now time.Time) bool {
	if show.Cancelled() || show.StartsAt.After(now.Add(CounterWindow)) {
		return false
	}
	end := show.StartsAt.Add(time.Duration(show.Movie.RuntimeMin) * time.Minute)
	return !show.StartsAt.Before(now) || end.After(now)
}

// CashUp is the box office's day of theatre th (SPEC §16): the day that
// starts at midnight of day (YYYY-MM-DD) in the theatre's zone, one row
// per staff account (CashUp), only staff's own when staff is not "".
func (s *Service) CashUp(ctx context.Context, th Theatre, day, staff string) ([]CashUpRow, error) {
	loc, err := th.Location()
	if err != nil {
		loc = time.Local
	}
	start, err := time.ParseInLocation(time.DateOnly, day, loc)
	if err != nil {
		return nil, Errorf(EINVALID, "The date must be YYYY-MM-DD.")
	}
	end := start.AddDate(0, 0, 1)
	bookings, err := s.store.BoxOfficeBookings(ctx, th.ID, start, end)
	if err != nil {
		return nil, err
	}
	rows := CashUp(bookings, start, end)
	if staff == "" {
		return rows, nil
	}
	for _, r := range rows {
		if r.Staff == staff {
			return []CashUpRow{r}, nil
		}
	}
	return []CashUpRow{{Staff: staff}}, nil
}

// CounterBooking returns a box-office booking and its show, for staff;
// an online booking is ErrBookingNotFound here.
func (s *Service) CounterBooking(ctx context.Context, bookingID string) (Booking, Show, error) {
	b, err := s.store.Booking(ctx, bookingID)
	if err != nil {
		return Booking{}, Show{}, err
	}
	if !b.AtBoxOffice() {
		return Booking{}, Show{}, ErrBookingNotFound
	}
	show, err := s.store.Show(ctx, b.ShowID)
	if err != nil {
		return Booking{}, Show{}, fmt.Errorf("show %s of booking %s: %w", b.ShowID, b.ID, err)
	}
	return b, show, nil
}

// CounterFindLimit bounds the bookings the counter's search lists.
const CounterFindLimit = 20

// FoundBooking is a booking the counter's search found, with its show.
type FoundBooking struct {
	Booking
	Show Show
}

// FindAtCounter finds bookings to print again (SPEC §16, "Printing"),
// of any channel and state: by ticket code (case, spaces and dashes
// ignored, as at the door) the one booking with it, or by email (with an
// @; case ignored) the newest CounterFindLimit bookings with it. What is
// neither a ticket code nor an email address is EINVALID; nothing found
// is none and no error.
func (s *Service) FindAtCounter(ctx context.Context, q string) ([]FoundBooking, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, Errorf(EINVALID, "Type a ticket code or an email address to find a booking.")
	}
	var found []Booking
	if strings.Contains(q, "@") {
		addr, err := ValidateEmail(q)
		if err != nil {
			return nil, Errorf(EINVALID, "%q is not an email address.", Truncate(q, 60))
		}
		if found, err = s.store.BookingsByEmail(ctx, addr, CounterFindLimit); err != nil {
			return nil, err
		}
	} else {
		code := NormalizeTicketCode(q)
		if code == "" {
			return nil, Errorf(EINVALID, "%q is neither a ticket code (like K7QM-2XHD) nor an email address.", Truncate(q, 60))
		}
		b, err := s.store.BookingByTicketCode(ctx, code)
		switch {
		case errors.Is(err, ErrBookingNotFound):
		case err != nil:
			return nil, err
		default:
			found = []Booking{b}
		}
	}
	shows := map[string]Show{}
	out := make([]FoundBooking, 0, len(found))
	for _, b := range found {
		sh, ok := shows[b.ShowID]
		if !ok {
			var err error
			if sh, err = s.store.Show(ctx, b.ShowID); err != nil {
				return nil, fmt.Errorf("show %s of booking %s: %w", b.ShowID, b.ID, err)
			}
			shows[b.ShowID] = sh
		}
		out = append(out, FoundBooking{Booking: b, Show: sh})
	}
	return out, nil
}
