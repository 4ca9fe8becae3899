package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

func TestRowLabel(t *testing.T) {
	tests := []struct {
		row  int
		want string
	}{{0, "A"}, {1, "B"}, {25, "Z"}, {26, "AA"}, {27, "AB"}, {51, "AZ"}, {52, "BA"}, {MaxRows - 1, "ZZ"}}
	for _, tt := range tests {
		if got := RowLabel(tt.row); got != tt.want {
			t.Errorf("RowLabel(%d) = %q, want %q", tt.row, got, tt.want)
		}
	}
	seen := map[string]bool{}
	for i := range MaxRows {
		l := RowLabel(i)
		if seen[l] {
			t.Fatalf("RowLabel(%d) = %q repeats", i, l)
		}
		seen[l] = true
	}
}

func TestLayoutSeats(t *testing.T) {
	l := Layout{
		Bands: []Band{
			{Category: "Classic", Price: 100, Rows: 1, Blocks: []int{2, 3}},
			{Category: "Recliner", Price: 300, Rows: 1, Blocks: []int{1, 1}},
		},
		AccessibleRow: 0, AccessiblePairs: 1,
	}
	type place struct {
		ID           string
		GridRow, Col int
		Category     string
		Kind         booking.SeatKind
	}
	var got []place
	for _, s := range l.Seats() {
		got = append(got, place{s.ID, s.GridRow, s.GridCol, s.Category, s.Kind})
	}
	want := []place{
		{"A1", 0, 0, "Classic", booking.KindWheelchair},
		{"A2", 0, 1, "Classic", booking.KindCompanion},
		// aisle at column 2: numbers go on, the column jumps
		{"A3", 0, 3, "Classic", booking.KindStandard},
		{"A4", 0, 4, "Classic", booking.KindStandard},
		{"A5", 0, 5, "Classic", booking.KindStandard},
		// cross-aisle at grid row 1; the narrow row is centred
		{"B1", 2, 1, "Recliner", booking.KindStandard},
		{"B2", 2, 3, "Recliner", booking.KindStandard},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Seats (-want +got):\n%s", diff)
	}
}

// checkSeats checks what every show's seats must satisfy for the store and
// the seat map.
func checkSeats(t *testing.T, show booking.Show, seats []booking.Seat) {
	t.Helper()
	if len(seats) == 0 {
		t.Fatalf("show %s has no seats", show.ID)
	}
	ids := map[string]bool{}
	places := map[[2]int]bool{}
	lastNumber := map[string]int{}
	lastCol := map[string]int{}
	var lastPrice booking.Money
	lastRow := -1
	for _, s := range seats {
		if !booking.ValidSeatID(s.ID) {
			t.Errorf("seat id %q is not valid", s.ID)
		}
		if s.ID != fmt.Sprintf("%s%d", s.Row, s.Number) {
			t.Errorf("seat %q has row %q number %d", s.ID, s.Row, s.Number)
		}
		if ids[s.ID] {
			t.Errorf("seat %s appears twice", s.ID)
		}
		ids[s.ID] = true
		if p := [2]int{s.GridRow, s.GridCol}; places[p] {
			t.Errorf("seat %s shares grid place %v", s.ID, p)
		} else {
			places[p] = true
		}
		if s.ShowID != show.ID || s.Status != booking.SeatAvailable || s.Kind == "" || s.Category == "" || s.Price <= 0 {
			t.Errorf("seat %+v is not a fresh seat of show %s", s, show.ID)
		}
		// Map order: by grid row, then column; rows further back never cost less.
		if s.GridRow < lastRow {
			t.Errorf("seat %s is out of map order", s.ID)
		}
		if s.GridRow > lastRow {
			if s.Price < lastPrice {
				t.Errorf("row %s costs %d, less than the row in front (%d)", s.Row, s.Price, lastPrice)
			}
			lastRow = s.GridRow
		}
		lastPrice = s.Price
		// Numbers run 1, 2, 3… left to right across aisles.
		if s.Number != lastNumber[s.Row]+1 {
			t.Errorf("seat %s follows number %d", s.ID, lastNumber[s.Row])
		}
		if n, ok := lastCol[s.Row]; ok && s.GridCol <= n {
			t.Errorf("seat %s is left of its predecessor", s.ID)
		}
		lastNumber[s.Row], lastCol[s.Row] = s.Number, s.GridCol
	}
	// Rows are lettered from A at the screen.
	var rows []string
	for _, s := range seats {
		if len(rows) == 0 || rows[len(rows)-1] != s.Row {
			rows = append(rows, s.Row)
		}
	}
	for i, r := range rows {
		if r != RowLabel(i) {
			t.Fatalf("row %d from the screen is %q, want %q", i, r, RowLabel(i))
		}
	}
}

