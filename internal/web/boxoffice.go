package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// The box office (SPEC §16): staff and admins sell at the counter on the
// same live seat map as the web site. The counter's holds belong to the
// staff member's session (keyCounter), are exempt from HOLD_RATE and the
// per-address cap, and are sold by Sell, one store step.

const (
	counterPath      = "/admin/boxoffice"
	counterHoldsPath = counterPath + "/holds"
	counterCashUp    = counterPath + "/cashup"
)

// keyCounter is the session's counter owner: the owner of the holds its
// staff member makes at the box office, made at its first counter hold.
const keyCounter = "counter"

func counterHoldURL(holdID string) string       { return counterHoldsPath + "/" + holdID }
func counterBookingURL(bookingID string) string { return counterPath + "/bookings/" + bookingID }
func counterShowURL(showID string) string       { return counterPath + "?show=" + url.QueryEscape(showID) }

// printURL is the printable tickets of a booking (SPEC §16, "Printing").
func printURL(bookingID string) string { return bookingURL(bookingID) + "/print" }

// counterOwner is the session's counter owner, "" before its first
// counter hold.
func (s *Server) counterOwner(c echo.Context) string {
	return s.sessions.GetString(c.Request().Context(), keyCounter)
}

// handleCounter is GET /admin/boxoffice?show=ID(&all=1): the show choice
// (the shows starting within 12 hours or running now; with all=1 every
// show on sale) and the chosen show's live map, the first listed unless
// show names another.
//
// With find (a ticket code or an email address), the page also lists the
// bookings found to print again (counterFind); a find that is neither
// is 422 with why, the rest of the page as without it.
func (s *Server) handleCounter(c echo.Context) error {
	m, err := s.counterModel(c, c.QueryParam("show"), c.QueryParam("all") == "1", selection{})
	if err != nil {
		return err
	}
	status := http.StatusOK
	if c.QueryParams().Has("find") {
		m.Find, err = s.counterFind(c, c.QueryParam("find"))
		if err != nil {
			if status, _, _ = classify(err); status != http.StatusUnprocessableEntity {
				return err
			}
			m.Find.Notice = &model.Notice{Kind: "error", Text: counterFindText(localizer(c), c.QueryParam("find"), err)}
		}
	}
	return s.render(c, status, pages.Counter(m))
}

// counterFind is the counter's search for bookings to print again
// (Service.FindAtCounter) with what each found one is: its show, seats,
// state and channel, its print page when it has tickets, and its box
// office page when it was sold at the counter.
func (s *Server) counterFind(c echo.Context, q string) (model.CounterFind, error) {
	loc := localizer(c)
	q = booking.Truncate(q, 254)
	f := model.CounterFind{Query: q, Asked: true}
	found, err := s.svc.FindAtCounter(c.Request().Context(), q)
	if err != nil {
		return f, err
	}
	for _, fb := range found {
		b := fb.Booking
		row := model.FoundBooking{
			ID: b.ID, State: string(b.State), Channel: string(b.Channel), Method: string(b.Method),
			TicketCode: b.TicketCode, Email: b.Email, Total: loc.Money(int64(b.Amount), b.Currency), Show: s.showModelIn(loc, fb.Show),
			Seats: bookingSeatsIn(loc, b), Created: loc.Date(fb.Show.InZone(b.CreatedAt), "Mon 2 Jan 15:04"),
		}
		if row.Channel == "" {
			row.Channel = string(booking.ChannelOnline)
		}
		if b.State == booking.BookingConfirmed {
			row.PrintURL = printURL(b.ID)
		}
		if b.AtBoxOffice() {
			row.CounterURL = counterBookingURL(b.ID)
		}
		f.Found = append(f.Found, row)
	}
	if len(f.Found) == 0 {
		f.Notice = &model.Notice{Kind: "info", Text: loc.T("counter.found.none")}
	}
	return f, nil
}

