package booking_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// stubStore answers the few Store calls the Service tests make and records
// them; any other call panics through the nil embedded interface.
type stubStore struct {
	booking.Store
	calls      []string
	hold       booking.Hold
	holdErr    error
	activeHold booking.Hold
	activeErr  error
	bk         booking.Booking
	gotHold    booking.Hold
	gotMoment  booking.Moment
	gotPayment booking.Payment
	gotBooking booking.Booking
	gotFrom    time.Time
	// updateBooking, when set, answers the step's UpdatePaymentBooking
	// (a store with the unique ticket code index).
	updateBooking func(booking.Booking) error
	// instants are the transactions' instants, one per Atomically.
	instants []time.Time
}

// Atomically runs a step on stubTx at the clock's instant.
func (s *stubStore) Atomically(_ context.Context, clock func() time.Time, step func(booking.Tx) error) error {
	s.calls = append(s.calls, "Atomically")
	now := clock()
	s.instants = append(s.instants, now)
	return step(&stubTx{s: s, now: now})
}

// stubTx is a transaction over a show on sale whose seats are all
// available at 100 each, in which the owner holds nothing yet, or, for the
// payment steps, holds A1 (payHold) and has pending payment p1 for it
// with booking b1; it records the hold, payment and booking written. What
// no test needs panics (the nil Tx).
type stubTx struct {
	booking.Tx
	s   *stubStore
	now time.Time
}

func (t *stubTx) Now() time.Time         { return t.now }
func (t *stubTx) Serialize(string) error { return nil }
func (t *stubTx) InsertHold(h booking.Hold) error {
	t.s.gotHold = h
	return nil
}
func (t *stubTx) SaleFacts(id string) (booking.Show, error) {
	return booking.Show{ID: id, StartsAt: t.now.Add(24 * time.Hour), Currency: "INR"}, nil
}
func (t *stubTx) ActiveHolds(string, string) ([]booking.Hold, error) { return nil, nil }
func (t *stubTx) SeatsOf(_ string, ids []string, _ bool) ([]booking.Seat, error) {
	seats := make([]booking.Seat, len(ids))
	for i, id := range ids {
		seats[i] = booking.Seat{ID: id, Status: booking.SeatAvailable, Price: 100, GridCol: i}
	}
	return seats, nil
}
func (t *stubTx) LockSeats(_ string, ids []string, _, _ string, _ time.Time) (int, error) {
	return len(ids), nil
}

// payHold is owner o1's hold h1 of seat A1 in the payment steps.
func (t *stubTx) Hold(id string) (booking.Hold, error) {
	return booking.Hold{ID: id, ShowID: "s1", Owner: "o1", SeatIDs: []string{"A1"}, Amount: 100, Currency: "INR",
		CreatedAt: t.now, State: booking.HoldActive}, nil
}
func (t *stubTx) PendingPayments(string) ([]booking.Payment, error) { return nil, nil }
func (t *stubTx) ShowPrices(string) (booking.ShowPrices, error)     { return booking.ShowPrices{}, nil }
func (t *stubTx) ShowTaxRates(string) (booking.TaxRates, error)     { return booking.TaxRates{}, nil }
func (t *stubTx) InsertPayment(p booking.Payment) error {
	t.s.gotPayment = p
	return nil
}
func (t *stubTx) InsertBooking(b booking.Booking) error {
	t.s.gotBooking = b
	return nil
}
func (t *stubTx) SeenEvent(string) (booking.EventRecord, bool, error) {
	return booking.EventRecord{}, false, nil
}
func (t *stubTx) Payment(id string) (booking.Payment, error) {
	return booking.Payment{ID: id, HoldID: "h1", BookingID: "b1", Owner: "o1", Amount: 100, Currency: "INR",
		State: booking.PaymentPending, CreatedAt: t.now}, nil
}
func (t *stubTx) PaymentBooking(id string) (booking.Booking, error) {
	return booking.Booking{ID: id, HoldID: "h1", PaymentID: "p1", Owner: "o1", ShowID: "s1", SeatIDs: []string{"A1"},
		Amount: 100, Currency: "INR", State: booking.BookingPending, CreatedAt: t.now, UpdatedAt: t.now}, nil
}
func (t *stubTx) BookSeats(h booking.Hold, _ string) (int, error) { return len(h.SeatIDs), nil }
func (t *stubTx) SetHoldState(string, booking.HoldState) error    { return nil }
func (t *stubTx) UpdatePayment(booking.Payment) error             { return nil }
func (t *stubTx) RecordEvent(booking.EventRecord) error           { return nil }
func (t *stubTx) Mail(string) (booking.Mail, error)               { return booking.Mail{}, booking.ErrMailNotFound }
func (t *stubTx) InsertMail(booking.Mail) error                   { return nil }
func (t *stubTx) UpdatePaymentBooking(b booking.Booking) error {
	t.s.gotBooking = b
	if t.s.updateBooking != nil {
		return t.s.updateBooking(b)
	}
	return nil
}

