package booking

import (
	"fmt"
	"slices"
	"sort"
)

// BestRequest is what "best available" is asked for (SPEC §13): a party
// of Party seats, of one Category when it is set, around a wheelchair space
// when Wheelchair is set.
type BestRequest struct {
	Party      int
	Category   string
	Wheelchair bool
}

// MaxCompanions is the most companion seats held with a wheelchair space.
const MaxCompanions = 3

// Block is a run of adjacent seats in one row, without an aisle between
// them, in seat order.
type Block []Seat

// IDs are the block's seat ids.
func (b Block) IDs() []string {
	ids := make([]string, len(b))
	for i, s := range b {
		ids[i] = s.ID
	}
	return ids
}

// Segments cuts a show's seats into runs of adjacent seats: the seats of a
// row between two aisles (a gap in GridCol) or the row's ends, left to
// right, rows from the screen back.
func Segments(seats []Seat) []Block {
	sorted := slices.Clone(seats)
	sort.Slice(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.GridRow != b.GridRow {
			return a.GridRow < b.GridRow
		}
		return a.GridCol < b.GridCol
	})
	var segs []Block
	for i, s := range sorted {
		if i == 0 || s.GridRow != sorted[i-1].GridRow || s.GridCol != sorted[i-1].GridCol+1 {
			segs = append(segs, Block{})
		}
		segs[len(segs)-1] = append(segs[len(segs)-1], s)
	}
	return segs
}

// SingleGap is the seat that taking block (a run of seg) would leave alone
// free: a free seat between the block and a taken seat, an aisle or the
// row's end. It returns "" when there is none. free says which seats are
// free, the block's own before it is taken.
func SingleGap(seg Block, start, n int, free func(Seat) bool) string {
	isFree := func(i int) bool { return i >= 0 && i < len(seg) && free(seg[i]) }
	if l := start - 1; isFree(l) && !isFree(l-1) {
		return seg[l].ID
	}
	if r := start + n; isFree(r) && !isFree(r+1) {
		return seg[r].ID
	}
	return ""
}

// bestPlace is where a block sits relative to the best spot of the hall:
// the centre of the row with index ⌊2R/3⌋ of the R rows, counted from 0 at
// the screen.
type bestPlace struct {
	dist  float64 // squared distance from the best spot, in seats and rows
	dRow  int     // rows from the best row
	col   int     // the block's first column: further left wins a tie
	gap   bool    // the block leaves a single seat alone
	extra bool    // the block uses companion seats without a wheelchair space
}

// better orders places: no single gap left, no companion seats taken from
// those who need them, then nearest the best spot, then the row nearer the
// best row, then further left.
func (p bestPlace) better(q bestPlace) bool {
	switch {
	case p.extra != q.extra:
		return !p.extra
	case p.gap != q.gap:
		return !p.gap
	case p.dist != q.dist:
		return p.dist < q.dist
	case p.dRow != q.dRow:
		return p.dRow < q.dRow
	}
	return p.col < q.col
}

// BestBlock chooses the best block for r among seats, free saying which
// may be taken (available by the seat rule, or the viewer's own): adjacent
// seats in one row, no aisle between, of the category asked for;
// preferring blocks that leave no seat alone and companion seats kept for
// wheelchair users; then nearest the centre of the row ⌊2R/3⌋, the row
// nearer it, the block further left. A wheelchair request is one
// wheelchair space and, for the rest of the party, its companion seats.
// ok is false when no block exists.
func BestBlock(seats []Seat, r BestRequest, free func(Seat) bool) (Block, bool) {
	var best candidate
	for _, c := range candidates(seats, r, free) {
		if best.block == nil || c.at.better(best.at) {
			best = c
		}
	}
	return slices.Clone(best.block), best.block != nil
}

// candidate is a block that may be offered, and where it sits.
type candidate struct {
	block Block
	at    bestPlace
}

