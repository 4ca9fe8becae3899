// Package storetest is the conformance suite every booking.Store adapter
// passes: the seat rule of SPEC §1, the hold lifecycle of SPEC §2 and the
// atomicity of SPEC §3, checked through the port only, so that the same
// tests run on SQLite and on MongoDB.
//
// An adapter's test package runs it like this:
//
//	func TestMain(m *testing.M) {
//		storetest.RunWorkerIfRequested(harness)
//		os.Exit(m.Run())
//	}
//
//	func TestConformance(t *testing.T) { storetest.Run(t, harness) }
//
// Every test gets a fresh, empty store; time is given explicitly as
// booking.Moments, never read from the system clock. Stores must keep times
// to the nanosecond: a seat's LockedAt is exactly the m.Now it was locked at.
package storetest

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// Harness tells the suite how to make stores of one adapter.
//
// The suite closes every store it is given (New, Shared, Open) itself, with
// t.Cleanup; New and Shared register with t.Cleanup whatever else must go
// when the test ends (a temporary file goes by itself, a MongoDB database
// must be dropped). Cleanups run last-in first-out, so the store is closed
// before the database is removed.
type Harness struct {
	// New returns a fresh, empty, migrated store.
	New func(t *testing.T) booking.Store
	// Shared returns the address (DSN) of a fresh, empty, migrated database
	// that other OS processes can open with Open, and a store opened on it.
	Shared func(t *testing.T) (dsn string, store booking.Store)
	// Open opens a store on dsn; worker processes of the multi-process race
	// call it.
	Open func(ctx context.Context, dsn string) (booking.Store, error)
}

type test struct {
	name string
	run  func(t *testing.T, s store)
}

// Run runs the whole suite on stores made by h.
func Run(t *testing.T, h Harness) {
	if h.New == nil || h.Shared == nil || h.Open == nil {
		t.Fatal("storetest: Harness.New, Shared and Open are all required")
	}
	// Each test has a store of its own, so the tests of a group run in
	// parallel; the races run one at a time, so that each races only
	// itself.
	groups := []struct {
		name     string
		tests    []test
		parallel bool
	}{
		{"Show", showTests, true},
		{"Rule", ruleTests, true},
		{"Hold", holdTests, true},
		{"Release", releaseTests, true},
		{"Address", addressTests, true},
		{"Gap", gapTests, true},
		{"Extend", extendTests, true},
		{"StartPayment", startPaymentTests, true},
		{"TypedPay", typedPayTests, true},
		{"SeatPricing", seatPricingTests, true},
		{"Settle", settleTests, true},
		{"Provider", providerTests, true},
		{"Checkout", checkoutTests, true},
		{"Sales", salesTests, true},
		{"Catalog", catalogTests, true},
		{"Admin", adminTests, true},
		{"Checkin", checkinTests, true},
		{"Mail", mailTests, true},
		{"Lang", langTests, true},
		{"Outbox", outboxTests, true},
		{"Prune", pruneTests, true},
		{"Audit", auditTests, true},
		{"Keys", keyTests, true},
		{"Retry", retryTests, true},
		{"Drift", driftTests, true},
		{"BestHold", bestHoldTests, true},
		{"OnSale", onSaleTests, true},
		{"Types", typeTests, true},
		{"Reserve", reserveTests, true},
		{"Counter", counterTests, true},
		{"Report", reportTests, true},
		{"Race", raceTests, false},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, tt := range g.tests {
				t.Run(tt.name, func(t *testing.T) {
					if g.parallel {
						t.Parallel()
					}
					tt.run(t, newStore(t, h))
				})
			}
			if g.name == "Race" {
				t.Run("TwoProcesses", func(t *testing.T) { testProcessRace(t, h) })
				t.Run("TwoProcessesAdmit", func(t *testing.T) { testProcessAdmitRace(t, h) })
				t.Run("TwoProcessesCounterAndWeb", func(t *testing.T) { testProcessCounterRace(t, h) })
				t.Run("TwoStoresCreateOneShow", func(t *testing.T) { testTwoStoresCreateOneShow(t, h) })
			}
		})
	}
}

func newStore(t *testing.T, h Harness) store {
	t.Helper()
	s := h.New(t)
	if s == nil {
		t.Fatal("Harness.New returned a nil store")
	}
	closeWithTest(t, store{s})
	return store{s}
}

func closeWithTest(t *testing.T, s store) {
	t.Helper()
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
}

// ttl is the hold TTL of most tests; base has nanoseconds on purpose, so a
// store that rounds times fails.
const ttl = 15 * time.Minute