// payEvent is the provider's success for p1 of hold h1.
func payEvent(id string) booking.PaymentEvent {
	return booking.PaymentEvent{ID: id, Type: booking.EventPaymentSucceeded, PaymentID: "p1", HoldID: "h1", Amount: 100, Currency: "INR"}
}

func (s *stubStore) Hold(context.Context, string) (booking.Hold, error) {
	s.calls = append(s.calls, "Hold")
	return s.hold, s.holdErr
}

func (s *stubStore) ActiveHold(context.Context, string, string) (booking.Hold, error) {
	s.calls = append(s.calls, "ActiveHold")
	return s.activeHold, s.activeErr
}

// ShowSeats is the one read of a seat map: the viewer's hold is
// activeHold, or none for activeErr ErrHoldNotFound or no viewer.
func (s *stubStore) ShowSeats(_ context.Context, id, owner string) (booking.ShowSeats, error) {
	s.calls = append(s.calls, "ShowSeats")
	ss := booking.ShowSeats{Show: booking.Show{ID: id}}
	switch {
	case owner == "", errors.Is(s.activeErr, booking.ErrHoldNotFound):
	case s.activeErr != nil:
		return booking.ShowSeats{}, s.activeErr
	default:
		h := s.activeHold
		ss.Hold = &h
	}
	return ss, nil
}

func (s *stubStore) Booking(context.Context, string) (booking.Booking, error) {
	s.calls = append(s.calls, "Booking")
	return s.bk, nil
}

func (s *stubStore) Show(_ context.Context, id string) (booking.Show, error) {
	s.calls = append(s.calls, "Show")
	return booking.Show{ID: id}, nil
}

func (s *stubStore) Seats(context.Context, string) ([]booking.Seat, error) {
	s.calls = append(s.calls, "Seats")
	return nil, nil
}

func (s *stubStore) UpcomingShows(_ context.Context, from time.Time, _ int, m booking.Moment) ([]booking.ShowSummary, error) {
	s.calls = append(s.calls, "UpcomingShows")
	s.gotFrom, s.gotMoment = from, m
	return nil, nil
}

func newService(st *stubStore, p booking.Policy) (*booking.Service, *booking.ManualClock) {
	clock := booking.NewManualClock(t0)
	return booking.NewService(st, clock, p), clock
}

func TestNewServiceDefaults(t *testing.T) {
	s := booking.NewService(&stubStore{}, nil, booking.Policy{})
	if s.HoldTTL() != 15*time.Minute || s.MaxSeats() != 10 {
		t.Errorf("defaults: TTL %v, max %d; want 15m, 10 (SPEC §4)", s.HoldTTL(), s.MaxSeats())
	}
	if d := time.Since(s.Now().Now); d < 0 || d > time.Minute {
		t.Errorf("nil clock: Now() is %v away from the system clock", d)
	}
	s = booking.NewService(&stubStore{}, nil, booking.Policy{HoldTTL: 2 * time.Minute, MaxSeats: 4})
	if s.HoldTTL() != 2*time.Minute || s.MaxSeats() != 4 {
		t.Errorf("policy: TTL %v, max %d; want 2m, 4", s.HoldTTL(), s.MaxSeats())
	}
}

