package web

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
	"boxoffice/views/partials"
)

// handleHoldCreate holds the chosen seats: POST /shows/:showID/holds with
// seat=A1&seat=A2, or the best seats free in one step with best=N (and
// category, wheelchair=1; SPEC §18). Success goes to checkout; a conflict
// (409) or invalid input (422) shows the map again with the message and
// the rest of the choice still selected.
func (s *Server) handleHoldCreate(c echo.Context) error {
	showID := c.Param("showID")
	seats, err := postForm(c, "seat")
	if err != nil {
		return err
	}
	// A visitor without one gets a visitor id, but its session keeps it
	// only once the hold is made: a refused hold, 429 included, stores no
	// session (SPEC §12).
	owner := s.visitor(c)
	if owner == "" {
		owner = booking.NewID()
	}
	best, isBest := c.Request().PostForm["best"]
	var req booking.BestRequest
	if isBest {
		if req, err = bestRequest(best, seats, c.Request().PostForm); err == nil {
			err = booking.CheckBestRequest(req, s.svc.MaxSeats())
		}
	} else {
		err = s.svc.CheckSeatRequest(seats)
	}
	if err == nil {
		if err = s.allowHold(c); err != nil {
			s.metrics.hold(holdRateLimited)
			return err
		}
		var holdID string
		if isBest {
			holdID, seats, err = s.svc.HoldBest(c.Request().Context(), showID, owner, s.holdAddress(c), req)
		} else {
			holdID, err = s.svc.HoldSeatsFrom(c.Request().Context(), showID, owner, s.holdAddress(c), seats)
		}
		if err == nil {
			if s.visitor(c) == "" {
				s.sessions.Put(c.Request().Context(), keyVisitor, owner)
			}
			s.metrics.hold(holdHeld)
			return redirect(c, holdURL(holdID))
		}
	}
	// A conflict (409) or invalid seats (422) answer with the map; anything
	// else, the too-many-held 429 among them, is the error handler's.
	status, _, _ := classify(err)
	switch status {
	case http.StatusConflict:
		s.metrics.hold(holdConflict)
	case http.StatusUnprocessableEntity:
		s.metrics.hold(holdInvalid)
	case http.StatusTooManyRequests:
		s.metrics.hold(holdRateLimited)
		return err
	case http.StatusGone:
		// Sales closed, not open yet, the show cancelled or its online
		// cut-off: the error page says which, in the page's language.
		s.metrics.hold(holdError)
		return &booking.Error{Code: booking.EGONE, Message: holdText(localizer(c), err)}
	default:
		s.metrics.hold(holdError)
		return err
	}

	loc := localizer(c)
	text := holdText(loc, err)
	var paying *booking.PayingError
	if errors.As(err, &paying) {
		// The session is paying for its previous hold (SPEC §2): the
		// answer says for which seats, and leads to its checkout, where
		// Back is.
		if isHTMX(c) {
			h := c.Response().Header()
			h.Set("HX-Retarget", "#seatmap-answer")
			h.Set("HX-Reswap", "innerHTML")
			return s.render(c, status, partials.HoldPaying(text, holdURL(paying.HoldID)))
		}
	} else if status == http.StatusConflict && isBest {
		if isHTMX(c) {
			// The best-hold form's answer: the message alone, where the
			// form asked for it (#seatmap-answer); no map is read or
			// drawn for it, and the map's refresh shows what is left.
			return s.render(c, status, partials.HoldConflict(nil, text))
		}
	} else if status == http.StatusConflict {
		text += " " + loc.T("hold.rest_selected")
		if isHTMX(c) {
			// The page has the map: the answer names the lost seats
			// only, seatmap.js marks them, and the next refresh brings the
			// rest. No map is read or drawn for it.
			h := c.Response().Header()
			h.Set("HX-Retarget", "#seatmap-answer")
			h.Set("HX-Reswap", "innerHTML")
			return s.render(c, status, partials.HoldConflict(booking.UnavailableSeats(err), text))
		}
	}
	sm, serr := s.svc.SeatMap(c.Request().Context(), showID, owner)
	if serr != nil {
		return serr
	}
	sel := selection{
		chosen:    setOf(seats),
		conflicts: setOf(booking.UnavailableSeats(err)),
		notice:    &model.Notice{Kind: "error", Text: text},
	}
	var gap *booking.GapError
	if errors.As(err, &gap) {
		// The nearest choice that leaves no seat alone, ticked: one press
		// of Hold takes it.
		sel.chosen, sel.suggested = setOf(gap.Suggestion), setOf(gap.Suggestion)
	}
	m := s.seatMapModel(loc, sm, sel)
	if gap != nil {
		m.GapSeat = gap.Seat
	}
	if paying != nil {
		m.PayingURL = holdURL(paying.HoldID)
	}
	if isHTMX(c) {
		if isBest {
			// The best-hold form targets #seatmap-answer; the map it
			// answers with replaces the map.
			h := c.Response().Header()
			h.Set("HX-Retarget", "#seatmap")
			h.Set("HX-Reswap", "outerHTML")
		}
		return s.render(c, status, partials.SeatMap(m))
	}
	m.List = c.Request().PostForm.Get("view") == "list"
	m.Page = s.page(c, sm.Show.Movie.Title)
	return s.render(c, status, pages.SeatMap(m))
}