var base = time.Date(2026, 4, 1, 10, 0, 0, 123456789, time.UTC)

// later is when the suite's shows start, unless a test needs another time:
// a month after base, so that every moment the tests use is within their
// sales window.
var later = base.Add(30 * 24 * time.Hour)

// at is base+d with the usual TTL. Single gaps are allowed, so that each
// test picks seats for what it tests; the gap rule has tests of its own
// (gapTests).
func at(d time.Duration) booking.Moment {
	return booking.Rules{TTL: ttl, AllowGaps: true}.At(base.Add(d))
}

// layout of the shows the suite creates: rows A, B, … nearest the screen
// first; an aisle after the middle seat; the back row dearer.
const (
	currency     = "INR"
	classicPrice = booking.Money(15000)
	primePrice   = booking.Money(25050)
)

// newShow creates a show of rows×cols seats starting at startsAt. The seats
// go to CreateShow shuffled; the result is in map order.
func newShow(t *testing.T, s store, rows, cols int, startsAt time.Time) (booking.Show, []booking.Seat) {
	t.Helper()
	show, seats := newShowPlan(rows, cols, startsAt)
	createShow(t, s, show, seats)
	return show, seats
}

// newShowPlan is a show of rows×cols seats starting at startsAt, not
// stored, its seats in map order.
func newShowPlan(rows, cols int, startsAt time.Time) (booking.Show, []booking.Seat) {
	id := booking.NewID()
	show := booking.Show{
		ID:       id,
		Movie:    booking.Movie{ID: "m-" + id[:6], Title: "The Long Queue " + id[:4], Rating: "UA", RuntimeMin: 142, Language: "Hindi"},
		Theatre:  booking.Theatre{ID: "t1", Name: "Regal Talkies", City: "Pune"},
		Screen:   "Audi 2",
		StartsAt: startsAt,
		Currency: currency,
	}
	var seats []booking.Seat
	for r := range rows {
		row := rowLabel(r)
		for c := range cols {
			col := c
			if c >= cols/2 && cols > 1 {
				col++ // the aisle
			}
			seat := booking.Seat{
				ShowID: id, ID: row + strconv.Itoa(c+1), Row: row, Number: c + 1,
				GridRow: r, GridCol: col, Category: "Classic", Price: classicPrice,
				Kind: booking.KindStandard, Status: booking.SeatAvailable,
			}
			if r == rows-1 && rows > 1 {
				seat.Category, seat.Price = "Prime", primePrice
			}
			if r == 0 && c == 0 {
				seat.Kind = booking.KindWheelchair
			}
			seats = append(seats, seat)
		}
	}
	return show, seats
}

// createShow stores show with seats, given to the store in a shuffled order.
func createShow(t *testing.T, s store, show booking.Show, seats []booking.Seat) {
	t.Helper()
	shuffled := slices.Clone(seats)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if err := s.CreateShow(context.Background(), show, shuffled); err != nil {
		t.Fatalf("CreateShow: %v", err)
	}
}

func rowLabel(r int) string {
	if r < 26 {
		return string(rune('A' + r))
	}
	return string(rune('A'+r/26-1)) + string(rune('A'+r%26))
}

func seatIDs(seats []booking.Seat) []string {
	ids := make([]string, len(seats))
	for i, s := range seats {
		ids[i] = s.ID
	}
	return ids
}

// newHold is the hold the Service would give the store.
func newHold(showID, owner string, m booking.Moment, seats ...string) booking.Hold {
	return booking.Hold{
		ID: booking.NewHoldID(m.Now), ShowID: showID, Owner: owner,
		SeatIDs: booking.NormalizeSeatIDs(seats), CreatedAt: m.Now, State: booking.HoldActive,
	}
}

// hold holds seats for owner at m, fails the test unless it succeeds, and
// returns the stored hold.
func hold(t *testing.T, s store, showID, owner string, m booking.Moment, seats ...string) booking.Hold {
	t.Helper()
	h := newHold(showID, owner, m, seats...)
	if err := s.HoldSeats(context.Background(), h, m); err != nil {
		t.Fatalf("HoldSeats(%v) for %s at %v: %v", seats, owner, m.Now, err)
	}
	return getHold(t, s, h.ID)
}

// pay starts a payment for h at m.
func pay(t *testing.T, s store, h booking.Hold, m booking.Moment) (booking.Payment, booking.Booking) {
	t.Helper()
	p, b, err := s.StartPayment(context.Background(), h.ID, h.Owner, newPaymentStart(), m)
	if err != nil {
		t.Fatalf("StartPayment(%s) at %v: %v", h.ID, m.Now, err)
	}
	return p, b
}