func TestServiceHoldSeatsValidation(t *testing.T) {
	tests := []struct {
		name  string
		owner string
		seats []string
	}{
		{"no session", "", []string{"A1"}},
		{"no seats", "o1", nil},
		{"too many for the policy", "o1", []string{"A1", "A2", "A3"}},
		{"duplicate", "o1", []string{"A1", "A1"}},
		{"malformed", "o1", []string{"A1", "A1; DROP TABLE seats"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &stubStore{}
			svc, _ := newService(st, booking.Policy{MaxSeats: 2})
			_, err := svc.HoldSeats(context.Background(), "s1", tt.owner, tt.seats)
			if got := booking.ErrorCode(err); got != booking.EINVALID {
				t.Errorf("HoldSeats = %v (code %q), want code %q", err, got, booking.EINVALID)
			}
			if len(st.calls) != 0 {
				t.Errorf("store called %v for an invalid request", st.calls)
			}
		})
	}
}

func TestServiceHoldSeats(t *testing.T) {
	st := &stubStore{}
	svc, clock := newService(st, booking.Policy{HoldTTL: 7 * time.Minute, MaxSeats: 3})
	clock.Advance(time.Second)
	got, err := svc.HoldSeats(context.Background(), "s1", "o1", []string{"B1", "A10", "A2"})
	if err != nil {
		t.Fatalf("HoldSeats: %v", err)
	}
	if !regexp.MustCompile(`^[a-z2-7]{36}$`).MatchString(got) {
		t.Errorf("hold id %q is not a NewHoldID", got)
	}
	want := booking.Hold{ID: got, ShowID: "s1", Owner: "o1", SeatIDs: []string{"A2", "A10", "B1"},
		Amount: 300, Currency: "INR", CreatedAt: t0.Add(time.Second), State: booking.HoldActive}
	if diff := cmp.Diff(want, st.gotHold); diff != "" {
		t.Errorf("hold the step stored (-want +got):\n%s", diff)
	}
}

func TestServiceHold(t *testing.T) {
	h := booking.Hold{ID: "h1", Owner: "o1", State: booking.HoldActive}
	tests := []struct {
		name    string
		owner   string
		holdErr error
		want    error
	}{
		{"owner", "o1", nil, nil},
		{"someone else", "o2", nil, booking.ErrNotOwner},
		{"no session", "", nil, booking.ErrNotOwner},
		{"unknown", "o1", booking.ErrHoldNotFound, booking.ErrHoldNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &stubStore{hold: h, holdErr: tt.holdErr}
			svc, _ := newService(st, booking.Policy{})
			got, err := svc.Hold(context.Background(), "h1", tt.owner)
			if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
				t.Fatalf("Hold = %v, want %v", err, tt.want)
			}
			if err != nil && got.ID != "" {
				t.Errorf("Hold returned %+v with error %v; nothing may leak", got, err)
			}
		})
	}
}

func TestServiceBooking(t *testing.T) {
	tests := []struct {
		name  string
		owner string
		want  error
	}{
		{"owner", "o1", nil},
		{"someone else", "o2", booking.ErrBookingNotFound},
		{"no session", "", booking.ErrBookingNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &stubStore{bk: booking.Booking{ID: "b1", Owner: "o1", TicketCode: "ABCD-EFGH"}}
			svc, _ := newService(st, booking.Policy{})
			got, err := svc.Booking(context.Background(), "b1", tt.owner)
			if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
				t.Fatalf("Booking = %v, want %v", err, tt.want)
			}
			if err != nil && got.TicketCode != "" {
				t.Errorf("Booking leaked %+v to %q", got, tt.owner)
			}
		})
	}
}

