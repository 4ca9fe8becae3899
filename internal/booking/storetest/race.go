package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var raceTests = []test{
	{"HoldsOfManySessions", testRaceHolds},
	{"HoldsOfOneSession", testRaceOneSession},
	{"StartPayment", testRaceStartPayment},
	{"SettlementsOverlappingSeats", testRaceSettlements},
	{"DuplicateDeliveries", testRaceDuplicateDeliveries},
	{"ContradictingEvents", testRaceContradictingEvents},
	{"HoldsAgainstCancel", testRaceHoldsAgainstCancel},
	{"LastAdmin", testRaceLastAdmin},
	{"Admit", testRaceAdmit},
	{"ClaimMail", testRaceClaimMail},
	{"Callbacks", testRaceCallbacks},
	{"AddressCap", testRaceAddressCap},
	{"Extend", testRaceExtend},
	{"Gaps", testRaceGaps},
	{"RowRush", testRaceRowRush},
	{"ShowPriceEdit", testRaceShowPriceEdit},
	{"CounterAgainstWeb", testRaceCounterAgainstWeb},
}

// raceTimeout bounds every race: a store that deadlocks fails, not hangs.
const raceTimeout = 60 * time.Second

// concurrently runs f(0) … f(n-1) in goroutines released at once.
func concurrently(n int, f func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			f(i)
		})
	}
	close(start)
	wg.Wait()
}

// attempt is one hold request of a race.
type attempt struct {
	Owner string   `json:"owner"`
	Seats []string `json:"seats"`
}

// outcome is what became of an attempt.
type outcome struct {
	attempt
	HoldID      string   `json:"holdId"`
	Won         bool     `json:"won"`
	Unavailable []string `json:"unavailable,omitempty"`
	Err         string   `json:"err,omitempty"`
	Process     int      `json:"process"`
	Start, End  int64    // wall clock, Unix nanoseconds
	// Code and Result are an admission's (runAdmissions).
	Code   string                `json:"code,omitempty"`
	Result booking.CheckinResult `json:"result,omitempty"`
	// BookingID is a sale's confirmed booking (runSales).
	BookingID string `json:"bookingId,omitempty"`
}

// runAttempts runs plan[g] in goroutine g, all goroutines released at once,
// every hold at moment m.
func runAttempts(ctx context.Context, s store, showID string, plan [][]attempt, m booking.Moment) []outcome {
	results := make([][]outcome, len(plan))
	concurrently(len(plan), func(g int) {
		for _, a := range plan[g] {
			h := newHold(showID, a.Owner, m, a.Seats...)
			o := outcome{attempt: a, HoldID: h.ID, Start: time.Now().UnixNano()}
			err := s.HoldSeats(ctx, h, m)
			o.End = time.Now().UnixNano()
			var u *booking.UnavailableError
			switch {
			case err == nil:
				o.Won = true
			case errors.As(err, &u):
				o.Unavailable = u.Seats
				if len(u.Seats) == 0 {
					o.Err = "an *UnavailableError naming no seat"
				}
			default:
				o.Err = err.Error()
			}
			results[g] = append(results[g], o)
		}
	})
	return slices.Concat(results...)
}

// planWindows makes attempts for contiguous windows of 1 to maxLen seats.
func planWindows(rng *rand.Rand, ids []string, goroutines, perGoroutine, maxLen int, owner func(g, i int) string) [][]attempt {
	plan := make([][]attempt, goroutines)
	for g := range plan {
		for i := range perGoroutine {
			n := 1 + rng.IntN(maxLen)
			start := rng.IntN(len(ids) - n + 1)
			plan[g] = append(plan[g], attempt{Owner: owner(g, i), Seats: slices.Clone(ids[start : start+n])})
		}
	}
	return plan
}