// moviegoerEmail is where the suite's bookings are mailed.
const moviegoerEmail = "moviegoer@example.com"

func newPaymentStart() booking.PaymentStart {
	return booking.PaymentStart{PaymentID: booking.NewID(), BookingID: booking.NewID(), Key: booking.NewBookingKey(), Email: moviegoerEmail}
}

// event is the provider's event for p.
func event(p booking.Payment, typ booking.EventType) booking.PaymentEvent {
	return booking.PaymentEvent{ID: "evt_" + booking.NewID(), Type: typ, PaymentID: p.ID, HoldID: p.HoldID, Amount: p.Amount, Currency: p.Currency}
}

// settle applies ev at m and fails the test on error.
func settle(t *testing.T, s store, ev booking.PaymentEvent, ticket string, m booking.Moment) booking.Settlement {
	t.Helper()
	st, err := s.SettlePayment(context.Background(), ev, ticket, m)
	if err != nil {
		t.Fatalf("SettlePayment(%s %s) at %v: %v", ev.ID, ev.Type, m.Now, err)
	}
	return st
}

// book holds seats for owner at m, pays and settles successfully at m.
func book(t *testing.T, s store, showID, owner string, m booking.Moment, seats ...string) (booking.Hold, booking.Booking) {
	t.Helper()
	h := hold(t, s, showID, owner, m, seats...)
	p, _ := pay(t, s, h, m)
	st := settle(t, s, event(p, booking.EventPaymentSucceeded), booking.NewTicketCode(), m)
	if st.Effect != booking.EffectBooked {
		t.Fatalf("settling a fresh hold: effect %q (%s), want %q", st.Effect, st.Reason, booking.EffectBooked)
	}
	return h, getBooking(t, s, p.BookingID)
}

func getSeats(t *testing.T, s store, showID string) []booking.Seat {
	t.Helper()
	seats, err := s.Seats(context.Background(), showID)
	if err != nil {
		t.Fatalf("Seats(%s): %v", showID, err)
	}
	return seats
}

func getHold(t *testing.T, s store, holdID string) booking.Hold {
	t.Helper()
	h, err := s.Hold(context.Background(), holdID)
	if err != nil {
		t.Fatalf("Hold(%s): %v", holdID, err)
	}
	return h
}

func getPayment(t *testing.T, s store, id string) booking.Payment {
	t.Helper()
	p, err := s.Payment(context.Background(), id)
	if err != nil {
		t.Fatalf("Payment(%s): %v", id, err)
	}
	return p
}

func getBooking(t *testing.T, s store, id string) booking.Booking {
	t.Helper()
	b, err := s.Booking(context.Background(), id)
	if err != nil {
		t.Fatalf("Booking(%s): %v", id, err)
	}
	return b
}

func availableIDs(t *testing.T, s store, showID string, m booking.Moment) []string {
	t.Helper()
	ids, err := s.AvailableSeatIDs(context.Background(), showID, m)
	if err != nil {
		t.Fatalf("AvailableSeatIDs(%s) at %v: %v", showID, m.Now, err)
	}
	return ids
}

func occupancy(t *testing.T, s store, showID string, m booking.Moment) booking.Occupancy {
	t.Helper()
	o, err := s.Occupancy(context.Background(), showID, m)
	if err != nil {
		t.Fatalf("Occupancy(%s) at %v: %v", showID, m.Now, err)
	}
	return o
}

// seatView is what the suite checks of a stored seat: the lock of a locked
// seat, the booking of a booked one, nothing more of an available one (a
// store may keep or clear the old hold id).
type seatView struct {
	Status    booking.SeatStatus
	HoldID    string
	LockedAt  time.Time
	BookingID string
}

func view(s booking.Seat) seatView {
	switch s.Status {
	case booking.SeatLocked:
		return seatView{Status: s.Status, HoldID: s.HoldID, LockedAt: s.LockedAt}
	case booking.SeatBooked:
		return seatView{Status: s.Status, BookingID: s.BookingID}
	default:
		return seatView{Status: s.Status}
	}
}

var free = seatView{Status: booking.SeatAvailable}

func lockedBy(h booking.Hold) seatView {
	return seatView{Status: booking.SeatLocked, HoldID: h.ID, LockedAt: h.CreatedAt}
}

func bookedBy(b booking.Booking) seatView {
	return seatView{Status: booking.SeatBooked, BookingID: b.ID}
}