// counterModel is the box office's page for show showID ("" for the first
// listed), its map drawn with sel.
func (s *Server) counterModel(c echo.Context, showID string, all bool, sel selection) (model.Counter, error) {
	ctx, loc := c.Request().Context(), localizer(c)
	var (
		list []booking.ShowSummary
		err  error
	)
	if all {
		list, err = s.svc.UpcomingShows(ctx, booking.CounterList)
	} else {
		list, err = s.svc.CounterShows(ctx)
	}
	if err != nil {
		return model.Counter{}, err
	}
	m := model.Counter{
		AdminPage: s.adminPage(c, loc.T("counter.title")), AllShows: all, AllURL: counterPath + "?all=1",
		HoldAction: counterHoldsPath, Notice: sel.notice, CashUpURL: counterCashUp,
	}
	if showID == "" && len(list) > 0 {
		showID = list[0].ID
	}
	listed := false
	for _, sh := range list {
		sm := s.showModelIn(loc, sh.Show)
		listed = listed || sh.ID == showID
		m.Shows = append(m.Shows, model.Option{Value: sh.ID, Label: sm.Time + " " + sm.Date + " · " + sm.Title + " · " + sm.Screen, Selected: sh.ID == showID})
	}
	if showID == "" {
		return m, nil
	}
	owner := s.counterOwner(c)
	sm, err := s.svc.SeatMap(ctx, showID, owner)
	if err != nil {
		return model.Counter{}, err
	}
	sm.Counter = true // house seats are the counter's to sell
	chosen := s.showModelIn(loc, sm.Show)
	if !listed {
		m.Shows = append(m.Shows, model.Option{Value: showID, Label: chosen.Time + " " + chosen.Date + " · " + chosen.Title + " · " + chosen.Screen, Selected: true})
	}
	m.Chosen = &chosen
	m.Map = s.seatMapModel(localizer(c), sm, sel)
	if err := sm.Show.CheckAtCounter(sm.At); err != nil {
		m.Closed = counterText(c, err)
	}
	if sm.MyHold != nil && sm.MyHold.Counter {
		m.MyHoldURL = counterHoldURL(sm.MyHold.ID)
	}
	return m, nil
}

// handleCounterHold is POST /admin/boxoffice/holds, fields show and seat
// repeated: the counter's hold (Service.CounterHold), 303 to its page. A
// seat taken (409) or a choice refused (422) shows the map again with the
// message, the lost seats marked (data-conflict) and the rest still
// ticked; a show the box office no longer sells is 410.
func (s *Server) handleCounterHold(c echo.Context) error {
	ctx := c.Request().Context()
	seats, err := postForm(c, "seat")
	if err != nil {
		return err
	}
	showID := c.FormValue("show")
	if showID == "" {
		return booking.Errorf(booking.EINVALID, "%s", localizer(c).T("counter.choose_show"))
	}
	owner := s.counterOwner(c)
	minted := owner == ""
	if minted {
		owner = "counter-" + booking.NewID()
	}
	holdID, err := s.svc.CounterHold(ctx, showID, owner, seats)
	if err == nil {
		// The session is written only when it gets its counter id: a
		// session already holding it is not rewritten at every hold.
		if minted {
			s.sessions.Put(ctx, keyCounter, owner)
		}
		return redirect(c, counterHoldURL(holdID))
	}
	status, _, _ := classify(err)
	if status != http.StatusConflict && status != http.StatusUnprocessableEntity {
		return err
	}
	m, merr := s.counterModel(c, showID, false, selection{
		chosen:    setOf(seats),
		conflicts: setOf(booking.UnavailableSeats(err)),
		notice:    &model.Notice{Kind: "error", Text: counterText(c, err)},
	})
	if merr != nil {
		return merr
	}
	return s.render(c, status, pages.Counter(m))
}

// handleCounterHoldPage is GET /admin/boxoffice/holds/:holdID: the sale
// form of the session's counter hold; anyone else's is 404.
func (s *Server) handleCounterHoldPage(c echo.Context) error {
	m, err := s.counterHoldModel(c, nil)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.CounterHoldPage(m))
}

// handleCounterTotal is POST /admin/boxoffice/holds/:holdID/total: the
// sale form again with the total of the types chosen and the change from
// the cash tendered, selling nothing (the form's "Update total").
func (s *Server) handleCounterTotal(c echo.Context) error {
	m, err := s.counterHoldModel(c, nil)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.CounterHoldPage(m))
}