// candidates are every block that may be offered for r.
func candidates(seats []Seat, r BestRequest, free func(Seat) bool) []candidate {
	if r.Party < 1 || (r.Wheelchair && r.Party > 1+MaxCompanions) {
		return nil
	}
	segs := Segments(seats)
	var rows []int
	for _, seg := range segs {
		if len(rows) == 0 || rows[len(rows)-1] != seg[0].GridRow {
			rows = append(rows, seg[0].GridRow)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	bestRowIdx := 2 * len(rows) / 3
	bestRow := rows[bestRowIdx]
	lo, hi := -1, -1
	for _, seg := range segs {
		if seg[0].GridRow != bestRow {
			continue
		}
		if lo < 0 || seg[0].GridCol < lo {
			lo = seg[0].GridCol
		}
		hi = max(hi, seg[len(seg)-1].GridCol)
	}
	centre := float64(lo+hi) / 2
	rowIdx := make(map[int]int, len(rows))
	for i, row := range rows {
		rowIdx[row] = i
	}
	var out []candidate
	for _, seg := range segs {
		for start := 0; start+r.Party <= len(seg); start++ {
			block := seg[start : start+r.Party]
			extra, ok := fits(block, r, free)
			if !ok {
				continue
			}
			dRow := rowIdx[seg[0].GridRow] - bestRowIdx
			dx := float64(block[0].GridCol+block[len(block)-1].GridCol)/2 - centre
			out = append(out, candidate{block: block, at: bestPlace{
				dist: dx*dx + float64(dRow*dRow), dRow: abs(dRow), col: block[0].GridCol,
				gap: SingleGap(seg, start, r.Party, free) != "", extra: extra,
			}})
		}
	}
	return out
}

// fits says whether block may be offered for r, and whether it takes
// companion seats from those who need them (extra).
func fits(block Block, r BestRequest, free func(Seat) bool) (extra, ok bool) {
	wheelchairs := 0
	for _, s := range block {
		if !free(s) || (r.Category != "" && s.Category != r.Category) {
			return false, false
		}
		switch s.Kind {
		case KindWheelchair:
			wheelchairs++
		case KindCompanion:
			extra = !r.Wheelchair
		default:
			if r.Wheelchair {
				return false, false // a wheelchair space goes with its companion seats
			}
		}
	}
	if r.Wheelchair {
		return false, wheelchairs == 1
	}
	return extra, wheelchairs == 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// BestAvailable is BestBlock on sm for its viewer: a seat is free when it
// is available by the seat rule or the viewer's own. A party of 1 to
// MAX_SEATS is asked for, else EINVALID; ok is false when no block exists.
func (s *Service) BestAvailable(sm SeatMap, r BestRequest) (Block, bool, error) {
	if err := CheckBestRequest(r, s.maxSeats); err != nil {
		return nil, false, err
	}
	free := func(st Seat) bool {
		state := sm.State(st)
		return state == StateAvailable || state == StateMine
	}
	b, ok := BestBlock(sm.Seats, r, free)
	return b, ok, nil
}

// ErrNoBlock is a one-step best hold (BestHoldStep) that found no block
// for the party free: the seats changed since the moviegoer looked.
var ErrNoBlock = &Error{Code: ECONFLICT, Key: "no_block", Message: "There are no longer that many seats together free. Choose seats on the map, or ask for fewer together."}

// noBlockError is ErrNoBlock, or its message for a category or a
// wheelchair space.
func noBlockError(r BestRequest) error {
	switch {
	case r.Wheelchair:
		return Keyed(ECONFLICT, "no_wheelchair_block", fmt.Sprintf("No wheelchair space with %d companion seats is free any more. Choose seats on the map, or ask for fewer together.", r.Party-1),
			"Count", r.Party-1)
	case r.Category != "":
		return Keyed(ECONFLICT, "no_category_block", fmt.Sprintf("There are no longer %d seats together free in %s. Choose seats on the map, another category, or fewer together.", r.Party, r.Category),
			"Count", r.Party, "Category", r.Category)
	}
	return ErrNoBlock
}

// CheckBestCategory refuses a best-available request for a category none of
// the show's seats has (422).
func CheckBestCategory(seats []Seat, r BestRequest) error {
	if r.Category == "" || slices.ContainsFunc(seats, func(s Seat) bool { return s.Category == r.Category }) {
		return nil
	}
	q := fmt.Sprintf("%q", Truncate(r.Category, 40))
	return InvalidFields{{Field: "category", Message: "This show has no category " + q + ".", Key: "no_category", Args: []any{"Category", q}}}
}

// CheckBestRequest refuses a party of fewer than 1 or more than maxSeats
// seats, and a wheelchair space with more companions than it has (422).
func CheckBestRequest(r BestRequest, maxSeats int) error {
	switch {
	case r.Party < 1 || r.Party > maxSeats:
		return InvalidFields{{Field: "best", Message: fmt.Sprintf("Choose a party of 1 to %d seats.", maxSeats),
			Key: "party_size", Args: []any{"Max", maxSeats}}}
	case r.Wheelchair && r.Party > 1+MaxCompanions:
		return InvalidFields{{Field: "best", Message: fmt.Sprintf("A wheelchair space comes with at most %d companion seats: choose a party of 1 to %d.", MaxCompanions, 1+MaxCompanions),
			Key: "wheelchair_party", Args: []any{"Count", MaxCompanions, "Max", 1 + MaxCompanions}}}
	}
	return nil
}
