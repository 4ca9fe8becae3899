package booking

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits of a layout's text: one screen's plan stays readable, and a show
// copies every seat of it.
const (
	maxLayoutBytes  = 64 << 10
	maxLayoutCols   = 120
	maxLayoutSeats  = 10_000
	maxCategoryName = 40
	// The 702 labels A..Z, AA..ZZ cap the rows (catalog.MaxRows): a label
	// may be used once.
)

// LayoutExample is a small layout that shows every part of the format
// (ParseLayout): the admin's layout editor shows it as the reference.
const LayoutExample = `# Lines starting with # are notes; they are not kept.
# Each category: a capital letter, =, its name.
C = Classic
P = Prime
R = Recliner

# Each row: its label, spaces, then one character per place, left to
# right as seen from the seats:
#   a category letter   a seat of that category
#   W                   a wheelchair space
#   +                   a companion seat (next to a wheelchair space)
#   . or a space        no seat (an aisle, or a gap to centre a row)
# An empty line between rows is a cross-aisle.
A  CCCC.CCCCCCCCCCCC.CCCC
B  CCCC.CCCCCCCCCCCC.CCCC
C  W+CC.CCCCCCCCCCCC.CC+W

D  PPPP.PPPPPPPPPPPP.PPPP
E  PPPP.PPPPPPPPPPPP.PPPP

F      RRRR.RRRRRRRR
`

// Layout is a screen's seating plan parsed from its text.
type Layout struct {
	Categories []LayoutCategory // in declaration order
	// Seats are in map order (GridRow, GridCol), for no show yet: ShowID and
	// Price empty, Status available.
	Seats []Seat
}

// LayoutCategory is a seat category and the letter that marks its seats in
// the text.
type LayoutCategory struct {
	Letter byte
	Name   string
}

// LayoutError says where a layout's text is wrong, in words for the person
// who typed it. Line and Col count from 1; Col is 0 when the whole line is
// meant, Line is 0 when the whole text is. It unwraps to an EINVALID *Error
// with the same text, so ErrorCode and ErrorMessage treat it as any other
// mistake in a request.
type LayoutError struct {
	Line, Col int
	Msg       string
}

func (e *LayoutError) Error() string {
	switch {
	case e.Line == 0:
		return e.Msg
	case e.Col == 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	default:
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
	}
}

func (e *LayoutError) Unwrap() error { return &Error{Code: EINVALID, Message: e.Error()} }