// counterHoldModel is the sale form of the session's counter hold, as the
// request filled it, with sellErr (a refused Sell) shown on it.
func (s *Server) counterHoldModel(c echo.Context, sellErr error) (model.CounterHold, error) {
	ctx, loc := c.Request().Context(), localizer(c)
	holdID, owner := c.Param("holdID"), s.counterOwner(c)
	h, err := s.svc.CounterHoldOf(ctx, holdID, owner)
	if err != nil {
		return model.CounterHold{}, err
	}
	// The show and the held seats' categories, not the whole map.
	show, err := s.svc.Show(ctx, h.ShowID)
	if err != nil {
		return model.CounterHold{}, err
	}
	seats, prices, err := s.svc.CheckoutPrices(ctx, h)
	if err != nil {
		return model.CounterHold{}, err
	}
	method := c.FormValue("method")
	if method == "" {
		method = string(booking.MethodCash)
	}
	m := model.CounterHold{
		AdminPage: s.adminPage(c, loc.T("counter.sell.title")), HoldID: h.ID, Show: s.showModelIn(loc, show),
		Method: method, Tendered: c.FormValue("tendered"), Reference: c.FormValue("reference"),
		Reason: c.FormValue("reason"), Email: c.FormValue("email"),
		SellAction: counterHoldURL(h.ID) + "/sell", UpdateAction: counterHoldURL(h.ID) + "/total",
		MapURL: counterShowURL(h.ShowID),
	}
	if err := h.CheckStanding(); err != nil {
		m.Gone = counterText(c, err)
		return m, nil
	}
	var te *booking.TypeChoiceError
	if errors.As(sellErr, &te) {
		m.ErrSeat, m.ErrRule = te.Seat, te.Rule
	}
	if sellErr != nil {
		m.Notice = &model.Notice{Kind: "error", Text: counterText(c, sellErr)}
		m.Lost = booking.UnavailableSeats(sellErr)
	}
	byID := make(map[string]booking.Seat, len(seats))
	for _, seat := range seats {
		byID[seat.ID] = seat
	}
	var total booking.Money
	for _, id := range h.SeatIDs {
		seat := byID[id]
		offered := prices.BoxOfficeTypes(seat.Category)
		chosen := c.FormValue(typeField(id))
		if !offeredType(offered, chosen) {
			chosen, _ = prices.DefaultBoxOfficeType(seat.Category)
		}
		row := model.CheckoutSeat{ID: id, Category: seat.Category, Field: typeField(id), Invalid: m.ErrSeat == id}
		for _, o := range offered {
			row.Types = append(row.Types, model.TypeOption{
				ID: o.Type.ID, Name: o.Type.Name, Note: o.Type.Note,
				Price: loc.Money(int64(o.Price), show.Currency), PriceRaw: strconv.FormatInt(int64(o.Price), 10), Selected: o.Type.ID == chosen,
			})
			if o.Type.ID == chosen {
				price := o.Price
				if method == string(booking.MethodComp) {
					price = 0
				}
				row.Price, total = loc.Money(int64(price), show.Currency), total+price
			}
		}
		m.Seats = append(m.Seats, row)
	}
	m.Total, m.Amount = loc.Money(int64(total), show.Currency), int64(total)
	if method == string(booking.MethodCash) {
		m.Change = changeText(loc, m.Tendered, total, show.Currency)
	}
	return m, nil
}

func offeredType(offered []booking.TypePrice, id string) bool {
	for _, o := range offered {
		if o.Type.ID == id {
			return true
		}
	}
	return false
}

// changeText is the change to give from cash tendered (as typed) for
// total, "" when nothing usable was typed or it does not cover the total.
func changeText(loc *i18n.Localizer, tendered string, total booking.Money, currency string) string {
	if strings.TrimSpace(tendered) == "" {
		return ""
	}
	t, err := booking.ParsePriceIn(strings.TrimSpace(tendered), currency)
	if err != nil || t < total {
		return ""
	}
	return loc.Money(int64(t-total), currency)
}

// handleCounterSell is POST /admin/boxoffice/holds/:holdID/sell, fields
// method, type_<seatID>, email, reference, reason (SPEC §20's box office
// sell): 303 to the sale's booking page. A refused choice is 422 and a
// lost seat 409, both on the sale form with nothing sold; a hold that
// ended or a show the box office no longer sells is 410.
func (s *Server) handleCounterSell(c echo.Context) error {
	ctx := c.Request().Context()
	holdID, owner := c.Param("holdID"), s.counterOwner(c)
	h, err := s.svc.CounterHoldOf(ctx, holdID, owner)
	if err != nil {
		return err
	}
	sale := booking.CounterSale{
		HoldID: h.ID, Owner: owner, SoldBy: currentAdmin(c).Email,
		Method:  booking.Method(booking.Truncate(c.FormValue("method"), 20)),
		CardRef: c.FormValue("reference"), Reason: c.FormValue("reason"),
		Email: c.FormValue("email"), Types: choiceOf(c, h),
		// The booking's mails go out in the counter page's language.
		Lang: string(localizer(c).Lang),
	}
	b, err := s.svc.SellAtCounter(ctx, sale)
	if err != nil {
		status, _, _ := classify(err)
		if status != http.StatusConflict && status != http.StatusUnprocessableEntity {
			return err
		}
		m, merr := s.counterHoldModel(c, err)
		if merr != nil {
			return merr
		}
		return s.render(c, status, pages.CounterHoldPage(m))
	}
	s.log.InfoContext(ctx, "sold at the box office", "booking_id", b.ID, "show_id", b.ShowID, "method", string(b.Method),
		"amount", int64(b.Amount), "staff", sale.SoldBy, "request_id", requestIDOf(c))
	to := counterBookingURL(b.ID) + "?sold=1"
	if b.Method == booking.MethodCash && strings.TrimSpace(c.FormValue("tendered")) != "" {
		to += "&tendered=" + url.QueryEscape(booking.Truncate(c.FormValue("tendered"), 20))
	}
	return redirect(c, to)
}

