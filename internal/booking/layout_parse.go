package booking

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ParseLayout reads a screen's seat layout from its text. The rows are drawn
// on the seat map as they are typed: the first row nearest the screen, and
// each character one place, so that aisles and gaps stay where you put them.
//
//	# Lines starting with # are notes; they are not kept.
//	# Each category: a capital letter, =, its name.
//	C = Classic
//	P = Prime
//	R = Recliner
//
//	# Each row: its label, spaces, then one character per place, left to
//	# right as seen from the seats:
//	#   a category letter   a seat of that category
//	#   W                   a wheelchair space
//	#   +                   a companion seat (next to a wheelchair space)
//	#   . or a space        no seat (an aisle, or a gap to centre a row)
//	# An empty line between rows is a cross-aisle.
//	A  CCCC.CCCCCCCCCCCC.CCCC
//	B  CCCC.CCCCCCCCCCCC.CCCC
//	C  W+CC.CCCCCCCCCCCC.CC+W
//
//	D  PPPP.PPPPPPPPPPPP.PPPP
//	E  PPPP.PPPPPPPPPPPP.PPPP
//
//	F      RRRR.RRRRRRRR
//
// Rules:
//   - Row labels are A to Z, then AA to ZZ, each used once, in any order.
//   - Seats are numbered from 1 at the left, counting on across aisles: row
//     A above has seats A1 to A20, and C1 is a wheelchair space.
//   - The places line up as typed, counted from the row that starts furthest
//     left: row F above starts four places in, centred behind E.
//   - W and + take the category of the other seats of their row, so such a
//     row has seats of one category only.
//   - Every category has its own letter (any but W) and name (at most 40
//     characters), and is used by some row. Prices are set for each show.
//   - Use spaces, not tabs. At most 120 places a row, 10,000 seats and 64 KB
//     of text.
func ParseLayout(text string) (Layout, error) {
	if len(text) > maxLayoutBytes {
		return Layout{}, &LayoutError{Msg: fmt.Sprintf("The layout is %d KB long; it can be at most 64 KB.", (len(text)+1023)/1024)}
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	p := &layoutParser{origin: -1, letters: map[byte]int{}, rowLine: map[string]int{}}
	if err := p.read(strings.Split(text, "\n")); err != nil {
		return Layout{}, err
	}
	for i, line := range p.lines {
		var err error
		switch line.kind {
		case lineBlank:
			if len(p.rowLine) > 0 {
				p.gap++
			}
		case lineRow:
			err = p.row(i+1, line.text, line.label)
		}
		if err != nil {
			return Layout{}, err
		}
	}
	return p.finish()
}

// layoutParser reads a layout in two passes: the first reads the categories
// and learns where the places start, which a row needs before it can be
// read; the second reads the rows.
type layoutParser struct {
	lines    []layoutLine
	origin   int // byte column of GridCol 0
	layout   Layout
	letters  map[byte]int // index in layout.Categories
	declLine []int        // line of each category
	used     []bool       // whether some row has seats of the category
	rowLine  map[string]int
	gridRow  int // of the next row
	gap      int // empty lines since the last row
}

type lineKind int

const (
	lineBlank lineKind = iota
	lineNote
	lineCategory
	lineRow
)

type layoutLine struct {
	kind  lineKind
	text  string // without trailing spaces
	label int    // how many capital letters it starts with
}

// read is the first pass.
func (p *layoutParser) read(lines []string) error {
	p.lines = make([]layoutLine, len(lines))
	for i, text := range lines {
		n := i + 1
		if !utf8.ValidString(text) {
			return &LayoutError{Line: n, Msg: "this line has characters that are not text; type it again, or paste it as plain text."}
		}
		text = strings.TrimRight(text, " ")
		line := layoutLine{kind: lineRow, text: text, label: labelLen(text)}
		trimmed := strings.TrimLeft(text, " ")
		j := line.label + spaces(text[line.label:]) // the = of a category, the first place of a row
		switch {
		case trimmed == "":
			line.kind = lineBlank
		case trimmed[0] == '#':
			line.kind = lineNote
		case line.label > 0 && j < len(text) && text[j] == '=':
			line.kind = lineCategory
		case 0 < line.label && line.label <= 2 && j > line.label && j < len(text) && (p.origin < 0 || j < p.origin):
			p.origin = j
		}
		p.lines[i] = line
		if line.kind == lineBlank || line.kind == lineNote {
			continue
		}
		if t := strings.IndexByte(text, '\t'); t >= 0 {
			return &LayoutError{Line: n, Col: utf8.RuneCountInString(text[:t]) + 1,
				Msg: "there is a tab here; use spaces, so that the places line up the same for everyone."}
		}
		if line.kind == lineCategory {
			if err := p.category(n, text, line.label, j); err != nil {
				return err
			}
		}
	}
	return nil
}

// category reads "C = Classic"; the letters end at k and the = is at eq.
func (p *layoutParser) category(n int, line string, k, eq int) error {
	c := line[0]
	if k > 1 {
		return &LayoutError{Line: n, Col: 1, Msg: fmt.Sprintf("a category is marked by one capital letter, not %q.", line[:k])}
	}
	if c == 'W' {
		return &LayoutError{Line: n, Col: 1, Msg: "W marks a wheelchair space, so it cannot be a category; choose another letter."}
	}
	if i, ok := p.letters[c]; ok {
		return &LayoutError{Line: n, Col: 1, Msg: fmt.Sprintf("%c is already the letter of %s (line %d).", c, p.layout.Categories[i].Name, p.declLine[i])}
	}
	start := eq + 1 + spaces(line[eq+1:])
	name := line[start:]
	if name == "" {
		return &LayoutError{Line: n, Msg: fmt.Sprintf("give the category a name after the =, such as \"%c = Classic\".", c)}
	}
	if msg, at := checkCategoryName(name); msg != "" {
		return &LayoutError{Line: n, Col: start + at + 1, Msg: msg}
	}
	for i, c := range p.layout.Categories {
		if strings.EqualFold(c.Name, name) {
			return &LayoutError{Line: n, Col: start + 1, Msg: fmt.Sprintf("there is already a category named %q (line %d).", c.Name, p.declLine[i])}
		}
	}
	p.letters[c] = len(p.layout.Categories)
	p.layout.Categories = append(p.layout.Categories, LayoutCategory{Letter: c, Name: name})
	p.declLine = append(p.declLine, n)
	p.used = append(p.used, false)
	return nil
}

// checkCategoryName says what is wrong with name, if anything, and at which
// character (0-based).
func checkCategoryName(name string) (msg string, at int) {
	if name == "" || strings.TrimSpace(name) != name {
		return "a category name cannot be empty, or start or end with a space.", 0
	}
	if n := utf8.RuneCountInString(name); n > maxCategoryName {
		return fmt.Sprintf("a category name can have at most %d characters; this one has %d.", maxCategoryName, n), 0
	}
	i := 0
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return fmt.Sprintf("there is %s in the name; type the name again.", quoteRune(string(r))), i
		}
		i++
	}
	return "", 0
}

