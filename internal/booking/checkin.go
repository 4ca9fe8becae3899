package booking

import (
	"context"
	"errors"
	"strings"
	"time"
)

// CheckinResult is what the door says about a ticket: SPEC §11's
// data-checkin.
type CheckinResult string

const (
	// CheckinValid is a looked-up ticket that would be admitted now.
	CheckinValid    CheckinResult = "valid"
	CheckinAdmitted CheckinResult = "admitted"
	// CheckinAlready is a ticket admitted before: Booking.AdmittedAt says
	// when.
	CheckinAlready CheckinResult = "already"
	CheckinRefused CheckinResult = "refused"
)

// RefusalReason says why the door refuses a ticket: SPEC §11's
// data-reason.
type RefusalReason string

const (
	RefusedUnknown      RefusalReason = "unknown"
	RefusedOtherShow    RefusalReason = "other_show"
	RefusedNotConfirmed RefusalReason = "not_confirmed"
	RefusedRefunded     RefusalReason = "refunded"
	RefusedCancelled    RefusalReason = "cancelled"
	// RefusedNotToday is a ticket whose show is neither the one the door
	// admits to nor in its window (InDoorWindow); DoorCheck.Confirm
	// admits it anyway.
	RefusedNotToday RefusalReason = "not_today"
)

// DoorCheck is what a door asks of a ticket: the show it admits to (""
// for any), the moment (the door's window is taken at Now, and an
// admission is made at Now), and whether staff confirmed a ticket for
// another day (SPEC §11's confirm=1).
type DoorCheck struct {
	Show    string
	Now     time.Time
	Confirm bool
}

// Checkin is the door's answer about one ticket code.
type Checkin struct {
	Code    string // as normalized
	Result  CheckinResult
	Reason  RefusalReason // when refused
	Booking Booking       // zero when the code is unknown
	Show    Show          // the ticket's show; zero when the code is unknown
}

// NormalizeTicketCode is a ticket code as typed or scanned, in the form it
// is stored: case, spaces and dashes ignored, and the letters the code's
// alphabet leaves out read as the digits people confuse them with (O as 0;
// I and L as 1). It is "" when what remains cannot be a code.
func NormalizeTicketCode(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch r {
		case ' ', '-', '\t':
			continue
		case 'O':
			r = '0'
		case 'I', 'L':
			r = '1'
		}
		if !strings.ContainsRune(ticketAlphabet, r) {
			return ""
		}
		b.WriteRune(r)
	}
	c := b.String()
	if len(c) != ticketCodeLen {
		return ""
	}
	return c[:4] + "-" + c[4:]
}

// ticketCodeLen is the number of characters of a ticket code, its dash
// not counted.
const ticketCodeLen = 8

// DecideCheckin is what the door says about booking b of show sh when
// asked d, without admitting it: SPEC §11's one rule for a look-up and an
// admission. Reasons are tested in this order: cancelled, refunded,
// not_confirmed, other_show (only when d names a show), not_today (its
// show is neither d's nor in the door's window, unless d.Confirm), then
// already; what is left is valid.
func DecideCheckin(b Booking, sh Show, d DoorCheck) Checkin {
	c := Checkin{Code: b.TicketCode, Booking: b, Show: sh, Result: CheckinRefused}
	switch {
	case sh.Cancelled():
		c.Reason = RefusedCancelled
	case b.State == BookingRefunded || b.State == BookingRefundDue:
		c.Reason = RefusedRefunded
	case b.State != BookingConfirmed:
		c.Reason = RefusedNotConfirmed
	case d.Show != "" && d.Show != b.ShowID:
		c.Reason = RefusedOtherShow
	case d.Show == "" && !d.Confirm && !InDoorWindow(sh, d.Now):
		c.Reason = RefusedNotToday
	case !b.AdmittedAt.IsZero():
		c.Result = CheckinAlready
	default:
		c.Result = CheckinValid
	}
	return c
}

// Admit is DecideCheckin followed by the admission of a valid ticket, by
// by (an account's email) at d.Now: the booking to store, when changed.
// Stores call it inside the step that writes the booking, so a ticket
// scanned at two doors at once is admitted by one and "already" at the
// other.
func Admit(b Booking, sh Show, d DoorCheck, by string) (Checkin, bool) {
	c := DecideCheckin(b, sh, d)
	if c.Result != CheckinValid {
		return c, false
	}
	c.Booking.AdmittedAt, c.Booking.AdmittedBy = d.Now, by
	c.Result = CheckinAdmitted
	return c, true
}

