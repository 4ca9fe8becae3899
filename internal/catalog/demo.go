package catalog

import (
	"slices"
	"strings"
	"time"

	"boxoffice/internal/booking"
)

// Prices in paise.
const (
	classic  booking.Money = 180_00
	prime    booking.Money = 250_00
	recliner booking.Money = 450_00
)

// The demo's screens. Each has its own plan so the seat map can be seen with
// different widths, aisles and bands.
var (
	// grandAudi is a large hall: two side blocks and a wide centre, 194 seats.
	grandAudi = Layout{
		Bands: []Band{
			{Category: "Classic", Price: classic, Rows: 3, Blocks: []int{4, 12, 4}},
			{Category: "Prime", Price: prime, Rows: 5, Blocks: []int{4, 14, 4}},
			{Category: "Recliner", Price: recliner, Rows: 2, Blocks: []int{6, 6}},
		},
		AccessibleRow: 3, AccessiblePairs: 2, // first Prime row, off the cross-aisle
	}
	// studio is a small screen with one centre aisle, 132 seats.
	studio = Layout{
		Bands: []Band{
			{Category: "Classic", Price: classic, Rows: 2, Blocks: []int{7, 7}},
			{Category: "Prime", Price: prime, Rows: 6, Blocks: []int{8, 8}},
			{Category: "Recliner", Price: recliner, Rows: 1, Blocks: []int{4, 4}},
		},
		AccessibleRow: 2, AccessiblePairs: 1,
	}
	// stadium is a wide raked hall with three blocks throughout, 248 seats.
	stadium = Layout{
		Bands: []Band{
			{Category: "Classic", Price: classic, Rows: 4, Blocks: []int{5, 14, 5}},
			{Category: "Prime", Price: prime, Rows: 5, Blocks: []int{5, 14, 5}},
			{Category: "Recliner", Price: recliner, Rows: 2, Blocks: []int{4, 8, 4}},
		},
		AccessibleRow: 4, AccessiblePairs: 2,
	}
	// boutique is mostly recliners: a premium screen, 124 seats.
	boutique = Layout{
		Bands: []Band{
			{Category: "Prime", Price: prime, Rows: 4, Blocks: []int{3, 10, 3}},
			{Category: "Recliner", Price: recliner, Rows: 6, Blocks: []int{5, 5}},
		},
		AccessibleRow: 0, AccessiblePairs: 2,
	}
)

// ist is India Standard Time, fixed so the demo needs no time zone database.
var ist = time.FixedZone("IST", 5*3600+30*60)

// slot is a start time of day, local to the theatre.
type slot struct{ hour, minute int }

var (
	// morningSlots and staggeredSlots leave every screen at least 3h15m
	// between starts, enough for the longest demo film and the cleaning.
	morningSlots   = []slot{{10, 30}, {13, 45}, {17, 0}, {20, 15}}
	staggeredSlots = []slot{{11, 15}, {14, 30}, {18, 45}, {22, 30}}
)

type demoScreen struct {
	name   string
	layout Layout
	slots  []slot
}

type demoTheatre struct {
	name, city string
	screens    []demoScreen
}

var demoTheatres = []demoTheatre{
	{name: "Kohinoor Picture Palace", city: "Mumbai", screens: []demoScreen{
		{name: "Audi 1", layout: grandAudi, slots: morningSlots},
		{name: "Audi 2", layout: studio, slots: staggeredSlots},
	}},
	{name: "Meenakshi Talkies", city: "Chennai", screens: []demoScreen{
		{name: "Screen 1", layout: stadium, slots: morningSlots},
		{name: "Screen 2", layout: boutique, slots: staggeredSlots},
	}},
	{name: "Lalbagh Cinemas", city: "Bengaluru", screens: []demoScreen{
		{name: "Audi 1", layout: studio, slots: staggeredSlots},
		{name: "Audi 2", layout: grandAudi, slots: morningSlots},
	}},
}

var demoMovies = []booking.Movie{
	{Title: "Monsoon Express", Rating: "UA 13+", RuntimeMin: 148, Language: "Hindi"},
	{Title: "Kaveri Nights", Rating: "UA 16+", RuntimeMin: 156, Language: "Tamil"},
	{Title: "The Tiffin Carrier", Rating: "U", RuntimeMin: 112, Language: "English"},
	{Title: "Rakta Rekha", Rating: "A", RuntimeMin: 171, Language: "Telugu"},
	{Title: "Pani Puri Diaries", Rating: "U", RuntimeMin: 124, Language: "Hindi"},
}

// DemoDays is how far ahead the demo schedule runs.
const DemoDays = 7

// DemoZone is the demo theatres' time zone.
const DemoZone = "Asia/Kolkata"