func TestDemo(t *testing.T) {
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC) // 14:30 IST
	demo := Demo(now)
	catalog := demo.Shows

	theatres, movies, showIDs := map[string]booking.Theatre{}, map[string]booking.Movie{}, map[string]bool{}
	type screenKey struct{ theatre, screen string }
	byScreen := map[screenKey][]booking.Show{}
	for _, ss := range catalog {
		show := ss.Show
		t.Run(show.Theatre.City+"/"+show.Screen+"/"+show.StartsAt.Format(time.RFC3339), func(t *testing.T) {
			checkSeats(t, show, ss.Seats)
			if n := len(ss.Seats); n < 120 || n > 250 {
				t.Errorf("%d seats, want 120 to 250", n)
			}
			cats := booking.Categories(ss.Seats)
			if len(cats) < 2 || !slices.IsSortedFunc(cats, func(a, b booking.Category) int { return int(a.Price - b.Price) }) {
				t.Errorf("categories %v are not bands rising in price from the screen", cats)
			}
			if !hasAisle(ss.Seats) {
				t.Error("no aisle")
			}
			if !hasWheelchairPair(ss.Seats) {
				t.Error("no wheelchair space with a companion seat beside it")
			}
		})
		if showIDs[show.ID] {
			t.Errorf("show id %s repeats", show.ID)
		}
		showIDs[show.ID] = true
		if !strings.HasPrefix(show.ID, show.ScreenID+"-") || show.Movie.ID == "" || show.Theatre.ID == "" || show.Theatre.TimeZone != DemoZone {
			t.Errorf("show %+v lacks ids or its zone", show)
		}
		if show.Currency != "INR" || show.StartsAt.Location() != time.UTC {
			t.Errorf("show %s: currency %q, start %v; want INR and UTC", show.ID, show.Currency, show.StartsAt)
		}
		if !show.StartsAt.After(now) || show.StartsAt.After(now.Add(DemoDays*24*time.Hour)) {
			t.Errorf("show %s starts %v, not within the next %d days", show.ID, show.StartsAt, DemoDays)
		}
		local := show.StartsAt.In(ist)
		if !slices.Contains(append(slices.Clone(morningSlots), staggeredSlots...), slot{local.Hour(), local.Minute()}) {
			t.Errorf("show %s starts at %s IST, not a listed slot", show.ID, local.Format("15:04"))
		}
		theatres[show.Theatre.ID] = show.Theatre
		movies[show.Movie.ID] = show.Movie
		k := screenKey{show.Theatre.ID, show.Screen}
		byScreen[k] = append(byScreen[k], show)
	}
	if len(theatres) != 3 {
		t.Errorf("%d theatres, want 3", len(theatres))
	}
	if n := len(movies); n < 4 || n > 5 {
		t.Errorf("%d movies, want 4 or 5", n)
	}
	// Seven days of four slots on six screens, less those already past.
	if n := len(catalog); n < 7*24-12 || n > 7*24 {
		t.Errorf("%d shows, want %d to %d", n, 7*24-12, 7*24)
	}
	if len(demo.Theatres) != 3 || len(demo.Screens) != 6 || len(demo.Movies) != 5 {
		t.Errorf("%d theatres, %d screens, %d movies; want 3, 6, 5", len(demo.Theatres), len(demo.Screens), len(demo.Movies))
	}
	for _, sc := range demo.Screens {
		l, err := booking.ParseLayout(sc.Layout)
		if err != nil || len(l.Seats) < 120 {
			t.Errorf("screen %s: its layout text (%v) gives %d seats", sc.ID, err, len(l.Seats))
		}
	}
	// A day later, the shows of the days both cover are the same shows.
	later := map[string]booking.Show{}
	for _, ss := range Demo(now.Add(24 * time.Hour)).Shows {
		later[ss.Show.ID] = ss.Show
	}
	for _, ss := range catalog {
		if l, ok := later[ss.Show.ID]; ok && l != ss.Show {
			t.Errorf("show %s differs a day later: %+v, was %+v", ss.Show.ID, l, ss.Show)
		} else if !ok && ss.Show.StartsAt.After(now.Add(24*time.Hour)) {
			t.Errorf("show %s is gone from the next day's demo", ss.Show.ID)
		}
	}
	for k, shows := range byScreen {
		slices.SortFunc(shows, func(a, b booking.Show) int { return a.StartsAt.Compare(b.StartsAt) })
		for i := 1; i < len(shows); i++ {
			prev := shows[i-1]
			free := prev.StartsAt.Add(time.Duration(prev.Movie.RuntimeMin+15) * time.Minute)
			if shows[i].StartsAt.Before(free) {
				t.Errorf("%v: %s at %v starts before %s ends", k, shows[i].Movie.Title, shows[i].StartsAt, prev.Movie.Title)
			}
		}
	}
}