func TestServiceSeatMap(t *testing.T) {
	mine := booking.Hold{ID: "h1", Owner: "o1", CreatedAt: t0, State: booking.HoldActive}
	internal := errors.New("disk on fire")
	tests := []struct {
		name       string
		viewer     string
		advance    time.Duration
		activeErr  error
		wantMyHold bool
		wantErr    error
	}{
		{name: "anonymous viewer", viewer: ""},
		{name: "viewer with a live hold", viewer: "o1", wantMyHold: true},
		{name: "viewer's hold 1ns from expiry", viewer: "o1", advance: 15*time.Minute - 1, wantMyHold: true},
		{name: "viewer's hold expired", viewer: "o1", advance: 15 * time.Minute},
		{name: "viewer without a hold", viewer: "o2", activeErr: booking.ErrHoldNotFound},
		{name: "store failure", viewer: "o1", activeErr: internal, wantErr: internal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &stubStore{activeHold: mine, activeErr: tt.activeErr}
			svc, clock := newService(st, booking.Policy{})
			clock.Advance(tt.advance)
			sm, err := svc.SeatMap(context.Background(), "s1", tt.viewer)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("SeatMap = %v, want %v", err, tt.wantErr)
			}
			if got := sm.MyHold != nil; got != tt.wantMyHold {
				t.Errorf("MyHold = %+v, want set: %v", sm.MyHold, tt.wantMyHold)
			}
			if len(st.calls) != 1 || st.calls[0] != "ShowSeats" {
				t.Errorf("store calls %v, want ShowSeats only: one read", st.calls)
			}
		})
	}
}