// checkSeats compares the stored seats named in want.
func checkSeats(t *testing.T, s store, showID string, want map[string]seatView) {
	t.Helper()
	got := map[string]seatView{}
	for _, seat := range getSeats(t, s, showID) {
		if _, ok := want[seat.ID]; ok {
			got[seat.ID] = view(seat)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("seats of show %s (-want +got):\n%s", showID, diff)
	}
}

// unchanged fails the test when the stored seats differ from before.
func unchanged(t *testing.T, s store, showID string, before []booking.Seat) {
	t.Helper()
	same(t, "seats", before, getSeats(t, s, showID))
}

// same fails the test when what, as read again, differs from before.
func same(t *testing.T, what string, before, after any) {
	t.Helper()
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("%s changed (-before +after):\n%s", what, diff)
	}
}

// wantErr fails the test unless errors.Is(err, target).
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v (code %q), want %v (code %q)", what, err, booking.ErrorCode(err), target, booking.ErrorCode(target))
	}
}

// wantCode fails the test unless err has the given domain code.
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := booking.ErrorCode(err); got != code {
		t.Errorf("%s: error %v has code %q, want %q", what, err, got, code)
	}
}

// seed is the suite's random seed: STORETEST_SEED repeats a failing run.
func seed(t *testing.T) uint64 {
	t.Helper()
	v := uint64(time.Now().UnixNano())
	if env := os.Getenv("STORETEST_SEED"); env != "" {
		n, err := strconv.ParseUint(env, 10, 64)
		if err != nil {
			t.Fatalf("STORETEST_SEED=%q: %v", env, err)
		}
		v = n
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("random seed %d: STORETEST_SEED=%d repeats this run", v, v)
		}
	})
	return v
}

// sized is n, or the smaller withRace when the race detector is on.
func sized(n, withRace int) int {
	if raceDetector {
		return withRace
	}
	return n
}

// store is a booking.Store with the domain's atomic steps of the hold
// lifecycle as methods, each run at the moment the test gives, so that a
// test reads as a sequence of store operations.
type store struct{ booking.Store }

func (s store) HoldSeats(ctx context.Context, h booking.Hold, m booking.Moment) error {
	return booking.HoldSeatsStep(ctx, s.Store, m.Clock(), h, m.Rules)
}

func (s store) ReleaseHold(ctx context.Context, holdID, owner string) (booking.Hold, error) {
	return booking.ReleaseHoldStep(ctx, s.Store, time.Now, holdID, owner)
}

func (s store) ExtendHold(ctx context.Context, holdID, owner string, m booking.Moment) (booking.Hold, error) {
	return booking.ExtendHoldStep(ctx, s.Store, m.Clock(), holdID, owner, m.Rules)
}

func (s store) HoldBest(ctx context.Context, h booking.Hold, r booking.BestRequest, m booking.Moment) (booking.Hold, error) {
	return booking.BestHoldStep(ctx, s.Store, m.Clock(), h, r, m.Rules)
}

// The show, door and admin account steps (issue 24), under the old store
// method names, each run at the moment the test gives.

func (s store) CreateShow(ctx context.Context, show booking.Show, seats []booking.Seat) error {
	return booking.CreateShowStep(ctx, s.Store, time.Now, show, seats)
}

func (s store) DeleteShow(ctx context.Context, id string) error {
	return booking.DeleteShowStep(ctx, s.Store, time.Now, id)
}

func (s store) CancelShow(ctx context.Context, showID string, m booking.Moment) (booking.Show, []booking.Booking, error) {
	return booking.CancelShowSteps(ctx, s.Store, m.Clock(), showID, booking.CancelBatch)
}

func (s store) AdmitTicket(ctx context.Context, code string, d booking.DoorCheck, by string) (booking.Checkin, error) {
	return booking.AdmitTicketStep(ctx, s.Store, fixed(d.Now), code, d, by)
}

func (s store) CreateAdmin(ctx context.Context, a booking.Admin) error {
	return booking.CreateAdminStep(ctx, s.Store, fixed(a.CreatedAt), a)
}

func (s store) UpdateAdmin(ctx context.Context, u booking.AdminUpdate) (booking.Admin, error) {
	return booking.UpdateAdminStep(ctx, s.Store, fixed(u.At), u)
}

func (s store) DeleteAdmin(ctx context.Context, id string) error {
	return booking.DeleteAdminStep(ctx, s.Store, time.Now, id)
}

// The payment steps (start a payment, checkout attempts, settlement,
// refunds), each run at the moment the test gives.