// row reads "A  CCCC.CCCC"; the label ends at k.
func (p *layoutParser) row(n int, line string, k int) error {
	switch {
	case k == 0 && line[0] == ' ':
		return &LayoutError{Line: n, Col: 1, Msg: "a row starts with its label (A to Z, or AA to ZZ) at the very start of the line."}
	case k == 0:
		return &LayoutError{Line: n, Col: 1, Msg: fmt.Sprintf("a line cannot start with %s: a row starts with its label (A to Z, or AA to ZZ), a category with its capital letter, and a note with #.", quoteRune(line))}
	case k > 2:
		return &LayoutError{Line: n, Col: 1, Msg: fmt.Sprintf("%q is not a row label: a label is one or two capital letters, then a space before the places.", line[:k])}
	case k < len(line) && line[k] != ' ':
		return &LayoutError{Line: n, Col: k + 1, Msg: fmt.Sprintf("put a space between the row label %s and its places.", line[:k])}
	}
	label := line[:k]
	if prev, ok := p.rowLine[label]; ok {
		return &LayoutError{Line: n, Col: 1, Msg: fmt.Sprintf("there is already a row %s (line %d).", label, prev)}
	}
	start := k + spaces(line[k:])
	if start == len(line) {
		return &LayoutError{Line: n, Msg: fmt.Sprintf("row %s has no seats.", label)}
	}
	// start >= p.origin: the first pass saw this row.
	if len(p.rowLine) > 0 {
		p.gridRow += 1 + p.gap
	}
	p.gap = 0
	p.rowLine[label] = n
	first := len(p.layout.Seats)
	var cats []byte // category letters of the row, in order
	catCol := 0     // column of the second of cats
	accessible := false
	for i := start; i < len(line); i++ {
		c := line[i]
		col := i - p.origin
		if col >= maxLayoutCols {
			return &LayoutError{Line: n, Col: i + 1, Msg: fmt.Sprintf("a row can be at most %d places wide; this one is %d.", maxLayoutCols, utf8.RuneCountInString(line[p.origin:]))}
		}
		kind := KindStandard
		switch {
		case c == ' ' || c == '.':
			continue
		case c == 'W':
			kind, accessible = KindWheelchair, true
		case c == '+':
			kind, accessible = KindCompanion, true
		case 'A' <= c && c <= 'Z':
			if _, ok := p.letters[c]; !ok {
				return &LayoutError{Line: n, Col: i + 1, Msg: p.undeclared(c)}
			}
			if !slices.Contains(cats, c) {
				cats = append(cats, c)
				if len(cats) == 2 {
					catCol = i + 1
				}
			}
		default:
			return &LayoutError{Line: n, Col: i + 1, Msg: fmt.Sprintf("%s is not a place; use %s, W, + or a dot.", quoteRune(line[i:]), p.placeLetters())}
		}
		number := len(p.layout.Seats) - first + 1
		p.layout.Seats = append(p.layout.Seats, Seat{
			ID: label + strconv.Itoa(number), Row: label, Number: number,
			GridRow: p.gridRow, GridCol: col, Kind: kind, Status: SeatAvailable,
			Category: string(c), // the letter until the row is read
		})
	}
	seats := p.layout.Seats[first:]
	switch {
	case len(seats) == 0:
		return &LayoutError{Line: n, Msg: fmt.Sprintf("row %s has no seats.", label)}
	case len(p.layout.Seats) > maxLayoutSeats:
		return &LayoutError{Line: n, Msg: fmt.Sprintf("a layout can have at most %d seats; with row %s this one has %d.", maxLayoutSeats, label, len(p.layout.Seats))}
	case accessible && len(cats) == 0:
		return &LayoutError{Line: n, Msg: fmt.Sprintf("row %s has only wheelchair spaces and companion seats; it needs a seat of some category too, whose price they take.", label)}
	case accessible && len(cats) > 1:
		return &LayoutError{Line: n, Col: catCol, Msg: fmt.Sprintf("row %s has wheelchair spaces or companion seats, so all its seats must be of one category; it has %s.", label, listLetters(cats, "and"))}
	}
	for i := range seats {
		c := cats[0]
		if s := seats[i].Category; s != "W" && s != "+" {
			c = s[0]
		}
		k := p.letters[c]
		seats[i].Category = p.layout.Categories[k].Name
		p.used[k] = true
	}
	return nil
}