// checkRace checks the store after a race of holds at m: no attempt failed
// with an error other than unavailability; each session has at most one
// active hold and it locks all its seats; every locked seat belongs to one
// active winning hold; losers left no trace. With distinctOwners (nothing
// replaced), every winner is active and every seat a loser was refused is
// locked by a winner.
func checkRace(t *testing.T, s store, showID string, outcomes []outcome, m booking.Moment, distinctOwners bool) {
	t.Helper()
	ctx := context.Background()
	problems := 0
	report := func(format string, args ...any) {
		t.Helper()
		if problems++; problems <= 10 {
			t.Errorf(format, args...)
		}
	}
	defer func() {
		if problems > 10 {
			t.Errorf("... and %d more problems", problems-10)
		}
	}()
	var won, lost, errs int
	active := map[string]booking.Hold{} // by owner
	holds := map[string]booking.Hold{}  // winning holds by id
	for _, o := range outcomes {
		switch {
		case o.Err != "":
			errs++
			report("HoldSeats(%v) for %s in process %d: %s", o.Seats, o.Owner, o.Process, o.Err)
		case o.Won:
			won++
			h := getHold(t, s, o.HoldID)
			holds[h.ID] = h
			if diff := cmp.Diff(booking.NormalizeSeatIDs(o.Seats), h.SeatIDs); diff != "" {
				report("hold %s seats (-want +got):\n%s", h.ID, diff)
			}
			switch h.State {
			case booking.HoldActive:
				if prev, ok := active[h.Owner]; ok {
					report("session %s has two active holds: %s %v and %s %v", h.Owner, prev.ID, prev.SeatIDs, h.ID, h.SeatIDs)
				}
				active[h.Owner] = h
			case booking.HoldReplaced:
				if distinctOwners {
					report("hold %s replaced, but every attempt had its own session", h.ID)
				}
			default:
				report("winning hold %s in state %q", h.ID, h.State)
			}
		default:
			lost++
			for _, id := range o.Unavailable {
				if !slices.Contains(o.Seats, id) {
					report("HoldSeats(%v) refused naming seat %s, which it did not ask for", o.Seats, id)
				}
			}
			if _, err := s.Hold(ctx, o.HoldID); !errors.Is(err, booking.ErrHoldNotFound) {
				report("losing hold %s: Hold = %v, want ErrHoldNotFound", o.HoldID, err)
			}
		}
	}
	t.Logf("%d attempts: %d won, %d lost, %d errors; %d sessions hold seats", len(outcomes), won, lost, errs, len(active))
	if won == 0 || lost == 0 {
		report("the race had %d winners and %d losers: it proved nothing", won, lost)
	}
	for owner, h := range active {
		got, err := s.ActiveHold(ctx, showID, owner)
		if err != nil || got.ID != h.ID {
			report("ActiveHold(%s) = %s, %v; want %s", owner, got.ID, err, h.ID)
		}
	}

	// Every locked seat belongs to exactly the active hold that lists it.
	seats := getSeats(t, s, showID)
	want := map[string]seatView{}
	for _, seat := range seats {
		want[seat.ID] = free
	}
	for _, h := range active {
		for _, id := range h.SeatIDs {
			if prev := want[id]; prev.Status == booking.SeatLocked {
				report("seat %s is in two active holds: %s and %s", id, prev.HoldID, h.ID)
			}
			want[id] = lockedBy(h)
		}
	}
	got := map[string]seatView{}
	for _, seat := range seats {
		got[seat.ID] = view(seat)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		report("seats after the race (-from the winners +stored):\n%s", diff)
	}
	if distinctOwners {
		for _, o := range outcomes {
			if o.Won && holds[o.HoldID].State != booking.HoldActive {
				report("winning hold %s is %q", o.HoldID, holds[o.HoldID].State)
			}
			for _, id := range o.Unavailable {
				if got[id].Status != booking.SeatLocked {
					report("seat %s was refused to %s but is %q after the race", id, o.Owner, got[id].Status)
				}
			}
		}
	}
}

// testRaceHolds: 64 sessions race for overlapping seats.
func testRaceHolds(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	show, seats := newShow(t, s, 2, 16, later)
	rng := rand.New(rand.NewPCG(seed(t), 64))
	plan := planWindows(rng, seatIDs(seats), 64, 1, 4, func(g, _ int) string { return fmt.Sprintf("o%d", g) })
	m := at(time.Minute)
	checkRace(t, s, show.ID, runAttempts(ctx, s, show.ID, plan, m), m, true)
}

