package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// seatPricingTests are Store.SeatPricing, what the checkout, the
// provider's line items and the box office's sale form read of a hold's
// seats and its show's table, and the Service reading it instead of the
// show's every seat.
var seatPricingTests = []test{
	{"ReadsTheSeatsAsked", testSeatPricingSeats},
	{"ShowWithoutTable", testSeatPricingStandard},
	{"CheckoutReadsTheHoldsSeats", testCheckoutReadsHeldSeats},
}

// pricingOf is what SeatPricing promises of a seat.
func pricingOf(seats []booking.Seat) []booking.Seat {
	out := make([]booking.Seat, len(seats))
	for i, s := range seats {
		out[i] = booking.Seat{ShowID: s.ShowID, ID: s.ID, GridRow: s.GridRow, GridCol: s.GridCol, Category: s.Category, Price: s.Price}
	}
	return out
}

// seatsNamed are those of seats whose ids are ids, in seats' order.
func seatsNamed(seats []booking.Seat, ids ...string) []booking.Seat {
	var out []booking.Seat
	for _, s := range seats {
		for _, id := range ids {
			if s.ID == id {
				out = append(out, s)
			}
		}
	}
	return out
}

func testSeatPricingSeats(t *testing.T, s store) {
	ctx := context.Background()
	h := typedHold(t, s)
	all := getSeats(t, s, h.ShowID) // map order
	// Asked out of map order, with an id the show does not have.
	seats, stored, err := s.Store.SeatPricing(ctx, h.ShowID, []string{"B1", "Z9", "A1"})
	if err != nil {
		t.Fatalf("SeatPricing: %v", err)
	}
	if diff := cmp.Diff(pricingOf(seatsNamed(all, "A1", "B1")), pricingOf(seats)); diff != "" {
		t.Errorf("SeatPricing's seats, in map order (-want +got):\n%s", diff)
	}
	if len(seats) == 2 && (seats[0].Category != "Classic" || seats[0].Price != 200_00 || seats[1].Category != "Prime" || seats[1].Price != 300_00) {
		t.Errorf("SeatPricing's seats = %+v; want A1 Classic at 20000, B1 Prime at 30000", seats)
	}
	same(t, "SeatPricing's table", showPrices(t, s, h.ShowID), stored)
	if !stored.Stored() {
		t.Errorf("SeatPricing's table of a show made with a card is not stored: %+v", stored)
	}
	// No seat asked, or none the show has: no seat, the table all the same.
	for _, ids := range [][]string{nil, {"Z9"}} {
		seats, stored, err := s.Store.SeatPricing(ctx, h.ShowID, ids)
		if err != nil || len(seats) != 0 || !stored.Stored() {
			t.Errorf("SeatPricing(%v) = %+v, %+v, %v; want no seat and the table", ids, seats, stored, err)
		}
	}
	for _, ids := range [][]string{nil, {"A1"}} {
		if _, _, err := s.Store.SeatPricing(ctx, "nope", ids); !errors.Is(err, booking.ErrShowNotFound) {
			t.Errorf("SeatPricing of no show, seats %v: %v; want ErrShowNotFound", ids, err)
		}
	}
}

// testSeatPricingStandard: a show made without a table answers none, and
// its seats' prices are their categories'.
func testSeatPricingStandard(t *testing.T, s store) {
	show, _ := newShow(t, s, 2, 2, later)
	want := seatsNamed(getSeats(t, s, show.ID), "A2", "B1")
	seats, stored, err := s.Store.SeatPricing(context.Background(), show.ID, []string{"B1", "A2"})
	if err != nil || stored.Stored() {
		t.Fatalf("SeatPricing = %+v, %v; want no stored table", stored, err)
	}
	if diff := cmp.Diff(pricingOf(want), pricingOf(seats)); diff != "" {
		t.Errorf("SeatPricing's seats (-want +got):\n%s", diff)
	}
	same(t, "what the seats sell at", standardTable(classicPrice, primePrice), booking.ShowPricesOf(stored, booking.Categories(seats)))
}

// wholeShowReads is the store, counting the reads of a show's every seat
// outside a step: what the checkout and Pay no longer make.
type wholeShowReads struct {
	booking.Store
	mu    sync.Mutex
	reads []string
}

func (w *wholeShowReads) count(what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reads = append(w.reads, what)
}

func (w *wholeShowReads) Seats(ctx context.Context, showID string) ([]booking.Seat, error) {
	w.count("Seats")
	return w.Store.Seats(ctx, showID)
}

func (w *wholeShowReads) ShowPricing(ctx context.Context, showID string) ([]booking.Seat, booking.ShowPrices, []booking.TicketType, error) {
	w.count("ShowPricing")
	return w.Store.ShowPricing(ctx, showID)
}

func (w *wholeShowReads) ShowSeats(ctx context.Context, showID, viewer string) (booking.ShowSeats, error) {
	w.count("ShowSeats")
	return w.Store.ShowSeats(ctx, showID, viewer)
}

// testCheckoutReadsHeldSeats: the checkout's prices and, after Pay, the
// provider's line items are those of the hold's seats as the Pay step
// priced them, read without reading the show's every seat.
func testCheckoutReadsHeldSeats(t *testing.T, s store) {
	ctx := context.Background()
	h := typedHold(t, s)
	w := &wholeShowReads{Store: s.Store}
	svc := booking.NewService(w, booking.NewManualClock(base.Add(time.Minute)), booking.Policy{HoldTTL: ttl, AllowGaps: true})

	seats, prices, err := svc.CheckoutPrices(ctx, h)
	if err != nil {
		t.Fatalf("CheckoutPrices: %v", err)
	}
	if len(seats) != 2 || seats[0].ID != "A1" || seats[0].Category != "Classic" || seats[1].ID != "B1" || seats[1].Category != "Prime" {
		t.Errorf("CheckoutPrices' seats = %+v; want A1 Classic and B1 Prime", seats)
	}
	same(t, "CheckoutPrices' table", showPrices(t, s, h.ShowID), prices)

	out, err := svc.StartTypedPayment(ctx, h.ID, "o1", "a@example.com", booking.TypeChoice{"A1": "child"})
	if err != nil {
		t.Fatalf("StartTypedPayment: %v", err)
	}
	show, lines, err := svc.Checkout(ctx, out.Payment)
	if err != nil {
		t.Fatalf("Checkout: %v", err)
	}
	want := []booking.LineItem{
		{Name: show.Movie.Title + " — Classic seat, Child", UnitPrice: 100_00, Quantity: 1},
		{Name: show.Movie.Title + " — Prime seat, Adult", UnitPrice: 300_00, Quantity: 1},
	}
	if diff := cmp.Diff(want, lines); show.ID != h.ShowID || diff != "" {
		t.Errorf("Checkout's show %s (want %s), line items (-want +got):\n%s", show.ID, h.ShowID, diff)
	}
	if len(w.reads) > 0 {
		t.Errorf("the checkout's prices, Pay and its line items read the show's every seat: %v", w.reads)
	}
}