func (p *layoutParser) undeclared(c byte) string {
	switch letters := p.categoryLetters(); len(letters) {
	case 0:
		return fmt.Sprintf("\"%c\" is not a category, and there are none yet: add a line such as \"%c = Classic\".", c, c)
	case 1:
		return fmt.Sprintf("\"%c\" is not a category; the only category is %s.", c, letters)
	default:
		return fmt.Sprintf("\"%c\" is not a category; the categories are %s.", c, listLetters(letters, "and"))
	}
}

func (p *layoutParser) placeLetters() string {
	if len(p.layout.Categories) == 0 {
		return "a category letter"
	}
	return "a category letter (" + listLetters(p.categoryLetters(), "or") + ")"
}

func (p *layoutParser) categoryLetters() []byte {
	letters := make([]byte, len(p.layout.Categories))
	for i, c := range p.layout.Categories {
		letters[i] = c.Letter
	}
	return letters
}

func (p *layoutParser) finish() (Layout, error) {
	if len(p.rowLine) == 0 {
		return Layout{}, &LayoutError{Msg: "The layout has no rows yet: add a line for each row, such as \"A  CCCC.CCCC\"."}
	}
	for i, c := range p.layout.Categories {
		if !p.used[i] {
			return Layout{}, &LayoutError{Line: p.declLine[i], Msg: fmt.Sprintf("no row has %s seats; put %c in a row, or remove this line.", c.Name, c.Letter)}
		}
	}
	return p.layout, nil
}

// labelLen is the number of capital letters line starts with.
func labelLen(line string) int {
	n := 0
	for n < len(line) && 'A' <= line[n] && line[n] <= 'Z' {
		n++
	}
	return n
}

func spaces(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// listLetters writes "C", "C and P", "C, P and R" (or another conjunction).
func listLetters(letters []byte, conj string) string {
	s := make([]string, len(letters))
	for i, c := range letters {
		s[i] = string(c)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + conj + " " + s[len(s)-1]
}

// quoteRune shows the first character of s to a person: "x", or its code
// when it cannot be seen.
func quoteRune(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	if r == ' ' || !unicode.IsPrint(r) {
		return fmt.Sprintf("the invisible character U+%04X", r)
	}
	return `"` + string(r) + `"`
}
