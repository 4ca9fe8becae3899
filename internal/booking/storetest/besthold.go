package storetest

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"boxoffice/internal/booking"
)

// bestHoldTests: the one-step best hold of SPEC §18 chooses its block inside
// the store's step, on the seats as they are then.
var bestHoldTests = []test{
	{"TakesTheBestBlock", testBestHoldTakesTheBestBlock},
	{"PreviousHoldCountsAsFree", testBestHoldPreviousCountsFree},
	{"NoBlock", testBestHoldNoBlock},
	{"UnknownCategory", testBestHoldUnknownCategory},
	{"PartiesAtOnce", testBestHoldPartiesAtOnce},
}

// bestHold asks for the best block for party seats for owner at m.
func bestHold(s store, showID, owner string, m booking.Moment, r booking.BestRequest) (booking.Hold, error) {
	h := booking.Hold{ID: booking.NewHoldID(m.Now), ShowID: showID, Owner: owner}
	return s.HoldBest(context.Background(), h, r, m)
}

// wantBlock is the block booking.BestBlock chooses on the show's seats as
// stored, free by the seat rule at m.
func wantBlock(t *testing.T, s store, showID string, r booking.BestRequest, m booking.Moment) []string {
	t.Helper()
	b, ok := booking.BestBlock(getSeats(t, s, showID), r, func(st booking.Seat) bool { return st.AvailableAt(m) })
	if !ok {
		t.Fatal("no block to expect")
	}
	return booking.NormalizeSeatIDs(b.IDs())
}

func testBestHoldTakesTheBestBlock(t *testing.T, s store) {
	show, _ := newShow(t, s, 5, 8, later)
	hold(t, s, show.ID, "o0", at(0), "D3", "D4") // the middle of the best row goes first
	r := booking.BestRequest{Party: 3}
	m := at(time.Minute)
	want := wantBlock(t, s, show.ID, r, m)
	h, err := bestHold(s, show.ID, "o1", m, r)
	if err != nil {
		t.Fatalf("best hold: %v", err)
	}
	if !slices.Equal(h.SeatIDs, want) {
		t.Errorf("best hold took %v, want %v", h.SeatIDs, want)
	}
	stored := getHold(t, s, h.ID)
	if !slices.Equal(stored.SeatIDs, want) || stored.Amount != 3*classicPrice || !stored.CreatedAt.Equal(m.Now) {
		t.Errorf("stored hold %+v", stored)
	}
	views := map[string]seatView{}
	for _, id := range want {
		views[id] = lockedBy(stored)
	}
	checkSeats(t, s, show.ID, views)
}

// testBestHoldPreviousCountsFree: the session's previous hold's seats are
// free to its next best hold, which replaces it.
func testBestHoldPreviousCountsFree(t *testing.T, s store) {
	show, _ := newShow(t, s, 5, 8, later)
	r := booking.BestRequest{Party: 2}
	first, err := bestHold(s, show.ID, "o1", at(0), r)
	if err != nil {
		t.Fatal(err)
	}
	again, err := bestHold(s, show.ID, "o1", at(time.Minute), r)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first.SeatIDs, again.SeatIDs) {
		t.Errorf("asking again took %v, want the same best block %v", again.SeatIDs, first.SeatIDs)
	}
	if got := getHold(t, s, first.ID).State; got != booking.HoldReplaced {
		t.Errorf("the first hold: %s, want replaced", got)
	}
}

func testBestHoldNoBlock(t *testing.T, s store) {
	show, _ := newShow(t, s, 1, 6, later) // A1-A3 | A4-A6
	hold(t, s, show.ID, "o0", at(0), "A2", "A5")
	m := at(time.Minute)
	_, err := bestHold(s, show.ID, "o1", m, booking.BestRequest{Party: 2})
	if !errors.Is(err, booking.ErrNoBlock) {
		t.Fatalf("best hold of 2 with no two together free = %v, want ErrNoBlock", err)
	}
	if got := availableIDs(t, s, show.ID, m); len(got) != 4 {
		t.Errorf("%d seats available after the refused hold, want 4", len(got))
	}
}

func testBestHoldUnknownCategory(t *testing.T, s store) {
	show, _ := newShow(t, s, 2, 6, later)
	_, err := bestHold(s, show.ID, "o1", at(0), booking.BestRequest{Party: 2, Category: "Balcony"})
	if booking.ErrorCode(err) != booking.EINVALID {
		t.Errorf("best hold in an unknown category = %v, want EINVALID", err)
	}
	if _, err := bestHold(s, show.ID, "o1", at(0), booking.BestRequest{Party: 2, Category: "Prime"}); err != nil {
		t.Errorf("best hold in Prime: %v", err)
	}
}

// testBestHoldPartiesAtOnce: parties asking at once never get the same
// block, and none is refused while a block for it is free: with room for
// nine pairs (A1 is a wheelchair space, kept for wheelchair users), of
// sixteen parties nine get a pair each and seven are told no block is
// left.
func testBestHoldPartiesAtOnce(t *testing.T, s store) {
	show, _ := newShow(t, s, 5, 4, later) // five rows of A1-A2 | A3-A4
	m := at(time.Minute)
	const parties = 16
	holds := make([]booking.Hold, parties)
	errs := make([]error, parties)
	var wg sync.WaitGroup
	for i := range parties {
		wg.Go(func() {
			holds[i], errs[i] = bestHold(s, show.ID, "p"+strconv.Itoa(i), m, booking.BestRequest{Party: 2})
		})
	}
	wg.Wait()
	taken := map[string]string{}
	held, refused := 0, 0
	for i := range parties {
		switch {
		case errs[i] == nil:
			held++
			for _, id := range holds[i].SeatIDs {
				if other, ok := taken[id]; ok {
					t.Errorf("seat %s held by %s and %s", id, other, holds[i].ID)
				}
				taken[id] = holds[i].ID
			}
		case errors.Is(errs[i], booking.ErrNoBlock):
			refused++
		default:
			t.Errorf("party %d: %v", i, errs[i])
		}
	}
	if held != 9 || refused != 7 {
		t.Errorf("%d parties held and %d were refused, want 9 and 7", held, refused)
	}
	if got := availableIDs(t, s, show.ID, m); !slices.Equal(got, []string{"A1", "A2"}) {
		t.Errorf("seats %v left available, want the wheelchair space A1 and A2", got)
	}
}
