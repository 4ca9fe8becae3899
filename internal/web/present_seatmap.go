package web

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
)

// The seat map as its viewer sees it: its head, its bands, rows and seats,
// and the ETag that names what it shows.

// selection is what the viewer asked for in a hold that did not go through:
// it stays chosen on the map, minus the seats that were taken.
type selection struct {
	chosen    map[string]bool // nil: the viewer's own hold is the selection
	conflicts map[string]bool
	suggested map[string]bool // best available's block
	notice    *model.Notice
	mode      string                          // model.SeatMap's Mode: "", "admin" or "preview"
	bookings  map[string]booking.BookingState // admin map of a cancelled show: its bookings' states
}

func setOf(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// seatMapModel draws sm for its viewer, in loc's language. Rows follow
// GridRow; within a row a jump in GridCol becomes gaps (an aisle), and
// every row spans the same columns so that they line up. Consecutive rows
// of one category form a band.
func (s *Server) seatMapModel(loc *i18n.Localizer, sm booking.SeatMap, sel selection) model.SeatMap {
	m := s.seatMapHead(loc, sm, sel)
	s.drawSeats(loc, &m, sm, sel)
	return m
}

// seatMapHead is what the seat map shows besides its seats.
func (s *Server) seatMapHead(loc *i18n.Localizer, sm booking.SeatMap, sel selection) model.SeatMap {
	m := model.SeatMap{
		Show:        s.showModelIn(loc, sm.Show),
		FormAction:  holdsURL(sm.Show.ID),
		FragmentURL: seatsURL(sm.Show.ID),
		MapURL:      showURL(sm.Show.ID),
		ListURL:     showURL(sm.Show.ID) + "?view=list",
		ETag:        seatMapETag(sm, loc.Lang),
		ServerNow:   serverNow(sm.At.Now),
		MaxSeats:    s.svc.MaxSeats(),
		Currency:    sm.Show.Currency,
		Notice:      sel.notice,
		Best:        model.BestForm{Action: showURL(sm.Show.ID)},
	}
	for n := 1; n <= s.svc.MaxSeats(); n++ {
		m.Best.Parties = append(m.Best.Parties, n)
	}
	if err := sm.Show.CheckOnSale(sm.At); err != nil {
		m.ClosedReason = holdText(loc, err)
	} else if sm.Show.OnlineClosedAt(booking.CountAvailableOnline(sm.Seats, sm.At)) {
		// The online cut-off (SPEC §16): the last seats are the counter's.
		m.ClosedReason = holdText(loc, booking.ErrOnlineCutoff)
	} else {
		m.OnSale = true
	}
	if sm.Show.NotOpenYet(sm.At.Now) {
		m.OpensAt = sm.Show.SalesOpenAt.Format(time.RFC3339)
	}
	if sm.MyHold != nil {
		m.MyHold = &model.HoldLink{URL: holdURL(sm.MyHold.ID), Seats: strings.Join(sm.MyHold.SeatIDs, ", ")}
	}
	for _, c := range booking.Categories(sm.Seats) {
		m.Categories = append(m.Categories, model.Category{Name: c.Name, Price: moneyText(loc, c.Price, sm.Show.Currency)})
	}
	return m
}

// drawSeats lays sm's seats out on m, in loc's language: its bands, rows
// and cells, and what the legend and the keyboard need to know of them.
func (s *Server) drawSeats(loc *i18n.Localizer, m *model.SeatMap, sm booking.SeatMap, sel selection) {
	m.NoneFree = true
	if len(sm.Seats) == 0 {
		return
	}

	prices := map[booking.Money]string{} // a show has a few prices and hundreds of seats
	price := func(p booking.Money) string {
		if sel.mode == "preview" {
			return "" // a layout has no prices: its shows set them
		}
		text, ok := prices[p]
		if !ok {
			text = moneyText(loc, p, sm.Show.Currency)
			prices[p] = text
		}
		return text
	}
	words := seatWordsOf(loc)
	seats := make([]model.Seat, len(sm.Seats)) // one allocation; cells point into it
	var chosen booking.Money
	next := 0
	for _, cells := range gridRows(sm.Seats) {
		first := firstSeat(cells)
		if len(m.Bands) == 0 || m.Bands[len(m.Bands)-1].Name != first.Category {
			m.Bands = append(m.Bands, model.Band{Name: first.Category, Price: price(first.Price), PriceMinor: int64(first.Price)})
		}
		b := &m.Bands[len(m.Bands)-1]
		row := model.Row{Label: first.Row, Cells: make([]model.Cell, len(cells))}
		for c, st := range cells {
			if st == nil {
				continue // an aisle
			}
			v := &seats[next]
			next++
			*v = s.seatModel(words, sm, *st, price(st.Price), sel)
			v.OwnPrice = v.Price != b.PriceMinor
			row.Cells[c] = model.Cell{Seat: v}
			if !v.Disabled {
				row.Free++
				m.NoneFree = false
			}
			if v.Checked {
				m.Chosen = append(m.Chosen, v.ID)
				chosen += st.Price
			}
			if v.State == string(booking.StateUnavailable) {
				m.Unavailable = true
			}
			switch st.Kind {
			case booking.KindWheelchair:
				m.Wheelchair = true
			case booking.KindCompanion:
				m.Companion = true
			}
		}
		b.Rows = append(b.Rows, row)
	}
	if len(m.Chosen) > 0 {
		m.ChosenTotal = loc.Money(int64(chosen), sm.Show.Currency)
	}
}

// gridRows lays seats, in map order, out as both maps draw them: a row per
// GridRow, each a cell per column from the show's first column to its
// last, nil where no seat is (an aisle), so that columns line up from row
// to row. Seats that share a place stand side by side.
func gridRows(seats []booking.Seat) [][]*booking.Seat {
	if len(seats) == 0 {
		return nil
	}
	minCol, maxCol := seats[0].GridCol, seats[0].GridCol
	for _, st := range seats {
		minCol, maxCol = min(minCol, st.GridCol), max(maxCol, st.GridCol)
	}
	var rows [][]*booking.Seat
	col := 0
	for i := range seats {
		st := &seats[i]
		if i == 0 || st.GridRow != seats[i-1].GridRow {
			if len(rows) > 0 {
				rows[len(rows)-1] = pad(rows[len(rows)-1], col, maxCol)
			}
			rows, col = append(rows, make([]*booking.Seat, 0, maxCol-minCol+1)), minCol
		}
		r := &rows[len(rows)-1]
		*r = append(pad(*r, col, st.GridCol-1), st)
		col = st.GridCol + 1
	}
	rows[len(rows)-1] = pad(rows[len(rows)-1], col, maxCol)
	return rows
}

// pad adds gaps to r for the columns from through to.
func pad(r []*booking.Seat, from, to int) []*booking.Seat {
	for ; from <= to; from++ {
		r = append(r, nil)
	}
	return r
}

// firstSeat is the first seat of a row of gridRows.
func firstSeat(cells []*booking.Seat) *booking.Seat {
	for _, st := range cells {
		if st != nil {
			return st
		}
	}
	return nil // gridRows makes no row without a seat
}

// moneyText is loc.Money of a price, kept: a show's few prices are
// written on every drawing of its map, and x/text's printer allocates
// some twenty times a call. At most moneyTextsMax prices are kept.
func moneyText(loc *i18n.Localizer, p booking.Money, currency string) string {
	k := moneyKey{loc: loc, minor: int64(p), currency: currency}
	if t, ok := moneyTexts.Load(k); ok {
		return t.(string)
	}
	t := loc.Money(int64(p), currency)
	if moneyTextsKept.Load() < moneyTextsMax {
		if _, loaded := moneyTexts.LoadOrStore(k, t); !loaded {
			moneyTextsKept.Add(1)
		}
	}
	return t
}

type moneyKey struct {
	loc      *i18n.Localizer
	minor    int64
	currency string
}

var (
	moneyTexts     sync.Map // moneyKey -> string
	moneyTextsKept atomic.Int64
)

const moneyTextsMax = 4096

// seatWords are the words of a seat in one language: its accessible name
// and its state, compiled once per language (i18n.Pattern), since a map
// names hundreds of seats at every drawing and go-i18n's Localize per seat
// would cost a template execution each.
type seatWords struct {
	name, nameKind       i18n.Pattern // Row, Seat, (Kind,) Category, Price, Status
	preview, previewKind i18n.Pattern // Row, Seat, (Kind,) Category
	held                 i18n.Pattern // Time
	wheelchair           string
	companion            string
	available, mine      string
	sold, unavailable    string
	taken                string
}

// seatWordsByLoc is each Localizer's seatWords.
var seatWordsByLoc sync.Map // *i18n.Localizer -> *seatWords

// seatWordsOf is loc's seatWords, compiled at its first use.
func seatWordsOf(loc *i18n.Localizer) *seatWords {
	if w, ok := seatWordsByLoc.Load(loc); ok {
		return w.(*seatWords)
	}
	w := &seatWords{
		name:        loc.Pattern("seatmap.seat_name", "Row", "Seat", "Category", "Price", "Status"),
		nameKind:    loc.Pattern("seatmap.seat_name_kind", "Row", "Seat", "Kind", "Category", "Price", "Status"),
		preview:     loc.Pattern("seatmap.seat_preview", "Row", "Seat", "Category"),
		previewKind: loc.Pattern("seatmap.seat_preview_kind", "Row", "Seat", "Kind", "Category"),
		held:        loc.Pattern("seatmap.status_held", "Time"),
		wheelchair:  loc.T("seatmap.kind_wheelchair"),
		companion:   loc.T("seatmap.kind_companion"),
		available:   loc.T("seatmap.status_available"),
		mine:        loc.T("seatmap.status_mine"),
		sold:        loc.T("seatmap.status_sold"),
		unavailable: loc.T("seatmap.status_unavailable"),
		taken:       loc.T("seatmap.status_taken"),
	}
	actual, _ := seatWordsByLoc.LoadOrStore(loc, w)
	return actual.(*seatWords)
}

// seatModel is one seat as the viewer sees it, in the words of w;
// priceText is its price in the show's currency.
func (s *Server) seatModel(w *seatWords, sm booking.SeatMap, st booking.Seat, priceText string, sel selection) model.Seat {
	state := sm.State(st)
	v := model.Seat{
		ID: st.ID, Number: strconv.Itoa(st.Number), State: string(state),
		Category: st.Category, Price: int64(st.Price), PriceText: priceText,
		Conflict: sel.conflicts[st.ID], Suggested: sel.suggested[st.ID],
	}
	switch st.Kind {
	case booking.KindWheelchair:
		v.Kind, v.What = string(st.Kind), w.wheelchair
	case booking.KindCompanion:
		v.Kind, v.What = string(st.Kind), w.companion
	}
	switch state {
	case booking.StateAvailable:
		v.Status = w.available
	case booking.StateMine:
		v.Status = w.mine
		v.ExpiresAt = expiryAttr(st.LockExpiresAt(sm.At.TTL))
	case booking.StateHeld:
		exp := st.LockExpiresAt(sm.At.TTL)
		v.Status = w.held.Fill(exp.In(s.showLocation(sm.Show)).Format("15:04")) // the theatre's time, as the show's
		v.ExpiresAt = expiryAttr(exp)
		v.Disabled = true
	case booking.StateBooked:
		v.Status = w.sold
		v.Disabled = true
	case booking.StateUnavailable:
		v.Status = w.unavailable
		v.Disabled = true
	}
	if v.Conflict {
		v.Status = w.taken
	}
	switch sel.mode {
	case "admin":
		s.adminSeat(sm, st, priceText, sel, &v)
	case "preview":
		v.State, v.Status, v.Disabled, v.ExpiresAt = string(booking.StateAvailable), "", false, ""
		if v.What != "" {
			v.Name = w.previewKind.Fill(st.Row, v.Number, v.What, st.Category)
		} else {
			v.Name = w.preview.Fill(st.Row, v.Number, st.Category)
		}
	default:
		if v.What != "" {
			v.Name = w.nameKind.Fill(st.Row, v.Number, v.What, st.Category, priceText, v.Status)
		} else {
			v.Name = w.name.Fill(st.Row, v.Number, st.Category, priceText, v.Status)
		}
	}
	if sel.chosen == nil {
		v.Checked = state == booking.StateMine
	} else {
		v.Checked = sel.chosen[st.ID] && !v.Disabled
	}
	return v
}

// seatMapETag names what the fragment shows at this moment, in lang: the
// state of every seat (with when held seats free up, to the nanosecond)
// and the viewer's hold. For a viewer without a hold it also names the
// grid's HTML (gridCache): the layout of a show never changes. The same
// seats in another language are another fragment, so another ETag (SPEC
// §18): a watcher never gets a 304 for a version in another language.
func seatMapETag(sm booking.SeatMap, lang i18n.Lang) string {
	b := make([]byte, 0, 64+24*len(sm.Seats))
	b = append(append(b, sm.Show.ID...), '\n')
	if lang != i18n.English { // English's ETags are as they were before languages
		b = append(append(append(b, "lang "...), lang...), '\n')
	}
	if sm.MyHold != nil {
		b = append(append(append(b, "mine "...), sm.MyHold.ID...), '\n')
	}
	if sm.Show.OnlineCutoff > 0 {
		// The cut-off decides data-on-sale from the same seats.
		b = strconv.AppendInt(append(b, "cutoff "...), int64(sm.Show.OnlineCutoff), 10)
		b = append(b, '\n')
	}
	for _, st := range sm.Seats {
		state := sm.State(st)
		b = append(append(append(b, st.ID...), ' '), state...)
		if state == booking.StateHeld || state == booking.StateMine {
			b = strconv.AppendInt(append(b, ' '), st.LockedAt.UnixNano(), 10)
		}
		b = append(b, '\n')
	}
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}