// bestRequest reads a one-step best hold's fields: best=N, and no seat
// with it (422 otherwise).
func bestRequest(best, seats []string, form url.Values) (booking.BestRequest, error) {
	if len(seats) > 0 {
		return booking.BestRequest{}, booking.InvalidFields{{Field: "best", Key: "best_and_seats",
			Message: "Ask for the best seats, or choose seats: not both at once."}}
	}
	party, err := strconv.Atoi(strings.TrimSpace(best[0]))
	if err != nil || len(best) > 1 {
		party = 0 // Service.HoldBest names the problem
	}
	return booking.BestRequest{
		Party:      party,
		Category:   booking.Truncate(strings.TrimSpace(form.Get("category")), 40),
		Wheelchair: form.Get("wheelchair") != "",
	}, nil
}

// postForm returns the values of key in the request's body, url-encoded or
// multipart; never the query string's, so that a link can't choose seats.
func postForm(c echo.Context, key string) ([]string, error) {
	r := c.Request()
	if err := r.ParseMultipartForm(multipartMemory); err != nil && !errors.Is(err, http.ErrNotMultipart) {
		return nil, echo.NewHTTPError(http.StatusBadRequest)
	}
	return r.PostForm[key], nil
}

// multipartMemory bounds a multipart form in memory; the body limit is
// smaller still.
const multipartMemory = 64 << 10

// handleHoldExtend is "More time": POST /holds/:holdID/extend, 303 to the
// checkout with a later data-expires-at; 409 once the hold had it twice;
// 410 when the hold is gone or its sales closed (the checkout says why).
func (s *Server) handleHoldExtend(c echo.Context) error {
	holdID, owner := c.Param("holdID"), s.visitor(c)
	_, err := s.svc.ExtendHold(c.Request().Context(), holdID, owner)
	switch {
	case err == nil:
		return redirect(c, holdURL(holdID)+"?extended=1")
	case booking.ErrorCode(err) == booking.EGONE && !isHTMX(c):
		return s.showCheckout(c, holdID, owner, nil)
	}
	return err
}

// handleHold is checkout: GET /holds/:holdID, for its owner only. A hold that
// can no longer be paid for says why (410).
func (s *Server) handleHold(c echo.Context) error {
	return s.showCheckout(c, c.Param("holdID"), s.visitor(c), nil)
}

// showCheckout renders owner's hold holdID: 200 when it can be paid for,
// 410 with why when not, and 422 with what is wrong when Pay refused the
// address or the choice of types (refused). The types shown chosen are the
// request's (type_<seatID>), else those of the hold's pending payment,
// else each category's first.
func (s *Server) showCheckout(c echo.Context, holdID, owner string, refused error) error {
	ctx := c.Request().Context()
	m, status, err := s.checkoutOf(c, holdID, owner)
	if err != nil {
		return err
	}
	m.Page = s.page(c, localizer(c).T("checkout.title"))
	m.Extended = c.QueryParam("extended") != "" && status == http.StatusOK
	m.Email = s.sessions.GetString(ctx, keyEmail)
	if e := c.FormValue("email"); e != "" && c.Request().Method == http.MethodPost {
		m.Email = booking.Truncate(e, 254)
	}
	var ce *booking.TypeChoiceError
	switch {
	case status != http.StatusOK:
	case errors.As(refused, &ce):
		status = http.StatusUnprocessableEntity
		m.TypeErr, m.TypeErrSeat, m.TypeErrRule = ce.Message, ce.Seat, ce.Rule
		for i := range m.Seats {
			m.Seats[i].Invalid = m.Seats[i].ID == ce.Seat
		}
	case refused != nil:
		status = http.StatusUnprocessableEntity
		m.EmailErr = booking.ErrorMessage(refused)
	}
	return s.render(c, status, pages.Checkout(m))
}

