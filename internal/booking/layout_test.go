package booking_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/layout from the current output")

// layoutCinema is a real hall: rows A–P, two aisles, three categories,
// wheelchair spaces with companions off a cross-aisle, and recliners centred
// behind.
const layoutCinema = `# Audi 1, as the manager types it.
C = Classic
P = Prime
R = Recliner

A  CCCC.CCCCCCCCCCCC.CCCC
B  CCCC.CCCCCCCCCCCC.CCCC
C  CCCC.CCCCCCCCCCCC.CCCC
D  CCCC.CCCCCCCCCCCC.CCCC
E  CCCC.CCCCCCCCCCCC.CCCC

F  W+PP.PPPPPPPPPPPP.PP+W
G  PPPP.PPPPPPPPPPPP.PPPP
H  PPPP.PPPPPPPPPPPP.PPPP
I  PPPP.PPPPPPPPPPPP.PPPP
J  PPPP.PPPPPPPPPPPP.PPPP
K  PPPP.PPPPPPPPPPPP.PPPP
L  PPPP.PPPPPPPPPPPP.PPPP
M  PPPP.PPPPPPPPPPPP.PPPP

N     RRR.RRRRRRRR.RRR
O     RRR.RRRRRRRR.RRR
P     RRR.RRRRRRRR.RRR
`

// layoutExample is the one the admin page shows, and ParseLayout's doc
// comment.
const layoutExample = booking.LayoutExample

// TestParseLayoutDocExample keeps the example of ParseLayout's doc comment,
// which the admin page shows, one that parses.
func TestParseLayoutDocExample(t *testing.T) {
	src, err := os.ReadFile("layout_parse.go")
	if err != nil {
		t.Fatal(err)
	}
	_, doc, ok := strings.Cut(string(src), "\n// ParseLayout ")
	if !ok {
		t.Fatal("layout_parse.go has no doc comment for ParseLayout")
	}
	var block []string
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "//\t"):
			block = append(block, strings.TrimPrefix(line, "//\t"))
		case line == "//" && len(block) > 0:
			block = append(block, "")
		case len(block) > 0:
			if diff := cmp.Diff(layoutExample, strings.TrimRight(strings.Join(block, "\n"), "\n")+"\n"); diff != "" {
				t.Errorf("the example in the doc comment differs from layoutExample (-want +got):\n%s", diff)
			}
			return
		}
	}
	t.Fatal("no example in ParseLayout's doc comment")
}

func mustParseLayout(tb testing.TB, text string) booking.Layout {
	tb.Helper()
	l, err := booking.ParseLayout(text)
	if err != nil {
		tb.Fatalf("ParseLayout: %v", err)
	}
	return l
}

func layoutSeat(id string, gridRow, gridCol int, category string, kind booking.SeatKind) booking.Seat {
	i := strings.IndexAny(id, "123456789")
	n, _ := strconv.Atoi(id[i:])
	return booking.Seat{
		ID: id, Row: id[:i], Number: n, GridRow: gridRow, GridCol: gridCol,
		Category: category, Kind: kind, Status: booking.SeatAvailable,
	}
}

