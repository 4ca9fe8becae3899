package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// reportTests are the film report's read (SPEC §17, FilmReportReader):
// the films at each theatre with a show not cancelled in the range, all
// their shows through its end, each with the sums of its confirmed
// bookings only; and the sales report's (SalesReportReader).
var reportTests = []test{
	{"FilmShows", testFilmShows},
	{"BookingSums", testBookingSums},
	{"CounterSale", testReportCounterSale},
	{"ConfirmedAt", testConfirmedAt},
	{"SalesBookings", testSalesBookings},
}

// filmShow makes a show of movie on sc at start, a time in the theatre's
// zone, priced from the card.
func filmShow(t *testing.T, s store, th booking.Theatre, sc booking.Screen, m booking.Movie, start, cardID string) booking.Show {
	t.Helper()
	show, seats, err := booking.PlanShow(booking.NewID(), m, th, sc, start, map[string]string{"Classic": "1", "Prime": "1"}, base)
	if err != nil {
		t.Fatal(err)
	}
	out, err := booking.CreateCardShowStep(context.Background(), s.Store, time.Now, show, seats, nil, cardID)
	if err != nil {
		t.Fatalf("CreateCardShowStep: %v", err)
	}
	return out
}

// typedBook holds seats for owner, pays for them as choice says and
// settles the payment at m.
func typedBook(t *testing.T, s store, showID, owner string, m booking.Moment, choice booking.TypeChoice, seats ...string) booking.Booking {
	t.Helper()
	h := hold(t, s, showID, owner, m, seats...)
	out, err := s.StartTypedPayment(context.Background(), h.ID, owner, typedStart(choice), m)
	if err != nil {
		t.Fatalf("StartTypedPayment: %v", err)
	}
	if st := settle(t, s, event(out.Payment, booking.EventPaymentSucceeded), booking.NewTicketCode(), m); st.Effect != booking.EffectBooked {
		t.Fatalf("settle: effect %q", st.Effect)
	}
	return getBooking(t, s, out.Booking.ID)
}

func saveMovie(t *testing.T, s store, title string, rent []int) booking.Movie {
	t.Helper()
	m := booking.Movie{ID: booking.NewID(), Title: title, RuntimeMin: 120}
	if err := booking.SaveMovieRentStep(context.Background(), s.Store, time.Now, m, rent); err != nil {
		t.Fatal(err)
	}
	m.Rent = booking.FormatRent(rent)
	return m
}

func testFilmShows(t *testing.T, s store) {
	ctx := context.Background()
	th, sc := typesTheatre(t, s) // Asia/Kolkata
	if err := booking.SetTheatreTaxRateStep(ctx, s.Store, time.Now, th.ID, booking.TaxRates{Rate: 1800}); err != nil {
		t.Fatal(err)
	}
	card := saveCard(t, s, th, fullCard)
	film := saveMovie(t, s, "Counted", []int{50, 45, 40})
	elsewhere := saveMovie(t, s, "Not this week", nil)
	gone := saveMovie(t, s, "Cancelled this week", nil)

	// The range: the week of Friday 2026-05-01 in Kolkata.
	loc, _ := time.LoadLocation("Asia/Kolkata")
	from, to := time.Date(2026, 5, 1, 0, 0, 0, 0, loc), time.Date(2026, 5, 8, 0, 0, 0, 0, loc)

	before := filmShow(t, s, th, sc, film, "2026-04-24T19:00", card.ID) // the week before: to date
	first := filmShow(t, s, th, sc, film, "2026-05-01T00:00", card.ID)  // the range's first instant
	cancelled := filmShow(t, s, th, sc, film, "2026-05-03T19:00", card.ID)
	pending := filmShow(t, s, th, sc, film, "2026-05-07T23:59", card.ID)
	filmShow(t, s, th, sc, film, "2026-05-08T00:00", card.ID) // the range's end: not read
	filmShow(t, s, th, sc, elsewhere, "2026-04-24T19:00", card.ID)
	goneShow := filmShow(t, s, th, sc, gone, "2026-05-02T19:00", card.ID)

	typedBook(t, s, before.ID, "o0", at(0), booking.TypeChoice{"A1": "adult"}, "A1")
	typedBook(t, s, first.ID, "o1", at(0), booking.TypeChoice{"A1": "child", "B1": "adult"}, "A1", "B1")
	refundDue(t, s, first.ID, "A2", "B2", time.Minute) // due a refund: not counted
	typedBook(t, s, cancelled.ID, "o2", at(0), booking.TypeChoice{"A1": "adult"}, "A1")
	typedBook(t, s, goneShow.ID, "o3", at(0), booking.TypeChoice{"A1": "adult"}, "A1")
	for _, id := range []string{cancelled.ID, goneShow.ID} {
		if _, _, err := booking.CancelShowSteps(ctx, s.Store, at(time.Hour).Clock(), id, 10); err != nil {
			t.Fatalf("CancelShowSteps: %v", err)
		}
	}
	h := hold(t, s, pending.ID, "o4", at(2*time.Hour), "A1")
	pay(t, s, h, at(2*time.Hour)) // pending: not counted

	got, err := s.FilmShows(ctx, from, to)
	if err != nil {
		t.Fatalf("FilmShows: %v", err)
	}
	slices.SortFunc(got, func(a, b booking.ShowSales) int { return a.StartsAt.Compare(b.StartsAt) })
	row := func(show booking.Show, cancelled bool, sums booking.TicketSums) booking.ShowSales {
		return booking.ShowSales{
			ShowID: show.ID, MovieID: film.ID, Title: film.Title, Rent: "50,45,40", TheatreID: th.ID, Theatre: th.Name,
			TimeZone: "Asia/Kolkata", Currency: currency, StartsAt: show.StartsAt, Cancelled: cancelled, Sums: sums,
		}
	}
	want := []booking.ShowSales{
		row(before, false, booking.TicketSums{Admissions: 1, Gross: 200_00, Tax: 30_51}), // 20000 × 18/118 = 3050.8
		row(first, false, booking.TicketSums{Admissions: 2, Gross: 400_00, Tax: 15_25 + 45_76}),
		row(cancelled, true, booking.TicketSums{}),
		row(pending, false, booking.TicketSums{}),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FilmShows (-want +got):\n%s", diff)
	}

	none, err := s.FilmShows(ctx, to.AddDate(1, 0, 0), to.AddDate(1, 0, 7))
	if err != nil || len(none) != 0 {
		t.Errorf("FilmShows of a week without shows = %+v, %v; want none", none, err)
	}
}