// testRaceOneSession: one session's concurrent holds for overlapping seats
// all succeed (its previous hold's seats are available to it) and leave
// exactly one active hold.
func testRaceOneSession(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	show, seats := newShow(t, s, 1, 20, later)
	ids := seatIDs(seats)
	plan := make([][]attempt, 16)
	for g := range plan {
		plan[g] = []attempt{{Owner: "o1", Seats: ids[g : g+3]}}
	}
	m := at(time.Minute)
	outcomes := runAttempts(ctx, s, show.ID, plan, m)
	var last booking.Hold
	replaced := 0
	for _, o := range outcomes {
		if !o.Won {
			t.Errorf("HoldSeats(%v) of the session's own seats: unavailable %v, error %q", o.Seats, o.Unavailable, o.Err)
			continue
		}
		switch h := getHold(t, s, o.HoldID); h.State {
		case booking.HoldActive:
			if last.ID != "" {
				t.Errorf("two active holds: %s and %s", last.ID, h.ID)
			}
			last = h
		case booking.HoldReplaced:
			replaced++
		default:
			t.Errorf("hold %s in state %q", h.ID, h.State)
		}
	}
	if last.ID == "" {
		t.Fatal("no active hold after the race")
	}
	if replaced != len(plan)-1 {
		t.Errorf("%d holds replaced, want %d", replaced, len(plan)-1)
	}
	want := map[string]seatView{}
	for _, id := range ids {
		want[id] = free
	}
	for _, id := range last.SeatIDs {
		want[id] = lockedBy(last)
	}
	checkSeats(t, s, show.ID, want)
}

// testRaceStartPayment: concurrent Pay presses create one payment.
func testRaceStartPayment(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	const n = 16
	ids := make([]booking.PaymentStart, n)
	payments := make([]booking.Payment, n)
	errs := make([]error, n)
	for i := range ids {
		ids[i] = newPaymentStart()
	}
	concurrently(n, func(i int) {
		payments[i], _, errs[i] = s.StartPayment(ctx, h.ID, "o1", ids[i], at(time.Minute))
	})
	created := 0
	for i := range n {
		if errs[i] != nil {
			t.Errorf("StartPayment %d: %v", i, errs[i])
			continue
		}
		if payments[i].ID != payments[0].ID {
			t.Errorf("StartPayment %d returned payment %s, another returned %s", i, payments[i].ID, payments[0].ID)
		}
		if _, err := s.Payment(ctx, ids[i].PaymentID); err == nil {
			created++
		}
	}
	if created != 1 {
		t.Errorf("%d payments created for one hold, want 1", created)
	}
}

// testRaceSettlements: two payments whose holds share a seat (the first
// hold's lock lapsed, the second took the seat, then lapsed too) succeed at
// once: exactly one books, the other is due a refund; no seat is in two
// bookings.
func testRaceSettlements(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	wins := [2]int{}
	for round := range 8 {
		show, _ := newShow(t, s, 1, 3, later)
		h1 := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
		p1, b1 := pay(t, s, h1, at(time.Minute))
		h2 := hold(t, s, show.ID, "o2", at(ttl+time.Minute), "A2", "A3")
		p2, b2 := pay(t, s, h2, at(ttl+2*time.Minute))
		m := at(3 * ttl) // both locks lapsed, nobody else holds the seats
		ps := []booking.Payment{p1, p2}
		bs := []booking.Booking{b1, b2}
		results := make([]booking.Settlement, 2)
		errs := make([]error, 2)
		concurrently(2, func(g int) {
			i := (g + round) % 2 // alternate which goroutine starts first
			results[i], errs[i] = s.SettlePayment(ctx, event(ps[i], booking.EventPaymentSucceeded), booking.NewTicketCode(), m)
		})
		if errs[0] != nil || errs[1] != nil {
			t.Fatalf("round %d: SettlePayment: %v; %v", round, errs[0], errs[1])
		}
		effects := []booking.Effect{results[0].Effect, results[1].Effect}
		var winner int
		switch {
		case slices.Equal(effects, []booking.Effect{booking.EffectBooked, booking.EffectRefundDue}):
			winner = 0
		case slices.Equal(effects, []booking.Effect{booking.EffectRefundDue, booking.EffectBooked}):
			winner = 1
		default:
			t.Fatalf("round %d: effects %v, want one booked and one refund_due", round, effects)
		}
		wins[winner]++
		loser := 1 - winner
		if diff := cmp.Diff([]string{"A2"}, results[loser].Conflicts); diff != "" {
			t.Errorf("round %d: loser's conflicts (-want +got):\n%s", round, diff)
		}
		bw := getBooking(t, s, bs[winner].ID)
		if bw.State != booking.BookingConfirmed {
			t.Errorf("round %d: winner's booking %q", round, bw.State)
		}
		if bl := getBooking(t, s, bs[loser].ID); bl.State != booking.BookingRefundDue {
			t.Errorf("round %d: loser's booking %q", round, bl.State)
		}
		want := map[string]seatView{"A1": free, "A2": bookedBy(bw), "A3": free}
		for _, id := range bw.SeatIDs {
			want[id] = bookedBy(bw)
		}
		checkSeats(t, s, show.ID, want)
	}
	t.Logf("first payment won %d rounds, second %d", wins[0], wins[1])
}