func TestParseLayoutCinema(t *testing.T) {
	l := mustParseLayout(t, layoutCinema)
	if len(l.Seats) != 302 {
		t.Errorf("%d seats, want 302", len(l.Seats))
	}
	wantCats := []booking.LayoutCategory{{'C', "Classic"}, {'P', "Prime"}, {'R', "Recliner"}}
	if diff := cmp.Diff(wantCats, l.Categories); diff != "" {
		t.Errorf("categories (-want +got):\n%s", diff)
	}
	byID := map[string]booking.Seat{}
	kinds := map[booking.SeatKind]int{}
	perCategory := map[string]int{}
	for i, s := range l.Seats {
		if !booking.ValidSeatID(s.ID) {
			t.Errorf("seat %q is not a valid id", s.ID)
		}
		if _, dup := byID[s.ID]; dup {
			t.Errorf("seat %s twice", s.ID)
		}
		if i > 0 {
			p := l.Seats[i-1]
			if s.GridRow < p.GridRow || s.GridRow == p.GridRow && s.GridCol <= p.GridCol {
				t.Errorf("seat %s comes after %s but is not after it on the map", s.ID, p.ID)
			}
		}
		byID[s.ID] = s
		kinds[s.Kind]++
		perCategory[s.Category]++
	}
	const (
		std   = booking.KindStandard
		wheel = booking.KindWheelchair
		comp  = booking.KindCompanion
	)
	if diff := cmp.Diff(map[booking.SeatKind]int{std: 298, wheel: 2, comp: 2}, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]int{"Classic": 100, "Prime": 160, "Recliner": 42}, perCategory); diff != "" {
		t.Errorf("seats per category (-want +got):\n%s", diff)
	}
	for _, want := range []booking.Seat{
		layoutSeat("A1", 0, 0, "Classic", std),
		layoutSeat("A4", 0, 3, "Classic", std),
		layoutSeat("A5", 0, 5, "Classic", std), // across the first aisle
		layoutSeat("A17", 0, 18, "Classic", std),
		layoutSeat("A20", 0, 21, "Classic", std),
		layoutSeat("E20", 4, 21, "Classic", std),
		layoutSeat("F1", 6, 0, "Prime", wheel), // after the cross-aisle
		layoutSeat("F2", 6, 1, "Prime", comp),
		layoutSeat("F3", 6, 2, "Prime", std),
		layoutSeat("F19", 6, 20, "Prime", comp),
		layoutSeat("F20", 6, 21, "Prime", wheel),
		layoutSeat("M1", 13, 0, "Prime", std),
		layoutSeat("N1", 15, 3, "Recliner", std), // centred
		layoutSeat("N4", 15, 7, "Recliner", std),
		layoutSeat("P14", 17, 18, "Recliner", std),
	} {
		if diff := cmp.Diff(want, byID[want.ID]); diff != "" {
			t.Errorf("seat %s (-want +got):\n%s", want.ID, diff)
		}
	}
	if _, ok := byID["A21"]; ok {
		t.Error("row A has a 21st seat")
	}

	text := l.Text()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) > 25 {
		t.Errorf("Text() is %d lines, want at most 25:\n%s", len(lines), text)
	}
	for i, line := range lines {
		if len(line) > 40 {
			t.Errorf("Text() line %d is %d columns, want at most 40: %q", i+1, len(line), line)
		}
	}
	compareLayoutGolden(t, "cinema.txt", text)
}