// testBookingSums: a booking's sums as stored are Booking.Sums of it as
// read back, whatever becomes of it.
func testBookingSums(t *testing.T, s store) {
	ctx := context.Background()
	th, sc := typesTheatre(t, s)
	if err := booking.SetTheatreTaxRateStep(ctx, s.Store, time.Now, th.ID, booking.TaxRates{Rate: 500, Above: 150_00, AboveRate: 2800}); err != nil {
		t.Fatal(err)
	}
	card := saveCard(t, s, th, fullCard)
	show := filmShow(t, s, th, sc, saveMovie(t, s, "Summed", nil), "2026-05-01T19:00", card.ID)
	b := typedBook(t, s, show.ID, "o1", at(0), booking.TypeChoice{"A1": "child", "A2": "adult", "B1": "adult"}, "A1", "A2", "B1")
	want := booking.TicketSums{Admissions: 3, Gross: 100_00 + 200_00 + 300_00,
		Tax: booking.SeatTax(100_00, 500) + booking.SeatTax(200_00, 2800) + booking.SeatTax(300_00, 2800)}
	if got := b.Sums(); got != want {
		t.Errorf("Sums of the booking read back = %+v; want %+v", got, want)
	}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	got, err := s.FilmShows(ctx, time.Date(2026, 5, 1, 0, 0, 0, 0, loc), time.Date(2026, 5, 2, 0, 0, 0, 0, loc))
	if err != nil || len(got) != 1 || got[0].Sums != want {
		t.Errorf("FilmShows = %+v, %v; want the booking's sums %+v", got, err, want)
	}
}

// testReportCounterSale: a sale at the box office fixes each seat's tax
// rate as Pay does (TaxTicketsIn), and the report counts its comp apart.
func testReportCounterSale(t *testing.T, s store) {
	ctx := context.Background()
	th, sc := typesTheatre(t, s)
	if err := booking.SetTheatreTaxRateStep(ctx, s.Store, time.Now, th.ID, booking.TaxRates{Rate: 1800}); err != nil {
		t.Fatal(err)
	}
	card := saveCard(t, s, th, fullCard)
	show := cardShow(t, s, th, sc, card.ID)
	h := counterHold(t, s, show.ID, counterAt(0), "A1", "B1")
	b := sell(t, s, newSale(h, booking.MethodCash, booking.TypeChoice{"A1": "comp", "B1": "adult"}), counterAt(time.Minute))
	for _, tk := range getBooking(t, s, b.ID).Tickets {
		if tk.TaxRate != 1800 {
			t.Errorf("seat %s sold at the counter at the rate %v; want the theatre's 18 %%", tk.SeatID, tk.TaxRate)
		}
	}
	got, err := s.FilmShows(ctx, show.StartsAt.Add(-time.Hour), show.StartsAt.Add(time.Hour))
	want := booking.TicketSums{Admissions: 1, Comps: 1, Gross: 300_00, Tax: 45_76}
	if err != nil || len(got) != 1 || got[0].Sums != want {
		t.Errorf("FilmShows = %+v, %v; want the sale counted as %+v", got, err, want)
	}
}