// handleCounterBooking is GET /admin/boxoffice/bookings/:bookingID: a
// box-office booking with its ticket, print page and refund; the page
// prints the booking's tickets, one per seat, as the print page does;
// after a sale (sold=1) its print dialog opens when JavaScript runs, and
// the change from the cash tendered is shown.
func (s *Server) handleCounterBooking(c echo.Context) error {
	m, err := s.counterBookingModel(c, c.Param("bookingID"))
	if err != nil {
		return err
	}
	if c.QueryParam("sold") == "1" && m.State == string(booking.BookingConfirmed) {
		m.AutoPrint = true
		if m.Method == string(booking.MethodCash) {
			m.Change = changeText(localizer(c), c.QueryParam("tendered"), booking.Money(m.Amount), m.currency)
		}
	}
	return s.render(c, http.StatusOK, pages.CounterBookingPage(m.CounterBooking))
}

// counterBooking is the page's model with what the handler still needs.
type counterBooking struct {
	model.CounterBooking
	currency string
}

func (s *Server) counterBookingModel(c echo.Context, bookingID string) (counterBooking, error) {
	b, show, err := s.svc.CounterBooking(c.Request().Context(), bookingID)
	if err != nil {
		return counterBooking{}, err
	}
	loc := localizer(c)
	m := model.CounterBooking{
		AdminPage: s.adminPage(c, loc.T("counter.sale.title")),
		ID:        b.ID, State: string(b.State), Channel: string(b.Channel), Method: string(b.Method),
		Amount: int64(b.Amount), Total: loc.Money(int64(b.Amount), b.Currency), Seats: bookingSeatsIn(loc, b), Show: s.showModelIn(loc, show),
		SoldBy: b.SoldBy, CardRef: b.CardRef, CompReason: b.CompReason, Email: b.Email,
		PrintURL: printURL(b.ID), RefundAction: counterBookingURL(b.ID) + "/refund",
		RefundMethod: string(b.RefundMethod), RefundedBy: b.RefundedBy, Reason: reasonText(localizer(c), b.Reason),
		NewSaleURL: counterShowURL(b.ShowID),
		CanRefund:  b.State == booking.BookingConfirmed || b.State == booking.BookingRefundDue,
	}
	if !b.RefundedAt.IsZero() {
		t := show.InZone(b.RefundedAt)
		m.RefundedAt = loc.Date(t, "Mon 2 Jan 15:04 MST")
	}
	if b.State == booking.BookingConfirmed {
		// The print page's tickets, which the page prints (print media):
		// their QR code is the one to scan from the screen too.
		p, err := s.printModel(c, b, show)
		if err != nil {
			return counterBooking{}, err
		}
		p.Page, p.AutoPrint = m.Page, false
		m.TicketCode, m.QR, m.Print = p.TicketCode, p.QR, &p
	}
	return counterBooking{CounterBooking: m, currency: b.Currency}, nil
}

// handleCounterRefund is POST /admin/boxoffice/bookings/:bookingID/refund,
// field method (the sale's when empty): the refund at the counter, 303 to
// the booking's page. A refusal (409: admitted, online, refunded already,
// after the start) is the booking's page with the message.
func (s *Server) handleCounterRefund(c echo.Context) error {
	ctx := c.Request().Context()
	bookingID := c.Param("bookingID")
	adm := currentAdmin(c)
	method := booking.Method(booking.Truncate(c.FormValue("method"), 20))
	b, err := s.svc.CounterRefund(ctx, bookingID, adm.Email, method)
	if err != nil {
		status, _, _ := classify(err)
		if status != http.StatusConflict && status != http.StatusUnprocessableEntity {
			return err
		}
		m, merr := s.counterBookingModel(c, bookingID)
		if errors.Is(merr, booking.ErrBookingNotFound) {
			return err // an online booking: the refusal says where to refund it
		}
		if merr != nil {
			return merr
		}
		m.Notice = &model.Notice{Kind: "error", Text: counterText(c, err)}
		return s.render(c, status, pages.CounterBookingPage(m.CounterBooking))
	}
	s.log.InfoContext(ctx, "refunded at the box office", "booking_id", b.ID, "method", string(b.RefundMethod),
		"amount", int64(b.Amount), "staff", adm.Email, "request_id", requestIDOf(c))
	return redirect(c, counterBookingURL(b.ID))
}