func TestParseLayoutLineEndings(t *testing.T) {
	want := mustParseLayout(t, layoutExample)
	for name, text := range map[string]string{
		"windows":            strings.ReplaceAll(layoutExample, "\n", "\r\n"),
		"byte order mark":    "\uFEFF" + strings.ReplaceAll(layoutExample, "\n", "\r\n"),
		"no final newline":   strings.TrimSuffix(layoutExample, "\n"),
		"trailing spaces":    strings.ReplaceAll(layoutExample, "\n", "   \n"),
		"blank lines around": "\n\n  \n" + layoutExample + "\n\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(want, mustParseLayout(t, text)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseLayoutGridRows(t *testing.T) {
	l := mustParseLayout(t, "# note\nC = Classic\n\nB  C\n# a note is no gap\nA  C\n\n\nAA C\nP = Prime\nZ   P\n\n")
	want := []booking.Seat{
		layoutSeat("B1", 0, 0, "Classic", booking.KindStandard),
		layoutSeat("A1", 1, 0, "Classic", booking.KindStandard),
		layoutSeat("AA1", 4, 0, "Classic", booking.KindStandard),
		layoutSeat("Z1", 5, 1, "Prime", booking.KindStandard),
	}
	if diff := cmp.Diff(want, l.Seats); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseLayoutErrors(t *testing.T) {
	rows := func(n, width int) string {
		var b strings.Builder
		b.WriteString("C = Classic\n")
		for i := range n {
			label := string(rune('A'+i%26)) + " "
			if i >= 26 {
				label = string(rune('A'+(i-26)/26)) + string(rune('A'+(i-26)%26))
			}
			b.WriteString(label + " " + strings.Repeat("C", width) + "\n")
		}
		return b.String()
	}
	const cpr = "C = Classic\nP = Prime\nR = Recliner\n"
	tests := []struct {
		name      string
		text      string
		line, col int
		want      string
	}{
		{"too long", strings.Repeat("#\n", 40_000), 0, 0,
			"The layout is 79 KB long; it can be at most 64 KB."},
		{"empty", "", 0, 0,
			`The layout has no rows yet: add a line for each row, such as "A  CCCC.CCCC".`},
		{"only categories", "C = Classic\n", 0, 0,
			`The layout has no rows yet: add a line for each row, such as "A  CCCC.CCCC".`},
		{"tab after label", "C = Classic\nA\tCCC", 2, 2,
			"line 2, column 2: there is a tab here; use spaces, so that the places line up the same for everyone."},
		{"tab among places", "C = Classic\nA  CC\tCC", 2, 6,
			"line 2, column 6: there is a tab here; use spaces, so that the places line up the same for everyone."},
		{"tab in a name", "C = Clas\tsic\nA  C", 1, 9,
			"line 1, column 9: there is a tab here; use spaces, so that the places line up the same for everyone."},
		{"not text", "C = Classic\nA  CC\xffCC", 2, 0,
			"line 2: this line has characters that are not text; type it again, or paste it as plain text."},
		{"letter twice", "C = Classic\nC = Comfort\nA  C", 2, 1,
			"line 2, column 1: C is already the letter of Classic (line 1)."},
		{"name twice", "C = Classic\nK = classic\nA  CK", 2, 5,
			`line 2, column 5: there is already a category named "Classic" (line 1).`},
		{"W as a category", "W = Wide\nA  W", 1, 1,
			"line 1, column 1: W marks a wheelchair space, so it cannot be a category; choose another letter."},
		{"two letters", "CL = Classic\nA  C", 1, 1,
			`line 1, column 1: a category is marked by one capital letter, not "CL".`},
		{"no name", "C =\nA  C", 1, 0,
			`line 1: give the category a name after the =, such as "C = Classic".`},
		{"no name, no spaces", "C=   \nA  C", 1, 0,
			`line 1: give the category a name after the =, such as "C = Classic".`},
		{"long name", "C = " + strings.Repeat("é", 41) + "\nA  C", 1, 5,
			"line 1, column 5: a category name can have at most 40 characters; this one has 41."},
		{"invisible character in a name", "C = Clas\u200bsic\nA  C", 1, 9,
			"line 1, column 9: there is the invisible character U+200B in the name; type the name again."},
		{"undeclared letter", cpr + "\nA  CCXC", 5, 6,
			`line 5, column 6: "X" is not a category; the categories are C, P and R.`},
		{"undeclared, one category", "C = Classic\nA  CP", 2, 5,
			`line 2, column 5: "P" is not a category; the only category is C.`},
		{"undeclared, no categories", "A  CC", 1, 4,
			`line 1, column 4: "C" is not a category, and there are none yet: add a line such as "C = Classic".`},
		{"small letter", "C = Classic\nA  CcC", 2, 5,
			`line 2, column 5: "c" is not a place; use a category letter (C), W, + or a dot.`},
		{"digit", cpr + "A  CP1R", 4, 6,
			`line 4, column 6: "1" is not a place; use a category letter (C, P or R), W, + or a dot.`},
		{"control character", "C = Classic\nA  C\x01C", 2, 5,
			`line 2, column 5: the invisible character U+0001 is not a place; use a category letter (C), W, + or a dot.`},
		{"lone carriage return", "C = Classic\nA  CC\rB  CC", 2, 6,
			`line 2, column 6: the invisible character U+000D is not a place; use a category letter (C), W, + or a dot.`},
		{"small label", "C = Classic\na  CCC", 2, 1,
			`line 2, column 1: a line cannot start with "a": a row starts with its label (A to Z, or AA to ZZ), a category with its capital letter, and a note with #.`},
		{"no label", "C = Classic\n  CCC", 2, 1,
			"line 2, column 1: a row starts with its label (A to Z, or AA to ZZ) at the very start of the line."},
		{"three-letter label", "C = Classic\nABC CCC", 2, 1,
			`line 2, column 1: "ABC" is not a row label: a label is one or two capital letters, then a space before the places.`},
		{"no space after label", "C = Classic\nA.CCC", 2, 2,
			"line 2, column 2: put a space between the row label A and its places."},
		{"row twice", "C = Classic\nA  CC\nB  CC\n\nA  CC", 5, 1,
			"line 5, column 1: there is already a row A (line 2)."},
		{"label alone", "C = Classic\nA  C\nB", 3, 0,
			"line 3: row B has no seats."},
		{"only gaps", "C = Classic\nA  C\nB  .. ..", 3, 0,
			"line 3: row B has no seats."},
		{"only wheelchair spaces", "C = Classic\nA  C\nB  W+.+W", 3, 0,
			"line 3: row B has only wheelchair spaces and companion seats; it needs a seat of some category too, whose price they take."},
		{"wheelchair space in a mixed row", cpr + "A  W+CC.PPP.RR", 4, 9,
			"line 4, column 9: row A has wheelchair spaces or companion seats, so all its seats must be of one category; it has C, P and R."},
		{"too wide", "C = Classic\nA  " + strings.Repeat("C", 121), 2, 124,
			"line 2, column 124: a row can be at most 120 places wide; this one is 121."},
		{"too wide by its gap", "C = Classic\nA  C\nB      " + strings.Repeat("C", 118), 3, 124,
			"line 3, column 124: a row can be at most 120 places wide; this one is 122."},
		{"too many seats", rows(84, 120), 85, 0,
			"line 85: a layout can have at most 10000 seats; with row CF this one has 10080."},
		{"unused category", "C = Classic\nP = Prime\nR = Recliner\nA  CCRR", 2, 0,
			"line 2: no row has Prime seats; put P in a row, or remove this line."},
		{"category errors come first", "C = Classic\nA  X\nC = Comfort", 3, 1,
			"line 3, column 1: C is already the letter of Classic (line 1)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := booking.ParseLayout(tt.text)
			var le *booking.LayoutError
			if !errors.As(err, &le) {
				t.Fatalf("ParseLayout = %d seats, %v; want a *LayoutError", len(l.Seats), err)
			}
			if le.Line != tt.line || le.Col != tt.col {
				t.Errorf("at line %d, column %d; want line %d, column %d", le.Line, le.Col, tt.line, tt.col)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			if got := booking.ErrorCode(err); got != booking.EINVALID {
				t.Errorf("ErrorCode = %q, want %q", got, booking.EINVALID)
			}
			if got := booking.ErrorMessage(err); got != err.Error() {
				t.Errorf("ErrorMessage = %q, want the error itself", got)
			}
		})
	}
}

func TestParseLayoutLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("C = Classic\n")
	for i := range 702 { // every label, A to ZZ
		label := string(rune('A' + i%26))
		if i >= 26 {
			label = string(rune('A'+(i-26)/26)) + string(rune('A'+(i-26)%26))
		}
		b.WriteString(label + " " + "C\n")
	}
	if l := mustParseLayout(t, b.String()); len(l.Seats) != 702 || l.Seats[701].ID != "ZZ1" {
		t.Errorf("702 rows: %d seats, the last %s", len(l.Seats), l.Seats[len(l.Seats)-1].ID)
	}
	wide := mustParseLayout(t, "C = Classic\nA  "+strings.Repeat("C", 120))
	if last := wide.Seats[119]; last.ID != "A120" || last.GridCol != 119 {
		t.Errorf("the 120th place is %s at column %d", last.ID, last.GridCol)
	}
}

// layoutBand and layoutBandSeats lay out seats as catalog.Layout.Seats does,
// which this package cannot import: the screens of the demo must export.
type layoutBand struct {
	category string
	rows     int
	blocks   []int
}

func layoutBandSeats(bands []layoutBand, accessibleRow, pairs int) []booking.Seat {
	widthOf := func(blocks []int) int {
		w := len(blocks) - 1
		for _, n := range blocks {
			w += n
		}
		return w
	}
	width := 0
	for _, b := range bands {
		width = max(width, widthOf(b.blocks))
	}
	var seats []booking.Seat
	row, gridRow := 0, 0
	for bi, b := range bands {
		if bi > 0 {
			gridRow++
		}
		for range b.rows {
			label := string(rune('A' + row%26))
			if row >= 26 {
				label = string(rune('A'+(row-26)/26)) + string(rune('A'+(row-26)%26))
			}
			start, number, col := len(seats), 1, (width-widthOf(b.blocks))/2
			for k, n := range b.blocks {
				if k > 0 {
					col++
				}
				for range n {
					seats = append(seats, layoutSeat(label+strconv.Itoa(number), gridRow, col, b.category, booking.KindStandard))
					number++
					col++
				}
			}
			if r := seats[start:]; row == accessibleRow && pairs > 0 && len(r) >= 4*pairs {
				r[0].Kind, r[1].Kind = booking.KindWheelchair, booking.KindCompanion
				if pairs == 2 {
					r[len(r)-1].Kind, r[len(r)-2].Kind = booking.KindWheelchair, booking.KindCompanion
				}
			}
			row++
			gridRow++
		}
	}
	return seats
}

func TestLayoutTextRoundTrip(t *testing.T) {
	blocks3 := func(cols int) []int { side := cols / 4; return []int{side, cols - 2*side, side} }
	tests := []struct {
		name   string
		golden string // file under testdata/layout, if any
		seats  []booking.Seat
		text   string
	}{
		{name: "example", golden: "example.txt", text: layoutExample},
		{name: "cinema", text: layoutCinema},
		{name: "grand audi", golden: "grand_audi.txt", seats: layoutBandSeats([]layoutBand{
			{"Classic", 3, []int{4, 12, 4}}, {"Prime", 5, []int{4, 14, 4}}, {"Recliner", 2, []int{6, 6}},
		}, 3, 2)},
		{name: "studio", golden: "studio.txt", seats: layoutBandSeats([]layoutBand{
			{"Classic", 2, []int{7, 7}}, {"Prime", 6, []int{8, 8}}, {"Recliner", 1, []int{4, 4}},
		}, 2, 1)},
		{name: "stadium", golden: "stadium.txt", seats: layoutBandSeats([]layoutBand{
			{"Classic", 4, []int{5, 14, 5}}, {"Prime", 5, []int{5, 14, 5}}, {"Recliner", 2, []int{4, 8, 4}},
		}, 4, 2)},
		{name: "boutique", golden: "boutique.txt", seats: layoutBandSeats([]layoutBand{
			{"Prime", 4, []int{3, 10, 3}}, {"Recliner", 6, []int{5, 5}},
		}, 0, 2)},
		{name: "seed 30x40", seats: layoutBandSeats([]layoutBand{
			{"Classic", 10, blocks3(40)}, {"Prime", 10, blocks3(40)}, {"Recliner", 10, blocks3(40)},
		}, -1, 0)},
		{name: "gaps on the left everywhere", text: "C = Classic\nP = Prime\nA  ..CC.C\nB  ...  P\n\n\nC      ..C"},
		{name: "two-letter labels", text: "C = Classic\nZ  CCC\nAA CCC\nAB  CC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l booking.Layout
			if tt.seats != nil {
				var err error
				if l, err = booking.LayoutOf(tt.seats); err != nil {
					t.Fatalf("LayoutOf: %v", err)
				}
				if diff := cmp.Diff(tt.seats, l.Seats); diff != "" {
					t.Errorf("LayoutOf changed the seats (-want +got):\n%s", diff)
				}
			} else {
				l = mustParseLayout(t, tt.text)
			}
			text := l.Text()
			if diff := cmp.Diff(l, mustParseLayout(t, text)); diff != "" {
				t.Errorf("ParseLayout(Text()) (-want +got):\n%s\n%s", diff, text)
			}
			if tt.golden != "" {
				compareLayoutGolden(t, tt.golden, text)
			}
		})
	}
}

func compareLayoutGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "layout", name)
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

func TestLayoutOfLetters(t *testing.T) {
	var seats []booking.Seat
	for i, name := range []string{"Prime", "Premium", "Wide", "économie", "classic", "Aisle"} {
		seats = append(seats, layoutSeat(string(rune('A'+i))+"1", i, 0, name, booking.KindStandard))
	}
	l, err := booking.LayoutOf(seats)
	if err != nil {
		t.Fatal(err)
	}
	want := []booking.LayoutCategory{{'P', "Prime"}, {'Q', "Premium"}, {'X', "Wide"}, {'A', "économie"}, {'C', "classic"}, {'B', "Aisle"}}
	if diff := cmp.Diff(want, l.Categories); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLayoutOfKeepsPlaces(t *testing.T) {
	in := []booking.Seat{ // out of order, below the top, from a show
		layoutSeat("B1", 7, 4, "Prime", ""),
		layoutSeat("A2", 5, 9, "Classic", booking.KindStandard),
		layoutSeat("A1", 5, 3, "Classic", booking.KindStandard),
	}
	in[0].ShowID, in[0].Price, in[0].Status, in[0].HoldID = "s1", 250_00, booking.SeatLocked, "h1"
	l, err := booking.LayoutOf(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []booking.Seat{
		layoutSeat("A1", 0, 3, "Classic", booking.KindStandard),
		layoutSeat("A2", 0, 9, "Classic", booking.KindStandard),
		layoutSeat("B1", 2, 4, "Prime", booking.KindStandard),
	}
	if diff := cmp.Diff(want, l.Seats); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLayoutOfErrors(t *testing.T) {
	std := booking.KindStandard
	tests := []struct {
		name  string
		seats []booking.Seat
		want  string
	}{
		{"none", nil, "there are none"},
		{"not from 1", []booking.Seat{layoutSeat("A2", 0, 0, "C", std)}, "not numbered 1, 2, 3"},
		{"a number skipped", []booking.Seat{layoutSeat("A1", 0, 0, "C", std), layoutSeat("A3", 0, 1, "C", std)}, "not numbered"},
		{"numbered from the right", []booking.Seat{layoutSeat("A2", 0, 0, "C", std), layoutSeat("A1", 0, 1, "C", std)}, "not numbered"},
		{"row on two lines", []booking.Seat{layoutSeat("A1", 0, 0, "C", std), layoutSeat("A2", 1, 0, "C", std)}, "row A is on more than one line"},
		{"two rows on a line", []booking.Seat{layoutSeat("A1", 0, 0, "C", std), layoutSeat("B1", 0, 1, "C", std)}, "rows A and B are on one line"},
		{"one place", []booking.Seat{layoutSeat("A1", 0, 0, "C", std), layoutSeat("A2", 0, 0, "C", std)}, "in one place"},
		{"same id", []booking.Seat{layoutSeat("A1", 0, 0, "C", std), layoutSeat("A1", 1, 0, "C", std)}, "two seats A1"},
		{"bad id", []booking.Seat{{ID: "A0", Row: "A", Category: "C"}}, `"A0" is not a seat`},
		{"id and row disagree", []booking.Seat{{ID: "A1", Row: "B", Number: 1, Category: "C"}}, "is not a seat"},
		{"too far right", []booking.Seat{layoutSeat("A1", 0, 120, "C", std)}, "column 120"},
		{"negative column", []booking.Seat{layoutSeat("A1", 0, -1, "C", std)}, "column -1"},
		{"unknown kind", []booking.Seat{layoutSeat("A1", 0, 0, "C", "sofa")}, `unknown kind "sofa"`},
		{"only a wheelchair space", []booking.Seat{layoutSeat("A1", 0, 0, "C", booking.KindWheelchair)}, "only wheelchair"},
		{"wheelchair in a mixed row", []booking.Seat{
			layoutSeat("A1", 0, 0, "C", std), layoutSeat("A2", 0, 1, "P", std), layoutSeat("A3", 0, 2, "P", booking.KindWheelchair),
		}, "more than one category"},
		{"empty category", []booking.Seat{layoutSeat("A1", 0, 0, "", std)}, "cannot be empty"},
		{"category in two spellings", []booking.Seat{layoutSeat("A1", 0, 0, "Prime", std), layoutSeat("B1", 1, 0, "PRIME", std)}, "differ only in capitals"},
		{"too many categories", func() []booking.Seat {
			var s []booking.Seat
			for i := range 26 {
				s = append(s, layoutSeat(string(rune('A'+i))+"1", i, 0, "Cat "+strconv.Itoa(i), std))
			}
			return s
		}(), "more than 25 categories"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := booking.LayoutOf(tt.seats)
			if booking.ErrorCode(err) != booking.EINVALID || !strings.Contains(booking.ErrorMessage(err), tt.want) {
				t.Errorf("LayoutOf = %v; want an EINVALID error containing %q", err, tt.want)
			}
		})
	}
}

func TestSeatsFor(t *testing.T) {
	l := mustParseLayout(t, layoutExample)
	if diff := cmp.Diff([]string{"Classic", "Prime", "Recliner"}, l.CategoryNames()); diff != "" {
		t.Errorf("CategoryNames (-want +got):\n%s", diff)
	}
	prices := map[string]booking.Money{"Classic": 180_00, "Prime": 250_00, "Recliner": 450_00}
	seats, err := l.SeatsFor("show1", prices)
	if err != nil {
		t.Fatal(err)
	}
	if len(seats) != len(l.Seats) {
		t.Fatalf("%d seats, want %d", len(seats), len(l.Seats))
	}
	for i, s := range seats {
		want := l.Seats[i]
		want.ShowID, want.Price = "show1", prices[want.Category]
		if diff := cmp.Diff(want, s); diff != "" {
			t.Errorf("seat %d (-want +got):\n%s", i, diff)
		}
	}
	if l.Seats[0].ShowID != "" || l.Seats[0].Price != 0 {
		t.Error("SeatsFor changed the layout's seats")
	}

	for _, tt := range []struct {
		name   string
		prices map[string]booking.Money
		want   string
	}{
		{"missing", map[string]booking.Money{"Classic": 180_00, "Prime": 250_00}, "Give a price for Recliner seats."},
		{"zero", map[string]booking.Money{"Classic": 180_00, "Prime": 0, "Recliner": 450_00}, "The price of Prime seats must be more than zero."},
		{"negative", map[string]booking.Money{"Classic": -1, "Prime": 1, "Recliner": 1}, "The price of Classic seats must be more than zero."},
		{"nil", nil, "Give a price for Classic seats."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seats, err := l.SeatsFor("show1", tt.prices)
			if booking.ErrorCode(err) != booking.EINVALID || booking.ErrorMessage(err) != tt.want {
				t.Errorf("SeatsFor = %d seats, %v; want EINVALID %q", len(seats), err, tt.want)
			}
		})
	}
}

func FuzzParseLayout(f *testing.F) {
	for _, seed := range []string{
		layoutExample,
		layoutCinema,
		strings.ReplaceAll(layoutExample, "\n", "\r\n"),
		"C = Classic\nA  W+C\nAA  C",
		"C = Classic\nA  CCXC",       // undeclared
		"C = Classic\nA  W+\n",       // no category
		"C = Classic\nC = Comfort\n", // letter twice
		"C = Classic\nA\tCCC",        // tab
		"C =\nA  C",                  // no name
		"C = Classic\nA  ..C\n\n\nB .C\nP = Prime\nZZ P",
		"W = Wide\nA  W",
		"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l, err := booking.ParseLayout(text)
		if err != nil {
			var le *booking.LayoutError
			if !errors.As(err, &le) {
				t.Fatalf("error %T %v, want a *LayoutError", err, err)
			}
			if lines := strings.Split(text, "\n"); le.Line < 0 || le.Line > len(lines) || le.Col < 0 ||
				le.Line > 0 && le.Col > utf8.RuneCountInString(lines[le.Line-1])+1 {
				t.Fatalf("%v: no such place in the text", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, s := range l.Seats {
			if !booking.ValidSeatID(s.ID) || ids[s.ID] {
				t.Fatalf("seat %q is not valid or not unique", s.ID)
			}
			ids[s.ID] = true
		}
		back, err := booking.ParseLayout(l.Text())
		if err != nil {
			t.Fatalf("ParseLayout(Text()): %v\n%s", err, l.Text())
		}
		if diff := cmp.Diff(l, back); diff != "" {
			t.Fatalf("ParseLayout(Text()) (-want +got):\n%s", diff)
		}
		prices := map[string]booking.Money{}
		for _, name := range l.CategoryNames() {
			prices[name] = 100
		}
		seats, err := l.SeatsFor("s", prices)
		if err != nil || len(seats) != len(l.Seats) {
			t.Fatalf("SeatsFor = %d seats, %v; want %d", len(seats), err, len(l.Seats))
		}
		of, err := booking.LayoutOf(l.Seats)
		if err != nil {
			t.Fatalf("LayoutOf: %v", err)
		}
		if diff := cmp.Diff(l.Seats, of.Seats); diff != "" {
			t.Fatalf("LayoutOf changed the seats (-want +got):\n%s", diff)
		}
	})
}