func (s store) StartPayment(ctx context.Context, holdID, owner string, ids booking.PaymentStart, m booking.Moment) (booking.Payment, booking.Booking, error) {
	return booking.StartPaymentStep(ctx, s.Store, m.Clock(), holdID, owner, ids, m.Rules)
}

func (s store) SettlePayment(ctx context.Context, ev booking.PaymentEvent, ticketCode string, m booking.Moment) (booking.Settlement, error) {
	return booking.SettlePaymentStep(ctx, s.Store, m.Clock(), ev, ticketCode, m.Rules)
}

func (s store) BeginCheckout(ctx context.Context, paymentID string, from int, expiresAt, now time.Time) (booking.Payment, bool, error) {
	return booking.BeginCheckoutStep(ctx, s.Store, fixed(now), paymentID, from, expiresAt.Sub(now))
}

func (s store) SetCheckoutRef(ctx context.Context, paymentID string, attempt int, ref string) error {
	return booking.SetCheckoutRefStep(ctx, s.Store, time.Now, paymentID, attempt, ref)
}

func (s store) CloseCheckout(ctx context.Context, paymentID string, at time.Time) error {
	return booking.CloseCheckoutStep(ctx, s.Store, fixed(at), paymentID)
}

func (s store) ClaimLookup(ctx context.Context, paymentID string, now time.Time) (bool, error) {
	return booking.ClaimLookupStep(ctx, s.Store, fixed(now), paymentID)
}

func (s store) MarkRefunded(ctx context.Context, bookingID, refundID, by string, now time.Time) (booking.Booking, error) {
	return booking.MarkRefundedStep(ctx, s.Store, fixed(now), bookingID, refundID, by)
}

func (s store) SettleRefund(ctx context.Context, ev booking.RefundEvent, m booking.Moment) (booking.RefundSettlement, error) {
	return booking.SettleRefundStep(ctx, s.Store, m.Clock(), ev)
}

// The outboxes (mail, the sandbox's callbacks): their steps under the old
// store methods' names, each run at the instant the test gives.

// fixed is a clock that always reads at: a step run with it decides at
// the instant the test gives.
func fixed(at time.Time) func() time.Time { return func() time.Time { return at } }

func (s store) QueueMail(ctx context.Context, m booking.Mail) error {
	return booking.QueueMailStep(ctx, s.Store, time.Now, m)
}

func (s store) ClaimMail(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]booking.Mail, error) {
	return booking.ClaimMailStep(ctx, s.Store, fixed(now), lease, limit)
}

func (s store) MailSent(ctx context.Context, id string, now time.Time) error {
	return booking.MailSentStep(ctx, s.Store, fixed(now), id)
}

func (s store) MailFailed(ctx context.Context, m booking.Mail) error {
	// As the sender does: the claim it fails is the one the mail has.
	current, err := s.Mail(ctx, m.ID)
	if err != nil {
		return err
	}
	return booking.MailFailedStep(ctx, s.Store, time.Now, m, current.ClaimedUntil)
}

// The catalog steps (issue 24), under the old store method names.

func (s store) SaveTheatre(ctx context.Context, t booking.Theatre) error {
	return booking.SaveTheatreStep(ctx, s.Store, time.Now, t)
}

func (s store) SaveScreen(ctx context.Context, sc booking.Screen) error {
	return booking.SaveScreenStep(ctx, s.Store, time.Now, sc)
}

func (s store) SaveMovie(ctx context.Context, m booking.Movie) error {
	return booking.SaveMovieStep(ctx, s.Store, time.Now, m)
}

func (s store) DeleteTheatre(ctx context.Context, id string) error {
	return booking.DeleteTheatreStep(ctx, s.Store, time.Now, id)
}

func (s store) DeleteScreen(ctx context.Context, id string) error {
	return booking.DeleteScreenStep(ctx, s.Store, time.Now, id)
}

func (s store) DeleteMovie(ctx context.Context, id string) error {
	return booking.DeleteMovieStep(ctx, s.Store, time.Now, id)
}

func (s store) CreateCatalogShow(ctx context.Context, show booking.Show, seats []booking.Seat) (booking.Show, error) {
	return booking.CreateCatalogShowStep(ctx, s.Store, time.Now, show, seats, nil)
}

// EndedCheckouts is booking.EndedCheckouts on the store's reads.
func (s store) EndedCheckouts(ctx context.Context, m booking.Moment, limit int) ([]booking.Payment, error) {
	return booking.EndedCheckouts(ctx, s.Store, m, limit)
}