// InDoorWindow reports whether a door admits to show sh at now without
// being told which show: it is not cancelled and starts within DoorAhead
// or is running (started, and not past EndsAt).
func InDoorWindow(sh Show, now time.Time) bool {
	return !sh.Cancelled() && sh.StartsAt.Before(now.Add(DoorAhead)) && now.Before(sh.EndsAt())
}

// UnknownTicket is the door's answer to a code no booking has.
func UnknownTicket(code string) Checkin {
	return Checkin{Code: code, Result: CheckinRefused, Reason: RefusedUnknown}
}

// LookUpTicket is what the door would say about a ticket code at show
// atShow ("" for any), admitting nothing: CheckinValid where AdmitTicket,
// asked the same, would admit it.
func (s *Service) LookUpTicket(ctx context.Context, code, atShow string, confirm bool) (Checkin, error) {
	code = NormalizeTicketCode(code)
	if code == "" {
		return UnknownTicket(code), nil
	}
	b, err := s.store.BookingByTicketCode(ctx, code)
	switch {
	case errors.Is(err, ErrBookingNotFound):
		return UnknownTicket(code), nil
	case err != nil:
		return Checkin{}, err
	}
	sh, err := s.store.Show(ctx, b.ShowID)
	if err != nil {
		return Checkin{}, err
	}
	return DecideCheckin(b, sh, DoorCheck{Show: atShow, Now: s.clock.Now(), Confirm: confirm}), nil
}

// AdmitTicket admits a ticket code at show atShow ("" for any), by by (an
// account's email), exactly once however many doors scan it; confirm
// admits a ticket refused not_today.
func (s *Service) AdmitTicket(ctx context.Context, code, atShow, by string, confirm bool) (Checkin, error) {
	code = NormalizeTicketCode(code)
	if code == "" {
		return UnknownTicket(code), nil
	}
	c, err := AdmitTicketStep(ctx, s.store, s.clock.Now, code, DoorCheck{Show: atShow, Confirm: confirm}, by)
	if errors.Is(err, ErrBookingNotFound) {
		return UnknownTicket(code), nil
	}
	return c, err
}

// DoorShows lists the shows a door admits to at now: those starting in the
// next two hours or running (started, and not past their runtime, or three
// hours when it is unknown), not cancelled, soonest first.
func (s *Service) DoorShows(ctx context.Context) ([]Show, error) {
	now := s.clock.Now()
	list, err := s.store.ListOccupancy(ctx, ShowFilter{From: now.Add(-maxRuntime), To: now.Add(DoorAhead)}, s.Now())
	if err != nil {
		return nil, err
	}
	var shows []Show
	for _, so := range list {
		if !InDoorWindow(so.Show, now) {
			continue
		}
		shows = append(shows, so.Show)
	}
	return shows, nil
}

// DoorAhead is how long before its start a show's door opens.
const DoorAhead = 2 * time.Hour

// maxRuntime bounds how long ago a show still running may have started.
const maxRuntime = 6 * time.Hour

// EndsAt is when the show ends by its movie's runtime, or three hours after
// its start when that is unknown.
func (s Show) EndsAt() time.Time {
	d := time.Duration(s.Movie.RuntimeMin) * time.Minute
	switch {
	case d <= 0:
		d = 3 * time.Hour
	case d > maxRuntime:
		d = maxRuntime
	}
	return s.StartsAt.Add(d)
}

// DoorCount is how many seats of a show were admitted at the door, and how
// many its confirmed bookings have.
type DoorCount struct{ Admitted, Booked int }

// CountAdmitted counts the seats of bookings (one show's) at the door. A
// booking admitted before its show was cancelled still counts as admitted:
// those people came in.
func CountAdmitted(bookings []Booking) DoorCount {
	var n DoorCount
	for _, b := range bookings {
		if b.State == BookingConfirmed {
			n.Booked += len(b.SeatIDs)
		}
		if !b.AdmittedAt.IsZero() {
			n.Admitted += len(b.SeatIDs)
		}
	}
	return n
}

// DoorCount counts the door's admissions to a show so far.
func (s *Service) DoorCount(ctx context.Context, showID string) (DoorCount, error) {
	list, err := s.store.ShowBookings(ctx, showID)
	if err != nil {
		return DoorCount{}, err
	}
	return CountAdmitted(list), nil
}

// Show returns one show.
func (s *Service) Show(ctx context.Context, id string) (Show, error) { return s.store.Show(ctx, id) }
