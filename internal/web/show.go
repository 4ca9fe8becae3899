package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
	"boxoffice/views/pages"
	"boxoffice/views/partials"
)

// handleShow is the seat map page: GET /shows/:showID.
//
// With ?best=N (and &category=NAME, &wheelchair=1) it is the map with the
// best block for a party of N ticked (data-suggested), for the moviegoer to
// change or hold; no block is 200 with a message, a party outside 1 to
// MAX_SEATS 422. With ?view=list it is the seats as a list (SeatList).
func (s *Server) handleShow(c echo.Context) error {
	sm, err := s.svc.SeatMap(c.Request().Context(), c.Param("showID"), s.visitor(c))
	if err != nil {
		return err
	}
	loc := localizer(c)
	status, sel, form := http.StatusOK, selection{}, model.BestForm{}
	if q := c.QueryParams(); q.Has("best") {
		form.Category, form.Wheelchair = booking.Truncate(q.Get("category"), 40), q.Get("wheelchair") != ""
		party, perr := strconv.Atoi(strings.TrimSpace(q.Get("best")))
		if perr != nil {
			party = 0 // BestAvailable names the problem
		}
		form.Party = party
		block, ok, err := s.svc.BestAvailable(sm, booking.BestRequest{Party: party, Category: form.Category, Wheelchair: form.Wheelchair})
		switch {
		case booking.ErrorCode(err) == booking.EINVALID:
			status, form.Error = http.StatusUnprocessableEntity, holdText(loc, err)
			sel.notice = &model.Notice{Kind: "error", Text: form.Error}
		case err != nil:
			return err
		case !ok:
			sel.notice = &model.Notice{Kind: "info", Text: noBlockText(loc, party, form)}
		default:
			ids := block.IDs()
			form.Suggested = true
			sel.chosen, sel.suggested = setOf(ids), setOf(ids)
			sel.notice = &model.Notice{Kind: "info", Text: loc.N("seatmap.best_found", party, "Seats", strings.Join(ids, ", "))}
		}
	}
	var released []string
	if q := c.QueryParams(); q.Has("released") && !q.Has("best") {
		released = releasedSeats(sm, q["seat"], s.svc.MaxSeats())
		if len(released) > 0 {
			sel.chosen, form.Party = setOf(released), len(released)
		}
	}
	var m model.SeatMap
	if sel.chosen == nil && sel.notice == nil && c.QueryParam("view") != "list" {
		if m, err = s.plainSeatMap(c.Request().Context(), sm); err != nil {
			return err
		}
	} else {
		m = s.seatMapModel(loc, sm, sel)
	}
	if len(released) > 0 {
		if n := releasedNotice(loc, released, m.Chosen); c.QueryParam("view") == "list" {
			m.Notice = n
		} else {
			m.Answer = n
		}
	}
	form.Action, form.Parties = m.Best.Action, m.Best.Parties
	m.Best = form
	m.List = c.QueryParam("view") == "list"
	m.Page = s.page(c, sm.Show.Movie.Title)
	m.Best.HoldAction, m.Best.CSRFToken = m.FormAction, m.CSRFToken
	return s.render(c, status, pages.SeatMap(m))
}

// releasedSeats are the seats of ?seat= (Back's redirect: the seats of the
// hold just released) that the show has, each once, at most max of them.
func releasedSeats(sm booking.SeatMap, asked []string, max int) []string {
	known := make(map[string]bool, len(sm.Seats))
	for _, st := range sm.Seats {
		known[st.ID] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, id := range asked {
		id = strings.ToUpper(strings.TrimSpace(id))
		if known[id] && !seen[id] && len(out) < max {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// releasedNotice says that the hold of released was released, which of
// its seats are ticked again (ticked), and which were taken meanwhile.
func releasedNotice(loc *i18n.Localizer, released, ticked []string) *model.Notice {
	again := setOf(ticked)
	var kept, taken []string
	for _, id := range released {
		if again[id] {
			kept = append(kept, id)
		} else {
			taken = append(taken, id)
		}
	}
	text := loc.T("seatmap.released")
	if len(kept) > 0 {
		text += " " + loc.N("seatmap.released_kept", len(kept), "Seats", strings.Join(kept, ", "))
	}
	if len(taken) > 0 {
		text += " " + loc.N("seatmap.released_taken", len(taken), "Seats", strings.Join(taken, ", "))
	}
	return &model.Notice{Kind: "info", Text: text}
}

// noBlockText says that no block fits, and what may help.
func noBlockText(loc *i18n.Localizer, party int, f model.BestForm) string {
	if f.Category != "" {
		return loc.F("seatmap.no_block_category", "Count", party, "Category", f.Category)
	}
	return loc.F("seatmap.no_block", "Count", party)
}

// handleShowSeats is the seat map fragment the page refreshes itself with:
// GET /shows/:showID/seats. It answers 304 when nothing changed since the
// version the browser has. A watcher without a visitor id of its own gets
// the show's shared fragment, at most watcherMapAge old (serveWatcherMap).
func (s *Server) handleShowSeats(c echo.Context) error {
	visitor := s.visitor(c)
	if visitor == "" {
		return s.serveWatcherMap(c, c.Param("showID"))
	}
	sm, err := s.svc.SeatMap(c.Request().Context(), c.Param("showID"), visitor)
	if err != nil {
		return err
	}
	m := s.seatMapHead(localizer(c), sm, selection{})
	h := c.Response().Header()
	h.Set("ETag", m.ETag)
	h.Set("Cache-Control", "private, no-cache")
	if etagMatches(c.Request().Header.Get("If-None-Match"), m.ETag) {
		return c.NoContent(http.StatusNotModified)
	}
	if err := s.plainSeats(c.Request().Context(), &m, sm); err != nil {
		return err
	}
	return s.render(c, http.StatusOK, partials.SeatMap(m))
}

// etagMatches reports whether an If-None-Match header names etag (weak
// comparison, as RFC 9110 asks for If-None-Match).
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