func TestServicePassesTheMoment(t *testing.T) {
	st := &stubStore{}
	svc, _ := newService(st, booking.Policy{HoldTTL: 3 * time.Minute})
	ctx := context.Background()
	wantM := booking.Rules{TTL: 3 * time.Minute}.At(t0)

	if _, _, err := svc.StartPayment(ctx, "h1", "o1", "moviegoer@example.com"); err != nil {
		t.Fatal(err)
	}
	p, b := st.gotPayment, st.gotBooking
	if p.ID == "" || p.BookingID != b.ID || b.ID == "" || b.PaymentID != p.ID || p.ID == b.ID {
		t.Errorf("StartPayment wrote payment %q of booking %q, booking %q of payment %q; want two fresh ids", p.ID, p.BookingID, b.ID, b.PaymentID)
	}
	if !p.CreatedAt.Equal(t0) || !b.CreatedAt.Equal(t0) {
		t.Errorf("StartPayment at %v and %v, want the transaction's instant %v", p.CreatedAt, b.CreatedAt, t0)
	}

	st.gotBooking = booking.Booking{}
	if _, err := svc.SettlePayment(ctx, payEvent("evt_1")); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9A-Z]{4}-[0-9A-Z]{4}$`).MatchString(st.gotBooking.TicketCode) {
		t.Errorf("SettlePayment ticket code %q", st.gotBooking.TicketCode)
	}
	if st.gotBooking.State != booking.BookingConfirmed || !st.gotBooking.UpdatedAt.Equal(t0) {
		t.Errorf("SettlePayment booked %s at %v, want confirmed at %v", st.gotBooking.State, st.gotBooking.UpdatedAt, t0)
	}

	st.gotMoment = booking.Moment{}
	if _, err := svc.UpcomingShows(ctx, 5); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantM, st.gotMoment); diff != "" {
		t.Errorf("UpcomingShows moment (-want +got):\n%s", diff)
	}
	if want := booking.OnSaleStartsFrom(wantM); !st.gotFrom.Equal(want) {
		t.Errorf("UpcomingShows from %v, want %v: the shows on sale, by SALES_CLOSE", st.gotFrom, want)
	}
}

// ticketStore is a stubStore whose bookings have a unique ticket code: a
// code in taken is refused with ErrTicketCodeTaken, anything else books.
// err, when set, is what every write of a booking answers instead.
func ticketStore(taken map[string]bool, err error, codes *[]string) *stubStore {
	return &stubStore{updateBooking: func(b booking.Booking) error {
		*codes = append(*codes, b.TicketCode)
		switch {
		case err != nil:
			return err
		case taken[b.TicketCode]:
			return booking.ErrTicketCodeTaken
		}
		taken[b.TicketCode] = true
		return nil
	}}
}

func TestServiceSettlePaymentTicketCodeTaken(t *testing.T) {
	fresh := []string{"FRSH-0001", "FRSH-0002", "FRSH-0003", "FRSH-0004", "FRSH-0005", "FRSH-0006"}
	tests := []struct {
		name      string
		codes     []string // what the generator draws, in order
		taken     []string
		storeErr  error
		wantCodes []string // what the store is given, in order
		wantErr   error
	}{
		{"free at once", fresh, nil, nil, fresh[:1], nil},
		{"taken, then fresh", append([]string{"TAKN-0001"}, fresh...), []string{"TAKN-0001"}, nil,
			[]string{"TAKN-0001", "FRSH-0001"}, nil},
		{"taken four times", fresh, fresh[:4], nil, fresh[:5], nil},
		{"taken five times", fresh, fresh[:5], nil, fresh[:5], booking.ErrTicketCodeTaken},
		{"other errors are not retried", fresh, nil, booking.ErrPaymentMismatch, fresh[:1], booking.ErrPaymentMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			taken := map[string]bool{}
			for _, c := range tt.taken {
				taken[c] = true
			}
			var given []string
			st := ticketStore(taken, tt.storeErr, &given)
			clock := booking.NewManualClock(t0)
			svc := booking.NewService(st, clock, booking.Policy{})
			codes := slices.Clone(tt.codes)
			svc.SetTicketCodes(func() string {
				c := codes[0]
				codes = codes[1:]
				clock.Advance(time.Second) // drawn before its attempt's transaction reads the clock
				return c
			})
			got, err := svc.SettlePayment(context.Background(), payEvent("evt_1"))
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("SettlePayment = %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.wantCodes, given); diff != "" {
				t.Errorf("ticket codes given to the store (-want +got):\n%s", diff)
			}
			// Each attempt is a transaction of its own, deciding at the
			// instant it read once it ran: after its code was drawn.
			for i, at := range st.instants {
				if want := t0.Add(time.Duration(i+1) * time.Second); !at.Equal(want) {
					t.Errorf("attempt %d at %v, want %v", i+1, at, want)
				}
			}
			if n := len(st.instants); n != len(tt.wantCodes) {
				t.Errorf("%d transactions, want one per code: %d", n, len(tt.wantCodes))
			}
			if st.gotBooking.TicketCode != "" && !st.gotBooking.UpdatedAt.Equal(st.instants[len(st.instants)-1]) {
				t.Errorf("last attempt booked at %v, want its transaction's instant %v", st.gotBooking.UpdatedAt, st.instants[len(st.instants)-1])
			}
			switch {
			case err == nil:
				want := tt.wantCodes[len(tt.wantCodes)-1]
				if got.Effect != booking.EffectBooked || got.Booking.TicketCode != want {
					t.Errorf("settlement %s with ticket %q, want booked with %q", got.Effect, got.Booking.TicketCode, want)
				}
			case errors.Is(err, booking.ErrTicketCodeTaken):
				if code, msg := booking.ErrorCode(err), booking.ErrorMessage(err); code != booking.EINTERNAL || strings.Contains(msg, "ticket") {
					t.Errorf("ErrorCode %q, ErrorMessage %q; want %q and a message that tells nothing", code, msg, booking.EINTERNAL)
				}
			}
		})
	}
}