// testRaceDuplicateDeliveries: the provider delivers one event 20 times at
// once; it takes effect once.
func testRaceDuplicateDeliveries(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	p, _ := pay(t, s, h, at(time.Minute))
	ev := event(p, booking.EventPaymentSucceeded)
	const n = 20
	results := make([]booking.Settlement, n)
	errs := make([]error, n)
	tickets := make([]string, n)
	for i := range tickets {
		tickets[i] = booking.NewTicketCode()
	}
	concurrently(n, func(i int) {
		results[i], errs[i] = s.SettlePayment(ctx, ev, tickets[i], at(2*time.Minute))
	})
	first := -1
	for i := range n {
		switch {
		case errs[i] != nil:
			t.Errorf("delivery %d: %v", i, errs[i])
		case !results[i].Duplicate:
			if first >= 0 {
				t.Errorf("deliveries %d and %d both took effect (%s, %s)", first, i, results[first].Effect, results[i].Effect)
			}
			first = i
		}
	}
	if first < 0 {
		t.Fatal("every delivery was a duplicate: none took effect")
	}
	if results[first].Effect != booking.EffectBooked {
		t.Errorf("the delivery that counted: effect %q, want booked", results[first].Effect)
	}
	b := getBooking(t, s, p.BookingID)
	if b.State != booking.BookingConfirmed || b.TicketCode != tickets[first] {
		t.Errorf("booking %q with ticket %q, want confirmed with %q (of the delivery that counted)", b.State, b.TicketCode, tickets[first])
	}
	checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(b), "A2": bookedBy(b), "A3": free})
}

// testRaceContradictingEvents: success and failure events for one payment
// arrive at once; the first to be applied wins and the state agrees with it.
func testRaceContradictingEvents(t *testing.T, s store) {
	ctx, cancel := context.WithTimeout(context.Background(), raceTimeout)
	defer cancel()
	show, _ := newShow(t, s, 1, 3, later)
	h := hold(t, s, show.ID, "o1", at(0), "A1", "A2")
	p, _ := pay(t, s, h, at(time.Minute))
	const n = 20
	results := make([]booking.Settlement, n)
	errs := make([]error, n)
	concurrently(n, func(i int) {
		typ := booking.EventPaymentSucceeded
		if i%2 == 1 {
			typ = booking.EventPaymentFailed
		}
		results[i], errs[i] = s.SettlePayment(ctx, event(p, typ), booking.NewTicketCode(), at(2*time.Minute))
	})
	var effects []booking.Effect
	for i := range n {
		if errs[i] != nil {
			t.Errorf("event %d: %v", i, errs[i])
			continue
		}
		if results[i].Duplicate {
			t.Errorf("event %d (its own id) marked duplicate", i)
		}
		if results[i].Effect != booking.EffectIgnored {
			effects = append(effects, results[i].Effect)
		}
	}
	if len(effects) != 1 {
		t.Fatalf("effects %v: want exactly one event to take effect", effects)
	}
	b := getBooking(t, s, p.BookingID)
	stored := getPayment(t, s, p.ID)
	switch effects[0] {
	case booking.EffectBooked:
		if b.State != booking.BookingConfirmed || stored.State != booking.PaymentSucceeded {
			t.Errorf("booked, but booking %q and payment %q", b.State, stored.State)
		}
		checkSeats(t, s, show.ID, map[string]seatView{"A1": bookedBy(b), "A2": bookedBy(b), "A3": free})
	case booking.EffectReleased:
		if b.State != booking.BookingFailed || stored.State != booking.PaymentFailed {
			t.Errorf("released, but booking %q and payment %q", b.State, stored.State)
		}
		checkSeats(t, s, show.ID, map[string]seatView{"A1": free, "A2": free, "A3": free})
	default:
		t.Errorf("effect %q, want booked or released", effects[0])
	}
}