func TestDemoLateEvening(t *testing.T) {
	// At 23:50 IST nothing is left today; the next seven days still fill.
	now := time.Date(2026, 3, 10, 23, 50, 0, 0, ist)
	if n := len(Demo(now).Shows); n != 7*24 {
		t.Errorf("%d shows, want %d (seven full days)", n, 7*24)
	}
}

func hasAisle(seats []booking.Seat) bool {
	for i := 1; i < len(seats); i++ {
		if seats[i].Row == seats[i-1].Row && seats[i].GridCol > seats[i-1].GridCol+1 {
			return true
		}
	}
	return false
}

func hasWheelchairPair(seats []booking.Seat) bool {
	for i := 1; i < len(seats); i++ {
		a, b := seats[i-1], seats[i]
		if a.Row == b.Row && b.GridCol == a.GridCol+1 &&
			(a.Kind == booking.KindWheelchair && b.Kind == booking.KindCompanion ||
				a.Kind == booking.KindCompanion && b.Kind == booking.KindWheelchair) {
			return true
		}
	}
	return false
}

func TestSynthetic(t *testing.T) {
	start := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct{ shows, rows, cols int }{
		{3, 1, 1},
		{2, 20, 25},
		{1, MaxRows, 3},
		{1, 2, MaxSeatsPerRow},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%dx%dx%d", tt.shows, tt.rows, tt.cols), func(t *testing.T) {
			got := Synthetic(tt.shows, tt.rows, tt.cols, start)
			if len(got) != tt.shows {
				t.Fatalf("%d shows, want %d", len(got), tt.shows)
			}
			for i, ss := range got {
				if len(ss.Seats) != tt.rows*tt.cols {
					t.Errorf("show %d: %d seats, want %d", i, len(ss.Seats), tt.rows*tt.cols)
				}
				checkSeats(t, ss.Show, ss.Seats)
				if want := start.Add(time.Duration(i) * syntheticGap); !ss.Show.StartsAt.Equal(want) {
					t.Errorf("show %d starts %v, want %v", i, ss.Show.StartsAt, want)
				}
			}
		})
	}
}

func TestCheckSize(t *testing.T) {
	for _, ok := range [][2]int{{1, 1}, {MaxRows, MaxSeatsPerRow}} {
		if err := CheckSize(ok[0], ok[1]); err != nil {
			t.Errorf("CheckSize(%v) = %v", ok, err)
		}
	}
	for _, bad := range [][2]int{{0, 1}, {1, 0}, {MaxRows + 1, 1}, {1, MaxSeatsPerRow + 1}} {
		if err := CheckSize(bad[0], bad[1]); err == nil {
			t.Errorf("CheckSize(%v) succeeded", bad)
		}
	}
}

func BenchmarkSyntheticMillionSeats(b *testing.B) {
	start := time.Now()
	for b.Loop() {
		_ = Synthetic(2000, 20, 25, start)
	}
}