// checkoutOf is the checkout of owner's hold holdID as the request asks
// for it, and its status: 410 when the hold can no longer be paid for.
func (s *Server) checkoutOf(c echo.Context, holdID, owner string) (model.Checkout, int, error) {
	ctx := c.Request().Context()
	h, err := s.svc.Hold(ctx, holdID, owner)
	if err != nil {
		return model.Checkout{}, 0, err
	}
	// The show and the held seats with what they sell at, not the whole
	// seat map: the checkout shows nothing else of it.
	show, err := s.svc.Show(ctx, h.ShowID)
	if err != nil {
		return model.Checkout{}, 0, err
	}
	seats, prices, err := s.svc.CheckoutPrices(ctx, h)
	if err != nil {
		return model.Checkout{}, 0, err
	}
	sm := booking.SeatMap{Show: show, Seats: seats, At: s.svc.Now()}
	// The show first, as the store's Pay step decides: a cancelled show or
	// closed sales is why, whatever became of the hold.
	gone := sm.Show.CheckOnSale(sm.At)
	if gone == nil {
		gone = h.CheckPayable(sm.At)
	}
	asked := choiceOf(c, h)
	var pending []booking.SeatTicket
	if asked == nil && gone == nil {
		if pending, err = s.svc.PendingTickets(ctx, h.ID); err != nil {
			return model.Checkout{}, 0, err
		}
	}
	byID := make(map[string]booking.Seat, len(sm.Seats))
	for _, st := range sm.Seats {
		byID[st.ID] = st
	}
	choice, amount := shownChoice(h, byID, prices, asked, pending)
	if gone != nil {
		amount = h.Amount
	}
	m := s.checkoutModel(localizer(c), sm, h, gone, prices, choice, amount)
	if h.State == booking.HoldCompleted {
		if err := s.explainPaidHold(ctx, localizer(c), &m, h, owner); err != nil {
			return model.Checkout{}, 0, err
		}
	}
	if gone != nil {
		return m, http.StatusGone, nil
	}
	return m, http.StatusOK, nil
}

// handleHoldTotal is GET /holds/:holdID/total: the checkout's total of
// the choice of types the query carries (type_<seatID>), a fragment htmx
// puts in place of the total; POST is the "Update total" button without
// JavaScript, which shows the whole checkout with the choice.
func (s *Server) handleHoldTotal(c echo.Context) error {
	holdID, owner := c.Param("holdID"), s.visitor(c)
	if c.Request().Method == http.MethodPost || !isHTMX(c) {
		return s.showCheckout(c, holdID, owner, nil)
	}
	m, _, err := s.checkoutOf(c, holdID, owner)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, pages.CheckoutTotal(m, true))
}

// handleHoldRelease is Back: POST /holds/:holdID/release frees the seats and
// returns to the seat map.
func (s *Server) handleHoldRelease(c echo.Context) error {
	owner := s.visitor(c)
	if owner == "" {
		return booking.ErrHoldNotFound
	}
	h, err := s.svc.Release(c.Request().Context(), c.Param("holdID"), owner)
	if err != nil {
		return err
	}
	if s.opts.HoldEnded != nil {
		s.opts.HoldEnded()
	}
	// Back keeps the choice (SPEC §5): the map ticks the released seats
	// again, says they were released, and keeps the party size.
	q := url.Values{"seat": h.SeatIDs, "released": {"1"}}
	return redirect(c, showURL(h.ShowID)+"?"+q.Encode())
}
