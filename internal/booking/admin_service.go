package booking

import "context"

// The admin pages, the callback log and readiness read through the
// Service like every other handler; these are the reads they need.

// NewAdmins is the accounts and sign-in of this service's store.
func (s *Service) NewAdmins(passwordCost int) *Admins {
	return NewAdmins(s.store, s.clock, passwordCost)
}

// Ping reports whether the database answers.
func (s *Service) Ping(ctx context.Context) error { return s.store.Ping(ctx) }

// ListOccupancy is the shows f selects with their counts, now.
func (s *Service) ListOccupancy(ctx context.Context, f ShowFilter) ([]ShowOccupancy, error) {
	return s.store.ListOccupancy(ctx, f, s.Now())
}

// Theatres are the theatres with shows, for the overview's filter.
func (s *Service) Theatres(ctx context.Context) ([]Theatre, error) { return s.store.Theatres(ctx) }

// ShowBookings is a show and all its bookings; ErrShowNotFound for an
// unknown show.
func (s *Service) ShowBookings(ctx context.Context, showID string) (Show, []Booking, error) {
	show, err := s.store.Show(ctx, showID)
	if err != nil {
		return Show{}, nil, err
	}
	bookings, err := s.store.ShowBookings(ctx, showID)
	return show, bookings, err
}

// RefundQueue is the site's refund queue (Store.RefundQueue): the
// refund_due bookings of every show, the longest waiting first.
func (s *Service) RefundQueue(ctx context.Context, limit, offset int) ([]Booking, error) {
	return s.store.RefundQueue(ctx, limit, offset)
}

// ShowReport is what the admin's page of one show shows, read at At.
type ShowReport struct {
	Show      Show
	Occupancy Occupancy
	Seats     []Seat
	Bookings  []Booking
	Callbacks []CallbackRecord
	At        Moment
}

// ShowReport reads a show's counts, seats, bookings and up to
// callbackLimit callbacks.
func (s *Service) ShowReport(ctx context.Context, showID string, callbackLimit int) (ShowReport, error) {
	r := ShowReport{At: s.Now()}
	var err error
	if r.Show, r.Bookings, err = s.ShowBookings(ctx, showID); err != nil {
		return r, err
	}
	if r.Occupancy, err = s.store.Occupancy(ctx, showID, r.At); err != nil {
		return r, err
	}
	if r.Seats, err = s.store.Seats(ctx, showID); err != nil {
		return r, err
	}
	r.Callbacks, err = s.store.Callbacks(ctx, CallbackQuery{ShowID: showID, Limit: callbackLimit})
	return r, err
}

// Callbacks are the recorded payment callbacks q selects.
func (s *Service) Callbacks(ctx context.Context, q CallbackQuery) ([]CallbackRecord, error) {
	return s.store.Callbacks(ctx, q)
}

// RecordCallback logs one verified callback.
func (s *Service) RecordCallback(ctx context.Context, rec CallbackRecord) error {
	return s.store.RecordCallback(ctx, rec)
}

// Payment is a payment by id, whoever made it: for admins.
func (s *Service) Payment(ctx context.Context, id string) (Payment, error) {
	return s.store.Payment(ctx, id)
}

// AnyBooking is a booking by id, whoever made it: for admins.
func (s *Service) AnyBooking(ctx context.Context, id string) (Booking, error) {
	return s.store.Booking(ctx, id)
}

// ReserveSeats marks seats ids of a show house or blocked, or releases
// them to online sale (ReserveSeatsStep).
func (s *Service) ReserveSeats(ctx context.Context, showID string, ids []string, r SeatReserve) error {
	return ReserveSeatsStep(ctx, s.store, s.clock.Now, showID, ids, r, s.rules)
}

// SetOnlineCutoff sets a show's online cut-off to seats, 0 turning it off
// (SetOnlineCutoffStep).
func (s *Service) SetOnlineCutoff(ctx context.Context, showID string, seats int) error {
	return SetOnlineCutoffStep(ctx, s.store, s.clock.Now, showID, seats)
}
