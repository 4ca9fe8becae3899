package web

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
)

// This file turns domain values into view models: every decision about how a
// seat, a price or a time is shown to a person is made here, once.

func showURL(showID string) string  { return "/shows/" + showID }
func seatsURL(showID string) string { return "/shows/" + showID + "/seats" }
func holdsURL(showID string) string { return "/shows/" + showID + "/holds" }
func holdURL(holdID string) string  { return "/holds/" + holdID }

func (s *Server) showModel(sh booking.Show) model.Show {
	t, zone := s.showClock(sh)
	return model.Show{
		Zone: zone,
		ID:   sh.ID, URL: showURL(sh.ID),
		Title: sh.Movie.Title, Rating: sh.Movie.Rating, Language: sh.Movie.Language,
		Runtime: runtime(sh.Movie.RuntimeMin),
		Theatre: sh.Theatre.Name, City: sh.Theatre.City, Screen: sh.Screen,
		Date: t.Format("Mon 2 Jan"), Time: t.Format("15:04"), StartsAt: sh.StartsAt.Format(time.RFC3339),
		State: showState(sh),
	}
}

// showLocation is the zone a show's times are given in: its theatre's,
// or the server's (TZ) for a show whose theatre has none.
func (s *Server) showLocation(sh booking.Show) *time.Location {
	if loc, err := s.zones.load(sh.Theatre.TimeZone); err == nil {
		return loc
	}
	return s.loc
}

// showClock is the show's start in its theatre's zone, with the zone's
// name when it is not the server's (TZ), so that the page says whose time
// it is.
func (s *Server) showClock(sh booking.Show) (time.Time, string) {
	t := sh.StartsAt.In(s.showLocation(sh))
	name, _ := t.Zone()
	if def, _ := sh.StartsAt.In(s.loc).Zone(); name == def {
		name = ""
	}
	return t, name
}

// showState is data-show-state.
func showState(sh booking.Show) string {
	if sh.Cancelled() {
		return "cancelled"
	}
	return "scheduled"
}

func runtime(min int) string {
	switch {
	case min <= 0:
		return ""
	case min < 60:
		return fmt.Sprintf("%dm", min)
	case min%60 == 0:
		return fmt.Sprintf("%dh", min/60)
	default:
		return fmt.Sprintf("%dh %dm", min/60, min%60)
	}
}

// selection is what the viewer asked for in a hold that did not go through:
// it stays chosen on the map, minus the seats that were taken.
type selection struct {
	chosen    map[string]bool // nil: the viewer's own hold is the selection
	conflicts map[string]bool
	suggested map[string]bool // best available's block
	notice    *model.Notice
}

func setOf(ids []string) map[string]bool {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	return m
}

// seatMapModel draws sm for its viewer. Rows follow GridRow; within a row a
// jump in GridCol becomes gaps (an aisle), and every row spans the same
// columns so that they line up. Consecutive rows of one category form a band.
func (s *Server) seatMapModel(sm booking.SeatMap, sel selection) model.SeatMap {
	m := s.seatMapHead(sm, sel)
	s.drawSeats(&m, sm, sel)
	return m
}

// seatMapHead is what the seat map shows besides its seats.
func (s *Server) seatMapHead(sm booking.SeatMap, sel selection) model.SeatMap {
	m := model.SeatMap{
		Show:        s.showModel(sm.Show),
		FormAction:  holdsURL(sm.Show.ID),
		FragmentURL: seatsURL(sm.Show.ID),
		MapURL:      showURL(sm.Show.ID),
		ListURL:     showURL(sm.Show.ID) + "?view=list",
		ETag:        seatMapETag(sm),
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
		m.ClosedReason = booking.ErrorMessage(err)
	} else {
		m.OnSale = true
	}
	if sm.MyHold != nil {
		m.MyHold = &model.HoldLink{URL: holdURL(sm.MyHold.ID), Seats: strings.Join(sm.MyHold.SeatIDs, ", ")}
	}
	for _, c := range booking.Categories(sm.Seats) {
		m.Categories = append(m.Categories, model.Category{Name: c.Name, Price: c.Price.Format(sm.Show.Currency)})
	}
	return m
}

