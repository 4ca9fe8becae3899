package web

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
	"boxoffice/views/pages"
	"boxoffice/views/partials"
)

// joinsPerAddress is how many joins one client address may make a minute
// in one process (SPEC §18). A join writes one small row and nothing else,
// so the limit is counted in this process's memory, not the database; it
// is high because carrier-grade NAT puts thousands of visitors behind one
// address, and each browser joins once.
const joinsPerAddress = 600

// queueRefresh is how often the queue page asks for its status, and
// queueJitter how far each ask is moved either way at random, so that
// visitors who arrived together do not refresh together.
const (
	queueRefresh = 20
	queueJitter  = 3
)

// settleRefresh is how soon, in seconds, a queue page whose place is not
// counted yet after T0 asks again: just after booking.SettlingMargin.
const settleRefresh = int(booking.SettlingMargin/time.Second) + 1

// handleQueue is the waiting room: GET /queue/:onsaleID.
func (s *Server) handleQueue(c echo.Context) error {
	live, status, err := s.queueLive(c)
	if err != nil {
		return err
	}
	live.CSRFToken = s.csrfToken(c)
	p := s.page(c, live.Name)
	if live.RefreshURL != "" {
		p.Refresh = queueRefresh
		if live.RefreshDelay < queueRefresh-queueJitter {
			p.Refresh = live.RefreshDelay
		}
	}
	return s.render(c, status, pages.Queue(model.Queue{Page: p, Live: live}))
}

// handleQueueStatus is the queue page's live region as it refreshes
// itself: GET /queue/:onsaleID/status. It needs no session (the route is
// sessionless): once the visitor's place is known it reads nothing from
// the database.
func (s *Server) handleQueueStatus(c echo.Context) error {
	live, status, err := s.queueLive(c)
	if err != nil {
		return err
	}
	if live.State == queueOpen {
		// The Join form needs the page's token: the page is read again.
		live.RefreshURL = ""
		live.Notice = &model.Notice{Kind: "info", Text: localizer(c).T("queue.reload_to_join")}
	}
	return s.render(c, status, partials.QueueLive(live))
}

// queueLive is the queue page's live region for the visitor, and its
// status: 200, or 410 once the on-sale closed.
func (s *Server) queueLive(c echo.Context) (model.QueueLive, int, error) {
	ctx := c.Request().Context()
	now := s.svc.Now().Now
	c.Response().Header().Set("Cache-Control", "no-store")
	o, err := s.onsales.find(ctx, c.Param("onsaleID"), now)
	if err != nil {
		return model.QueueLive{}, 0, err
	}
	st, err := s.queueStatus(c, o, now)
	if err != nil {
		return model.QueueLive{}, 0, err
	}
	live, err := s.queueModel(ctx, o, st, now)
	status := http.StatusOK
	if st.state == queueClosed {
		status = http.StatusGone
	}
	return live, status, err
}

// queueModel is the live region of on-sale o for a visitor in state st,
// its text in ctx's language.
func (s *Server) queueModel(ctx context.Context, o booking.OnSale, st queueStatus, now time.Time) (model.QueueLive, error) {
	lang := i18n.From(ctx)
	loc := s.loc
	var shows []model.QueueShow
	for _, id := range o.Shows {
		sh, ok, err := s.onsales.show(ctx, id)
		if err != nil {
			return model.QueueLive{}, err
		}
		if !ok {
			continue
		}
		if len(shows) == 0 {
			loc = s.showLocation(sh)
		}
		t, _ := s.showClock(sh)
		shows = append(shows, model.QueueShow{ID: sh.ID, Title: sh.Movie.Title, When: lang.Date(t, "Mon 2 Jan 15:04"), Theatre: sh.Theatre.Name, URL: showURL(sh.ID)})
	}
	const when = "Mon 2 Jan 15:04 MST"
	m := model.QueueLive{
		OnSaleID: o.ID, Name: o.Name, State: st.state,
		Paused:     st.paused,
		OpensAt:    lang.Date(o.OpensAt.In(loc), when),
		OpensAtISO: o.OpensAt.Format(time.RFC3339),
		GateOpens:  lang.Date(o.OpensAt.Add(-booking.GateBefore).In(loc), when),
		JoinAction: queueURL(o.ID) + "/join",
		Rejoin:     st.rejoin,
	}
	if st.position >= 0 {
		m.Position, m.HasPosition, m.Ahead = st.position, true, st.ahead
	}
	if st.state == queueWaiting && st.hasETA {
		m.HasETA, m.ETASeconds = true, int(st.eta/time.Second)
		m.ETAText = etaText(lang, st.eta)
	}
	if st.state == queueAdmitted {
		m.Shows = shows
	}
	if st.state == queueWaiting || st.state == queueBefore {
		m.RefreshURL = queueURL(o.ID) + "/status"
		m.RefreshDelay = queueRefresh - queueJitter + rand.IntN(2*queueJitter+1)
		if st.state == queueWaiting && st.position < 0 && !now.Before(o.OpensAt) {
			// The place is counted once the joins before it are all in
			// (booking.OnSale.PositionKnown): ask again soon after.
			m.RefreshDelay = settleRefresh + rand.IntN(queueJitter)
			m.Counting = true
		}
	}
	return m, nil
}

