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
	theatre := booking.Theatre{ID: booking.NewID(), Name: "Synthetic Multiplex", City: "Pune", TimeZone: SyntheticZone, Currency: "INR"}
	movie := booking.Movie{ID: booking.NewID(), Title: "Load Test", Rating: "U", RuntimeMin: 120, Language: "Hindi"}
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