// drawSeats lays sm's seats out on m: its bands, rows and cells, and what
// the legend and the keyboard need to know of them.
func (s *Server) drawSeats(m *model.SeatMap, sm booking.SeatMap, sel selection) {
	m.NoneFree = true
	if len(sm.Seats) == 0 {
		return
	}

	prices := map[booking.Money]string{} // a show has a few prices and hundreds of seats
	price := func(p booking.Money) string {
		text, ok := prices[p]
		if !ok {
			text = p.Format(sm.Show.Currency)
			prices[p] = text
		}
		return text
	}
	seats := make([]model.Seat, len(sm.Seats)) // one allocation; cells point into it
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
			*v = s.seatModel(sm, *st, price(st.Price), sel)
			v.OwnPrice = v.Price != b.PriceMinor
			row.Cells[c] = model.Cell{Seat: v}
			if !v.Disabled {
				row.Free++
				m.NoneFree = false
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

// seatModel is one seat as the viewer sees it; priceText is its price in
// the show's currency.
func (s *Server) seatModel(sm booking.SeatMap, st booking.Seat, priceText string, sel selection) model.Seat {
	state := sm.State(st)
	v := model.Seat{
		ID: st.ID, Number: strconv.Itoa(st.Number), State: string(state),
		Category: st.Category, Price: int64(st.Price), PriceText: priceText,
		Conflict: sel.conflicts[st.ID], Suggested: sel.suggested[st.ID],
	}
	switch st.Kind {
	case booking.KindWheelchair:
		v.Kind, v.What = string(st.Kind), "wheelchair space, "
	case booking.KindCompanion:
		v.Kind, v.What = string(st.Kind), "companion seat, "
	}
	switch state {
	case booking.StateAvailable:
		v.Status = "available"
	case booking.StateMine:
		v.Status = "held for you"
		v.ExpiresAt = expiryAttr(st.LockExpiresAt(sm.At.TTL))
	case booking.StateHeld:
		exp := st.LockExpiresAt(sm.At.TTL)
		v.Status = "held · may free at " + exp.In(s.showLocation(sm.Show)).Format("15:04") // the theatre's time, as the show's
		v.ExpiresAt = expiryAttr(exp)
		v.Disabled = true
	case booking.StateBooked:
		v.Status = "sold"
		v.Disabled = true
	}
	if v.Conflict {
		v.Status = "just taken by someone else"
	}
	v.Name = "Row " + st.Row + ", seat " + v.Number + ", " + v.What + st.Category + ", " + priceText + ", " + v.Status
	v.What = strings.TrimSuffix(v.What, ", ")
	if sel.chosen == nil {
		v.Checked = state == booking.StateMine
	} else {
		v.Checked = sel.chosen[st.ID] && !v.Disabled
	}
	return v
}

// serverNow formats the server's clock for the page's scripts, which keep
// the offset of the device's clock from it: a phone whose clock is minutes
// fast must not free held seats, or end a countdown, before the server does.
func serverNow(t time.Time) string { return t.UTC().Format(rfc3339Milli) }

// rfc3339Milli is RFC 3339 with milliseconds: every time the page's script
// compares (SPEC §14).
const rfc3339Milli = "2006-01-02T15:04:05.000Z07:00"

// expiryAttr is an expiry for data-expires-at: to the millisecond, rounded
// up, so that the page never frees a seat before the server does.
func expiryAttr(t time.Time) string {
	return t.UTC().Add(time.Millisecond - time.Nanosecond).Truncate(time.Millisecond).Format(rfc3339Milli)
}

// seatMapETag names what the fragment shows at this moment: the state of
// every seat (with when held seats free up, to the nanosecond) and the
// viewer's hold. For a viewer without a hold it also names the grid's HTML
// (gridCache): the layout of a show never changes.
func seatMapETag(sm booking.SeatMap) string {
	b := make([]byte, 0, 64+24*len(sm.Seats))
	b = append(append(b, sm.Show.ID...), '\n')
	if sm.MyHold != nil {
		b = append(append(append(b, "mine "...), sm.MyHold.ID...), '\n')
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

func (s *Server) checkoutModel(sm booking.SeatMap, h booking.Hold, gone error) model.Checkout {
	byID := make(map[string]booking.Seat, len(sm.Seats))
	for _, st := range sm.Seats {
		byID[st.ID] = st
	}
	m := model.Checkout{
		Show:          s.showModel(sm.Show),
		HoldID:        h.ID,
		Amount:        int64(h.Amount),
		Total:         h.Amount.Format(h.Currency),
		ReleaseAction: holdURL(h.ID) + "/release",
		PayAction:     holdURL(h.ID) + "/pay",
		SeatMapURL:    showURL(h.ShowID),
	}
	for _, id := range h.SeatIDs {
		st := byID[id]
		m.Seats = append(m.Seats, model.CheckoutSeat{ID: id, Category: st.Category, Price: st.Price.Format(h.Currency)})
	}
	if gone != nil {
		m.Gone = booking.ErrorMessage(gone)
		return m
	}
	exp := h.ExpiresAt(sm.At.TTL)
	if left := booking.MaxExtensions - h.Extensions; left > 0 {
		m.ExtendAction, m.ExtensionsLeft = holdURL(h.ID)+"/extend", left
	}
	m.ExpiresAt = expiryAttr(exp)
	m.ServerNow = serverNow(sm.At.Now)
	left := max(exp.Sub(sm.At.Now), 0).Round(time.Second)
	m.Remaining = fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60)
	return m
}

// explainPaidHold says on the checkout of a hold a payment completed what
// became of that payment: booked, or due a refund (or refunded) and why,
// with a link to the booking.
func (s *Server) explainPaidHold(ctx context.Context, m *model.Checkout, h booking.Hold, owner string) error {
	b, err := s.svc.PaidBookingOfHold(ctx, h, owner)
	switch {
	case errors.Is(err, booking.ErrBookingNotFound):
		return nil // "already paid for" is all there is to say
	case err != nil:
		return err
	}
	m.BookingURL = bookingURL(b.ID)
	switch b.State {
	case booking.BookingConfirmed:
		m.Gone, m.BookingLabel = "You have paid for these seats, and they are booked.", "See your ticket"
	case booking.BookingRefundDue:
		m.Gone, m.BookingLabel = "Your payment went through, but the seats could not be booked, so it is due back to you (refund due). "+reasonText(b.Reason), "See your booking"
	case booking.BookingRefunded:
		m.Gone, m.BookingLabel = "Your payment went through, but nothing was booked, and it has been refunded. "+reasonText(b.Reason), "See your booking"
	}
	m.Gone = strings.TrimSpace(m.Gone)
	return nil
}

// reasonText is a booking's reason as a person reads it.
func reasonText(reason string) string {
	if reason == booking.ReasonShowCancelled {
		return "The show was cancelled."
	}
	return reason
}

// homeModel groups upcoming shows by movie (soonest first), then day, then
// theatre.
func (s *Server) homeModel(shows []booking.ShowSummary, now time.Time) model.Home {
	var m model.Home
	movieIdx := map[string]int{}
	today := now.In(s.loc)
	for _, sh := range shows {
		mi, ok := movieIdx[sh.Movie.ID]
		if !ok {
			mi = len(m.Movies)
			movieIdx[sh.Movie.ID] = mi
			m.Movies = append(m.Movies, model.Movie{
				Title: sh.Movie.Title, Rating: sh.Movie.Rating, Language: sh.Movie.Language,
				Runtime: runtime(sh.Movie.RuntimeMin),
			})
		}
		mv := &m.Movies[mi]
		local := sh.StartsAt.In(s.showLocation(sh.Show))
		day := dayLabel(local, today.In(local.Location())) // today where the theatre is
		if len(mv.Days) == 0 || mv.Days[len(mv.Days)-1].Label != day {
			mv.Days = append(mv.Days, model.Day{Label: day})
		}
		d := &mv.Days[len(mv.Days)-1]
		ti := -1
		for i, t := range d.Theatres {
			if t.Theatre == sh.Theatre.Name && t.City == sh.Theatre.City {
				ti = i
			}
		}
		if ti < 0 {
			ti = len(d.Theatres)
			d.Theatres = append(d.Theatres, model.TheatreShows{Theatre: sh.Theatre.Name, City: sh.Theatre.City})
		}
		d.Theatres[ti].Shows = append(d.Theatres[ti].Shows, s.showTime(sh))
	}
	return m
}

func (s *Server) showTime(sh booking.ShowSummary) model.ShowTime {
	prices := sh.MinPrice.Format(sh.Currency)
	if sh.MaxPrice != sh.MinPrice {
		prices += "–" + sh.MaxPrice.Format(sh.Currency)
	}
	t, zone := s.showClock(sh.Show)
	return model.ShowTime{
		Zone: zone,
		ID:   sh.ID, URL: showURL(sh.ID), Time: t.Format("15:04"),
		Screen: sh.Screen, PriceRange: prices,
		SeatsLeft: sh.SeatsLeft, SeatsTotal: sh.SeatsTotal,
		SoldOut: sh.SeatsLeft == 0,
		FewLeft: sh.SeatsLeft > 0 && sh.SeatsLeft <= max(5, sh.SeatsTotal/10),
	}
}

func dayLabel(t, today time.Time) string {
	y1, m1, d1 := t.Date()
	y2, m2, d2 := today.Date()
	days := int(time.Date(y1, m1, d1, 0, 0, 0, 0, time.UTC).Sub(time.Date(y2, m2, d2, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	switch days {
	case 0:
		return "Today, " + t.Format("Mon 2 Jan")
	case 1:
		return "Tomorrow, " + t.Format("Mon 2 Jan")
	default:
		return t.Format("Monday 2 Jan")
	}
}

func bookingURL(bookingID string) string { return "/bookings/" + bookingID }

func (s *Server) bookingModel(b booking.Booking, show booking.Show) (model.Booking, error) {
	m := model.Booking{
		ID: b.ID, URL: bookingURL(b.ID), State: string(b.State),
		StatusURL: bookingURL(b.ID) + "/status",
		ETag:      `"` + string(b.State) + `"`,
		Show:      s.showModel(show),
		Seats:     strings.Join(b.SeatIDs, ", "), SeatCount: len(b.SeatIDs),
		Total: b.Amount.Format(b.Currency), Amount: int64(b.Amount),
		Reason: b.Reason, SeatMapURL: showURL(b.ShowID),
		Email: b.Email, Link: s.bookingLink(b),
	}
	m.Reason = reasonText(b.Reason)
	if b.State == booking.BookingPending {
		age := s.svc.Now().Now.Sub(b.CreatedAt)
		m.PollEvery = bookingPollEvery(age).String()
		m.PollSlow = age >= booking.StuckAfter
		// The pace is part of the fragment: when it changes, the poll gets
		// the new fragment (200, not 304) and goes on at the new pace.
		m.ETag = `"` + string(b.State) + "-" + m.PollEvery + `"`
	}
	if b.State == booking.BookingConfirmed {
		q, err := ticketQR(b.TicketCode)
		if err != nil {
			return model.Booking{}, errorf("web: QR code of booking %s: %w", b.ID, err)
		}
		m.TicketCode, m.QR = b.TicketCode, &q
	}
	return m, nil
}

// bookingPollEvery is how often a booking pending for age polls its status:
// every second at first, when the callback usually lands, then less often,
// and from booking.StuckAfter on every bookingPollCeiling for as long as it
// is pending: a poll of a stuck payment is what looks it up at the provider
// (Service.RefreshPending, at most once per booking.LookupEvery), so the
// polling must outlast the wait for its event.
func bookingPollEvery(age time.Duration) time.Duration {
	switch {
	case age < 30*time.Second:
		return time.Second
	case age < 2*time.Minute:
		return 2 * time.Second
	case age < 5*time.Minute:
		return 5 * time.Second
	case age < booking.StuckAfter:
		return 10 * time.Second
	}
	return bookingPollCeiling
}

// bookingPollCeiling is the slowest a pending booking polls: under
// booking.LookupEvery, so that a stuck payment is looked up about once a
// minute while its page is open.
const bookingPollCeiling = 30 * time.Second

// ticketQR encodes a ticket code as a QR code (medium error correction, with
// its quiet zone), as runs of dark modules for the view to draw as SVG.
func ticketQR(code string) (model.QR, error) {
	q, err := qrcode.New(code, qrcode.Medium)
	if err != nil {
		return model.QR{}, err
	}
	bm := q.Bitmap()
	m := model.QR{Size: len(bm)}
	for y, row := range bm {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			m.Runs = append(m.Runs, model.QRRun{X: start, Y: y, W: x - start})
		}
	}
	return m, nil
}
