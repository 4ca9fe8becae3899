package catalog

import (
	"fmt"
	"time"

	"boxoffice/internal/booking"
)

// syntheticGap spaces the shows of Synthetic so they spread over days like
// a real schedule instead of all starting at once.
const syntheticGap = 10 * time.Minute

// SyntheticZone is the time zone of the synthetic theatre.
const SyntheticZone = "Asia/Kolkata"

// DefaultSeedEvery is how far apart "boxoffice seed" starts its shows
// unless told otherwise: a screen's day of films.
const DefaultSeedEvery = 3 * time.Hour

// DefaultSeedStart is when "boxoffice seed" starts its first show unless
// told otherwise: tomorrow at 18:00 in the synthetic theatre's zone.
func DefaultSeedStart(now time.Time) time.Time {
	loc, err := time.LoadLocation(SyntheticZone)
	if err != nil {
		loc = ist
	}
	t := now.In(loc)
	return time.Date(t.Year(), t.Month(), t.Day()+1, 18, 0, 0, 0, loc)
}

// SyntheticLayout is the plan of a synthetic rows×cols screen: Classic at
// the front, Prime in the middle, Recliner in the back third (when there are
// rows enough), and rows of more than 12 seats cut into three blocks by two
// aisles. It panics when CheckSize(rows, cols) fails.
func SyntheticLayout(rows, cols int) Layout {
	if err := CheckSize(rows, cols); err != nil {
		panic("catalog: " + err.Error())
	}
	blocks := []int{cols}
	if cols > 12 {
		side := cols / 4
		blocks = []int{side, cols - 2*side, side}
	}
	front := rows / 3
	back := rows / 3
	bands := []Band{
		{Category: "Classic", Price: classic, Rows: front, Blocks: blocks},
		{Category: "Prime", Price: prime, Rows: rows - front - back, Blocks: blocks},
		{Category: "Recliner", Price: recliner, Rows: back, Blocks: blocks},
	}
	var nonEmpty []Band
	for _, b := range bands {
		if b.Rows > 0 {
			nonEmpty = append(nonEmpty, b)
		}
	}
	return Layout{Bands: nonEmpty}
}

// Synthetic returns n shows of rows×cols seats each, for load tests: one
// theatre and film, starting at start and then every ten minutes. It panics
// when CheckSize(rows, cols) fails. For millions of seats, build them show by
// show from SyntheticShows and SyntheticLayout instead, as "boxoffice seed"
// does, so they need not all be in memory at once.
func Synthetic(n, rows, cols int, start time.Time) []ShowSeats {
	seats := SyntheticLayout(rows, cols).Seats()
	shows := SyntheticShows(n, start, syntheticGap)
	out := make([]ShowSeats, n)
	for i, show := range shows {
		out[i] = ShowSeats{Show: show, Seats: ForShow(seats, show.ID)}
	}
	return out
}

// SyntheticShows returns n shows of one theatre and film, the first at start
// and the others every after it, without their seats.
func SyntheticShows(n int, start time.Time, every time.Duration) []booking.Show {
	return SyntheticShowsOf(SyntheticTheatre(), SyntheticMovie(), n, start, every)
}

// SyntheticTheatre is a new synthetic theatre, in SyntheticZone.
func SyntheticTheatre() booking.Theatre {
	return booking.Theatre{ID: booking.NewID(), Name: "Synthetic Multiplex", City: "Pune", TimeZone: SyntheticZone, Currency: "INR"}
}

// SyntheticMovie is a new synthetic movie.
func SyntheticMovie() booking.Movie {
	return booking.Movie{ID: booking.NewID(), Title: "Load Test", Rating: "U", RuntimeMin: 120, Language: "Hindi"}
}

// SyntheticShowsOf returns n shows of movie at theatre, the first at start
// and the others every after it, without their seats.
func SyntheticShowsOf(theatre booking.Theatre, movie booking.Movie, n int, start time.Time, every time.Duration) []booking.Show {
	shows := make([]booking.Show, n)
	for i := range shows {
		shows[i] = booking.Show{
			ID: booking.NewID(), Movie: movie, Theatre: theatre,
			Screen:   fmt.Sprintf("Screen %d", i%8+1),
			StartsAt: start.Add(time.Duration(i) * every).UTC(),
			Currency: theatre.Currency,
		}
	}
	return shows
}

// SyntheticTypes are the ticket types of "boxoffice seed"'s theatre, in
// order (SPEC §20): adult, child (accompanied, under 12), senior (door
// check), each sold online and at the box office, and comp (box office
// only).
func SyntheticTypes() []booking.TicketType {
	return []booking.TicketType{
		{ID: "adult", Name: "Adult", Online: true, BoxOffice: true},
		{ID: "child", Name: "Child", Note: "under 12", Accompanied: true, Online: true, BoxOffice: true},
		{ID: "senior", Name: "Senior", DoorCheck: true, Online: true, BoxOffice: true},
		{ID: "comp", Name: "Complimentary", BoxOffice: true},
	}
}

// SyntheticPrices is the price table of a seeded show whose categories
// are cats, each at its price (SPEC §20): adult the category's price,
// child half of it, senior 70 % of it, both rounded half up, comp 0.
func SyntheticPrices(cats []booking.Category) booking.ShowPrices {
	p := booking.ShowPrices{Types: SyntheticTypes()}
	for _, c := range cats {
		p.Cells = append(p.Cells,
			booking.PriceCell{Category: c.Name, Type: "adult", Price: c.Price},
			booking.PriceCell{Category: c.Name, Type: "child", Price: booking.HalfUp(c.Price, 1, 2)},
			booking.PriceCell{Category: c.Name, Type: "senior", Price: booking.HalfUp(c.Price, 7, 10)},
			booking.PriceCell{Category: c.Name, Type: "comp", Price: 0},
		)
	}
	return p
}
