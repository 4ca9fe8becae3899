package booking

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Service runs the hold lifecycle of SPEC §2 on a Store: it validates
// requests, makes ids, reads the clock once per operation and applies the
// visibility rules (only a hold's owner sees it). It holds no state of its
// own, so any number of processes can run it against one database.
type Service struct {
	store    Store
	clock    Clock
	ttl      time.Duration
	maxSeats int
	newID    func() string
	ticket   func() string
}

// Policy is the part of the configuration the domain needs.
type Policy struct {
	HoldTTL  time.Duration // how long a lock protects a seat
	MaxSeats int           // most seats in one hold
}

// DefaultPolicy is SPEC §4's defaults.
var DefaultPolicy = Policy{HoldTTL: 15 * time.Minute, MaxSeats: 10}

// NewService returns a Service on store with the system clock unless clock is
// given.
func NewService(store Store, clock Clock, p Policy) *Service {
	if clock == nil {
		clock = SystemClock{}
	}
	if p.HoldTTL <= 0 {
		p.HoldTTL = DefaultPolicy.HoldTTL
	}
	if p.MaxSeats <= 0 {
		p.MaxSeats = DefaultPolicy.MaxSeats
	}
	return &Service{store: store, clock: clock, ttl: p.HoldTTL, maxSeats: p.MaxSeats, newID: NewID, ticket: NewTicketCode}
}

// Now is the current moment, with the hold TTL, as every operation sees it.
func (s *Service) Now() Moment { return Moment{Now: s.clock.Now(), TTL: s.ttl} }

// HoldTTL is how long a lock protects a seat.
func (s *Service) HoldTTL() time.Duration { return s.ttl }

// MaxSeats is the most seats one hold may have.
func (s *Service) MaxSeats() int { return s.maxSeats }

// Store is the port the service runs on.
func (s *Service) Store() Store { return s.store }

// SeatMap is a show's seats as one viewer sees them at one moment.
type SeatMap struct {
	Show   Show
	Seats  []Seat
	MyHold *Hold // the viewer's active, unexpired hold for the show
	At     Moment
}

// State is how seat looks to the map's viewer.
func (sm SeatMap) State(seat Seat) SeatState {
	mine := ""
	if sm.MyHold != nil {
		mine = sm.MyHold.ID
	}
	return seat.StateFor(mine, sm.At)
}

// SeatMap returns show showID's seats for viewer (a visitor id, may be empty).
func (s *Service) SeatMap(ctx context.Context, showID, viewer string) (SeatMap, error) {
	show, err := s.store.Show(ctx, showID)
	if err != nil {
		return SeatMap{}, err
	}
	seats, err := s.store.Seats(ctx, showID)
	if err != nil {
		return SeatMap{}, err
	}
	sm := SeatMap{Show: show, Seats: seats, At: s.Now()}
	if viewer != "" {
		h, err := s.store.ActiveHold(ctx, showID, viewer)
		switch {
		case err == nil && !h.ExpiredAt(sm.At):
			sm.MyHold = &h
		case err != nil && ErrorCode(err) != ENOTFOUND:
			return SeatMap{}, err
		}
	}
	return sm, nil
}

// HoldSeats holds seatIDs of show showID for owner, replacing owner's previous
// hold for the show when it succeeds, and returns the new hold's id.
func (s *Service) HoldSeats(ctx context.Context, showID, owner string, seatIDs []string) (string, error) {
	if owner == "" {
		return "", Errorf(EINVALID, "Your session has no visitor id.")
	}
	if err := ValidateSeatRequest(seatIDs, s.maxSeats); err != nil {
		return "", err
	}
	m := s.Now()
	h := Hold{
		ID: NewHoldID(m.Now), ShowID: showID, Owner: owner,
		SeatIDs: NormalizeSeatIDs(seatIDs), CreatedAt: m.Now, State: HoldActive,
	}
	if err := s.store.HoldSeats(ctx, h, m); err != nil {
		return "", err
	}
	return h.ID, nil
}

// Hold returns owner's hold holdID; anyone else gets ErrNotOwner.
func (s *Service) Hold(ctx context.Context, holdID, owner string) (Hold, error) {
	h, err := s.store.Hold(ctx, holdID)
	if err != nil {
		return Hold{}, err
	}
	if err := h.CheckOwner(owner); err != nil {
		return Hold{}, err
	}
	return h, nil
}

// Release is Back: it frees the seats the hold still locks.
func (s *Service) Release(ctx context.Context, holdID, owner string) (Hold, error) {
	return s.store.ReleaseHold(ctx, holdID, owner)
}

// StartPayment creates a pending payment and booking for owner's hold, or
// refuses with an EGONE error when the hold can no longer be paid for.
func (s *Service) StartPayment(ctx context.Context, holdID, owner string) (Payment, Booking, error) {
	return s.store.StartPayment(ctx, holdID, owner, PaymentIDs{PaymentID: s.newID(), BookingID: s.newID()}, s.Now())
}

// ticketAttempts bounds how often SettlePayment draws a new ticket code.
// With 40 random bits a collision is rare even among millions of bookings,
// so five draws that all collide mean something else is wrong.
const ticketAttempts = 5

// SettlePayment applies a verified provider event. A ticket code that is
// already taken (ErrTicketCodeTaken) rolls the store's step back, and the
// event is settled again with a fresh code: a collision never fails a
// payment.
func (s *Service) SettlePayment(ctx context.Context, ev PaymentEvent) (Settlement, error) {
	m := s.Now()
	for attempt := 1; ; attempt++ {
		st, err := s.store.SettlePayment(ctx, ev, s.ticket(), m)
		switch {
		case !errors.Is(err, ErrTicketCodeTaken):
			return st, err
		case attempt == ticketAttempts:
			return Settlement{}, fmt.Errorf("settle payment: %d ticket codes in a row: %w", attempt, err)
		}
	}
}

// Booking returns owner's booking; anyone else gets ErrBookingNotFound.
func (s *Service) Booking(ctx context.Context, bookingID, owner string) (Booking, error) {
	b, err := s.store.Booking(ctx, bookingID)
	if err != nil {
		return Booking{}, err
	}
	if owner == "" || b.Owner != owner {
		return Booking{}, ErrBookingNotFound
	}
	return b, nil
}

// UpcomingShows lists shows from now on.
func (s *Service) UpcomingShows(ctx context.Context, limit int) ([]ShowSummary, error) {
	m := s.Now()
	return s.store.UpcomingShows(ctx, m.Now.Add(-15*time.Minute), limit, m)
}

// Occupancy counts a show's seats now.
func (s *Service) Occupancy(ctx context.Context, showID string) (Occupancy, error) {
	return s.store.Occupancy(ctx, showID, s.Now())
}