// Text writes l, made by ParseLayout or LayoutOf, in the form ParseLayout
// reads back to the same Layout, so that a layout can be exported and
// edited: aisles as dots, the gaps that centre a row as spaces. The notes of
// the text it was parsed from are not kept.
func (l Layout) Text() string {
	letter := make(map[string]byte, len(l.Categories))
	var b strings.Builder
	fmt.Fprintf(&b, "# %s in %s.\n\n", plural(len(l.Seats), "seat"), plural(countRows(l.Seats), "row"))
	for _, c := range l.Categories {
		fmt.Fprintf(&b, "%c = %s\n", c.Letter, c.Name)
		letter[c.Name] = c.Letter
	}
	b.WriteByte('\n')
	width, minCol := 0, 0
	for i, s := range l.Seats {
		width = max(width, len(s.Row))
		if i == 0 || s.GridCol < minCol {
			minCol = s.GridCol
		}
	}
	for i := 0; i < len(l.Seats); {
		row := l.Seats[i]
		if i > 0 {
			b.WriteString(strings.Repeat("\n", max(row.GridRow-l.Seats[i-1].GridRow-1, 0)))
		}
		b.WriteString(row.Row)
		b.WriteString(strings.Repeat(" ", width-len(row.Row)+2))
		b.WriteString(strings.Repeat(".", minCol) + strings.Repeat(" ", row.GridCol-minCol))
		col := row.GridCol
		for ; i < len(l.Seats) && l.Seats[i].Row == row.Row; i++ {
			s := l.Seats[i]
			b.WriteString(strings.Repeat(".", max(s.GridCol-col, 0)))
			switch s.Kind {
			case KindWheelchair:
				b.WriteByte('W')
			case KindCompanion:
				b.WriteByte('+')
			default:
				b.WriteByte(letter[s.Category])
			}
			col = s.GridCol + 1
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func countRows(seats []Seat) int {
	n := 0
	for i, s := range seats {
		if i == 0 || s.Row != seats[i-1].Row {
			n++
		}
	}
	return n
}

// CategoryNames are the names of l's categories, in declaration order: the
// prices a show of this layout asks for.
func (l Layout) CategoryNames() []string {
	names := make([]string, len(l.Categories))
	for i, c := range l.Categories {
		names[i] = c.Name
	}
	return names
}

// SeatsFor is the layout's seats for show showID at the given price per
// category name; every category needs a price > 0, else an EINVALID *Error
// naming the category.
func (l Layout) SeatsFor(showID string, prices map[string]Money) ([]Seat, error) {
	for _, c := range l.Categories {
		price, ok := prices[c.Name]
		switch {
		case !ok:
			return nil, Errorf(EINVALID, "Give a price for %s seats.", c.Name)
		case price <= 0:
			return nil, Errorf(EINVALID, "The price of %s seats must be more than zero.", c.Name)
		}
	}
	seats := make([]Seat, len(l.Seats))
	for i, s := range l.Seats {
		s.ShowID, s.Price = showID, prices[s.Category]
		seats[i] = s
	}
	return seats, nil
}

// LayoutOf is the layout of seats that already exist (a show made by the
// demo or the seed command), so that any screen can be exported and edited:
// categories get letters in order of first appearance (first letter of the
// name if free, else the next free letter), seats keep their labels, numbers,
// kinds (none is standard) and GridCol, and GridRow counts from 0 at the
// first row. Seats the text
// cannot express (numbers not 1.. from the left, a row on two lines, more
// than 120 places a row, …) give an EINVALID *Error.
func LayoutOf(seats []Seat) (Layout, error) {
	fail := func(format string, args ...any) (Layout, error) {
		return Layout{}, Errorf(EINVALID, "These seats cannot be written as a layout: "+format, args...)
	}
	switch {
	case len(seats) == 0:
		return fail("there are none.")
	case len(seats) > maxLayoutSeats:
		return fail("there are %d; a layout can have at most %d.", len(seats), maxLayoutSeats)
	}
	sorted := slices.Clone(seats)
	slices.SortStableFunc(sorted, func(a, b Seat) int {
		return cmp.Or(cmp.Compare(a.GridRow, b.GridRow), cmp.Compare(a.GridCol, b.GridCol))
	})
	var l Layout
	letters := map[string]byte{}
	rowOf := map[string]int{} // GridRow of each label
	ids := map[string]bool{}
	top := sorted[0].GridRow
	for i, s := range sorted {
		if !ValidSeatID(s.ID) || s.ID != s.Row+strconv.Itoa(s.Number) {
			return fail("%q is not a seat of row %q number %d.", Truncate(s.ID, 12), Truncate(s.Row, 12), s.Number)
		}
		if ids[s.ID] {
			return fail("there are two seats %s.", s.ID)
		}
		ids[s.ID] = true
		newRow := i == 0 || sorted[i-1].GridRow != s.GridRow
		switch r, ok := rowOf[s.Row]; {
		case ok && r != s.GridRow:
			return fail("row %s is on more than one line.", s.Row)
		case !ok && !newRow:
			return fail("rows %s and %s are on one line.", sorted[i-1].Row, s.Row)
		case !newRow && s.GridCol == sorted[i-1].GridCol:
			return fail("seats %s and %s are in one place.", sorted[i-1].ID, s.ID)
		case s.GridCol < 0 || s.GridCol >= maxLayoutCols:
			return fail("seat %s is in column %d; a layout has columns 0 to %d.", s.ID, s.GridCol, maxLayoutCols-1)
		case newRow && s.Number != 1 || !newRow && s.Number != sorted[i-1].Number+1:
			return fail("the seats of row %s are not numbered 1, 2, 3… from the left.", s.Row)
		}
		rowOf[s.Row] = s.GridRow
		if _, ok := letters[s.Category]; !ok {
			if msg, _ := checkCategoryName(s.Category); msg != "" {
				return fail("seat %s has the category %q: %s", s.ID, Truncate(s.Category, 50), msg)
			}
			for _, c := range l.Categories {
				if strings.EqualFold(c.Name, s.Category) {
					return fail("the categories %q and %q differ only in capitals.", c.Name, s.Category)
				}
			}
			c, ok := freeLetter(s.Category, letters)
			if !ok {
				return fail("there are more than 25 categories.")
			}
			letters[s.Category] = c
			l.Categories = append(l.Categories, LayoutCategory{Letter: c, Name: s.Category})
		}
		kind := s.Kind
		switch kind {
		case "":
			kind = KindStandard
		case KindStandard, KindWheelchair, KindCompanion:
		default:
			return fail("seat %s is of an unknown kind %q.", s.ID, Truncate(string(kind), 20))
		}
		l.Seats = append(l.Seats, Seat{
			ID: s.ID, Row: s.Row, Number: s.Number, GridRow: s.GridRow - top, GridCol: s.GridCol,
			Category: s.Category, Kind: kind, Status: SeatAvailable,
		})
	}
	for i := 0; i < len(l.Seats); {
		j, standard, accessible, mixed := i, false, false, false
		for ; j < len(l.Seats) && l.Seats[j].Row == l.Seats[i].Row; j++ {
			standard = standard || l.Seats[j].Kind == KindStandard
			accessible = accessible || l.Seats[j].Kind != KindStandard
			mixed = mixed || l.Seats[j].Category != l.Seats[i].Category
		}
		switch {
		case accessible && !standard:
			return fail("row %s has only wheelchair spaces and companion seats.", l.Seats[i].Row)
		case accessible && mixed:
			return fail("row %s has wheelchair spaces or companion seats and seats of more than one category.", l.Seats[i].Row)
		}
		i = j
	}
	return l, nil
}

// freeLetter picks the letter of a category: the first letter of its name if
// free, else the next free one after it.
func freeLetter(name string, taken map[string]byte) (byte, bool) {
	used := map[byte]bool{'W': true}
	for _, c := range taken {
		used[c] = true
	}
	first := byte('A')
	if c := name[0] &^ 0x20; 'A' <= c && c <= 'Z' && name[0] < utf8.RuneSelf {
		first = c
	}
	for i := range byte(26) {
		if c := 'A' + (first-'A'+i)%26; !used[c] {
			return c, true
		}
	}
	return 0, false
}