// etaText is a wait for people, in loc's language: "less than a minute",
// "about 12 minutes", "about 1 hour 5 minutes".
func etaText(loc *i18n.Localizer, d time.Duration) string {
	switch mins := int((d + time.Minute - 1) / time.Minute); {
	case d < time.Minute:
		return loc.T("queue.eta_under_minute")
	case mins == 1:
		return loc.T("queue.eta_minute")
	default:
		var parts []string
		if h := mins / 60; h > 0 {
			parts = append(parts, loc.N("queue.hours", h))
		}
		if m := mins % 60; m > 0 {
			parts = append(parts, loc.N("queue.minutes", m))
		}
		return loc.F("queue.eta_about", "Wait", strings.Join(parts, " "))
	}
}

// handleQueueJoin is POST /queue/:onsaleID/join: one row in the queue and
// the join cookie, then back to the queue page (303). A browser that has
// a place keeps it (no second row); one whose turn passed joins again at
// the back. Closed: 410 with the page saying so; more than
// booking.GateBefore before T0: 409.
func (s *Server) handleQueueJoin(c echo.Context) error {
	ctx := c.Request().Context()
	now := s.svc.Now().Now
	o, err := s.onsales.find(ctx, c.Param("onsaleID"), now)
	if err != nil {
		return err
	}
	st, err := s.queueStatus(c, o, now)
	if err != nil {
		return err
	}
	switch st.state {
	case queueClosed:
		return s.queueRefused(c, o, st, now, http.StatusGone, holdText(localizer(c), booking.ErrQueueClosed))
	case queueBefore:
		return s.queueRefused(c, o, st, now, http.StatusConflict, localizer(c).T("queue.not_open"))
	case queueWaiting, queueAdmitted:
		return redirect(c, queueURL(o.ID))
	}
	ok, retry, err := s.joinLimiter.Allow(ctx, "join:"+addressKey(c), joinsPerAddress, time.Minute)
	if err != nil {
		return err
	}
	if !ok {
		return &rateLimitError{retryAfter: retry}
	}
	e, err := s.svc.JoinQueue(ctx, o)
	if err != nil {
		return err
	}
	s.setJoinTicket(c, o, joinTicket{OnSaleID: o.ID, JoinID: e.JoinID, JoinedAt: e.JoinedAt, Before: e.Before, Position: -1}, now)
	return redirect(c, queueURL(o.ID))
}

// queueRefused shows the queue page with why a join was refused.
func (s *Server) queueRefused(c echo.Context, o booking.OnSale, st queueStatus, now time.Time, status int, text string) error {
	live, err := s.queueModel(c.Request().Context(), o, st, now)
	if err != nil {
		return err
	}
	live.Notice = &model.Notice{Kind: "error", Text: text}
	live.CSRFToken = s.csrfToken(c)
	if isHTMX(c) {
		return s.render(c, status, partials.QueueLive(live))
	}
	return s.render(c, status, pages.Queue(model.Queue{Page: s.page(c, live.Name), Live: live}))
}