// DemoCatalog is the demo: its theatres, screens and movies, which an
// admin finds in the catalog, and its shows with their seats.
type DemoCatalog struct {
	Theatres []booking.Theatre
	Screens  []booking.Screen
	Movies   []booking.Movie
	// Types are every demo theatre's ticket types (DemoTypes), Cards
	// each theatre's price card, which its shows are made with.
	Types []booking.TicketType
	Cards []booking.PriceCard
	Shows []ShowSeats
}

// DemoTypes are the demo theatres' ticket types (SPEC §15): adult, child
// (accompanied, under 12) and senior (door check), each sold online and
// at the box office.
func DemoTypes() []booking.TicketType {
	return []booking.TicketType{
		{ID: "adult", Name: "Adult", Online: true, BoxOffice: true},
		{ID: "child", Name: "Child", Note: "under 12", Accompanied: true, Online: true, BoxOffice: true},
		{ID: "senior", Name: "Senior", Note: "60 and over", DoorCheck: true, Online: true, BoxOffice: true},
	}
}

// demoCardCells prices each of categories (with its price) for the demo's
// types: an adult pays the category's price, a child 60 % and a senior
// 70 % of it, rounded half up to whole tens of rupees.
func demoCardCells(cats []booking.Category) booking.PriceTable {
	tens := func(m booking.Money, pct int64) booking.Money { return booking.HalfUp(m, pct, 100*10_00) * 10_00 }
	var out booking.PriceTable
	for _, c := range cats {
		out = append(out,
			booking.PriceCell{Category: c.Name, Type: "adult", Price: c.Price},
			booking.PriceCell{Category: c.Name, Type: "child", Price: tens(c.Price, 60)},
			booking.PriceCell{Category: c.Name, Type: "senior", Price: tens(c.Price, 70)},
		)
	}
	return out
}

// Demo returns a small, realistic catalog: three theatres in Indian cities,
// five films, two screens each with its own seat plan, and every show that
// starts after now and within the next DemoDays days (IST times, stored in
// UTC). Every id is derived from what it names (demo-…, a show's from its
// screen, day and time), so that Demo on any day, in any process, names
// the same things alike: storing them again finds them there already.
func Demo(now time.Time) DemoCatalog {
	var out DemoCatalog
	movies := make([]booking.Movie, len(demoMovies))
	for i, m := range demoMovies {
		m.ID = "demo-" + slug(m.Title)
		movies[i] = m
	}
	out.Movies = movies
	out.Types = DemoTypes()
	end := now.Add(DemoDays * 24 * time.Hour)
	today := now.In(ist)
	for ti, dt := range demoTheatres {
		theatre := booking.Theatre{ID: "demo-" + slug(dt.name), Name: dt.name, City: dt.city, TimeZone: DemoZone, Currency: "INR"}
		out.Theatres = append(out.Theatres, theatre)
		card := booking.PriceCard{ID: theatre.ID + "-standard", TheatreID: theatre.ID, Name: "Standard"}
		var cats []booking.Category
		for _, screen := range dt.screens {
			for _, c := range booking.Categories(screen.layout.Seats()) {
				if !slices.ContainsFunc(cats, func(x booking.Category) bool { return x.Name == c.Name }) {
					cats = append(cats, c)
				}
			}
		}
		card.Cells = demoCardCells(cats)
		out.Cards = append(out.Cards, card)
		for si, screen := range dt.screens {
			seats := screen.layout.Seats()
			sc := booking.Screen{ID: theatre.ID + "-" + slug(screen.name), TheatreID: theatre.ID, Name: screen.name}
			if l, err := booking.LayoutOf(seats); err == nil {
				sc.Layout = l.Text()
			}
			out.Screens = append(out.Screens, sc)
			for day := 0; day <= DemoDays; day++ {
				date := time.Date(today.Year(), today.Month(), today.Day()+day, 0, 0, 0, 0, ist)
				dayNumber := int(date.Unix() / 86400)
				for k, sl := range screen.slots {
					startsAt := time.Date(date.Year(), date.Month(), date.Day(), sl.hour, sl.minute, 0, 0, ist)
					if !startsAt.After(now) || startsAt.After(end) {
						continue
					}
					// Rotate films across screens, slots and days, so each
					// theatre shows several and each film plays in every
					// city; by the calendar day, so that any day's Demo
					// agrees on every date.
					movie := movies[(2*ti+si+k+dayNumber)%len(movies)]
					show := booking.Show{
						ID:    sc.ID + "-" + startsAt.Format("20060102-1504"),
						Movie: movie, Theatre: theatre, Screen: screen.name, ScreenID: sc.ID,
						StartsAt: startsAt.UTC(), Currency: theatre.Currency,
					}
					out.Shows = append(out.Shows, ShowSeats{Show: show, Seats: ForShow(seats, show.ID), CardID: card.ID})
				}
			}
		}
	}
	return out
}

// slug is s in lower case, letters and digits, words joined by '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
	}
	return b.String()
}
