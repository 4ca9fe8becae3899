package web

import (
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
)

// ctxPass marks a request that carries a valid pass of the on-sale
// covering its show (its value is the on-sale's id).
const ctxPass = "web.onsale.pass"

func queueURL(id string) string { return "/queue/" + id }

// onSaleGate guards a covered show's seat map, fragment and holds (SPEC
// §18): from booking.GateBefore T0 until its on-sale closes, a visitor
// without a valid pass goes to the queue (303; htmx: HX-Redirect). A
// visitor whose turn came gets the pass here, without a detour. Signed-in
// admins and staff pass; uncovered shows are not looked at twice. The
// on-sales come from this process's snapshot (onSaleCache), and the pass
// is checked without reading the database.
func (s *Server) onSaleGate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		now := s.svc.Now().Now
		o, ok, err := s.onsales.covering(ctx, c.Param("showID"), now)
		if err != nil {
			return err
		}
		if !ok {
			return next(c)
		}
		if adm, _, err := s.signedIn(c); err == nil && adm.ID != "" {
			return next(c)
		}
		st, err := s.queueStatus(c, o, now)
		if err != nil {
			return err
		}
		if st.state != queueAdmitted {
			return redirect(c, queueURL(o.ID))
		}
		c.Set(ctxPass, o.ID)
		return next(c)
	}
}

// holdAddress is the address a hold records and the per-address limits
// count (SPEC §12): none for a hold made with a valid pass of a covered,
// running on-sale, since carrier-grade NAT puts thousands behind one
// address and the pass already admits one browser at a time.
func (s *Server) holdAddress(c echo.Context) string {
	if c.Get(ctxPass) != nil {
		return ""
	}
	return addressKey(c)
}

// Queue states (data-queue-state).
const (
	queueBefore   = "before"
	queueOpen     = "open"
	queueWaiting  = "waiting"
	queueAdmitted = "admitted"
	queueClosed   = "closed"
)

// queueStatus is where a visitor stands in on-sale o's queue at now.
type queueStatus struct {
	state    string
	position int // -1 unknown
	ahead    int
	eta      time.Duration
	hasETA   bool
	paused   bool
	rejoin   bool // admitted more than a pass lifetime ago: join again
}

// queueStatus decides the visitor's standing in o's queue from its
// cookies and o as the snapshot has it. It reads the database for the
// position until that is known (a point read, and while the entry is not
// numbered yet a few numbering steps: booking.Service.QueuePosition); it
// then keeps it in the join cookie and reads it no more. An admitted
// visitor gets the pass: it lasts PassTTL from the first time it is
// issued, and that expiry is kept in the join cookie, so that it is
// issued again as it was and no later; a visitor who comes back more
// than a pass lifetime after their turn came joins again.
func (s *Server) queueStatus(c echo.Context, o booking.OnSale, now time.Time) (queueStatus, error) {
	st := queueStatus{position: -1, paused: o.SegmentAt(now).Paused}
	if o.Closed(now) {
		st.state = queueClosed
		return st, nil
	}
	if p, ok := s.validPass(c, o.ID, now); ok {
		st.state, st.position = queueAdmitted, p.Position
		return st, nil
	}
	j, ok := s.joinTicket(c, o.ID)
	if !ok {
		st.state = queueOpen
		if now.Before(o.OpensAt.Add(-booking.GateBefore)) {
			st.state = queueBefore
		}
		return st, nil
	}
	if j.Position < 0 {
		e := j.entry(o)
		if !o.PositionKnown(e, now) {
			st.state = queueWaiting
			return st, nil
		}
		pos, ok, err := s.svc.QueuePosition(c.Request().Context(), e)
		if err != nil {
			return st, err
		}
		if !ok {
			// Not numbered yet: waiting, without a position, until a
			// later request finds it numbered.
			st.state = queueWaiting
			return st, nil
		}
		j.Position = pos
		s.setJoinTicket(c, o, j, now)
	}
	st.position = j.Position
	if !o.AdmitsAt(j.Position, now) {
		st.state = queueWaiting
		st.ahead = o.Ahead(j.Position, now)
		st.eta, st.hasETA = booking.WaitETA(o.Segments, o.OpensAt, now, st.ahead)
		return st, nil
	}
	until := j.PassUntil
	if until.IsZero() {
		admittedAt, ok := booking.AdmittedAt(o.Segments, o.OpensAt, j.Position)
		if ok && now.After(admittedAt.Add(o.PassTTL)) {
			st.state, st.rejoin = queueOpen, true
			return st, nil
		}
		until = now.Add(o.PassTTL)
		j.PassUntil = until
		s.setJoinTicket(c, o, j, now)
	} else if !now.Before(until) {
		st.state, st.rejoin = queueOpen, true
		return st, nil
	}
	s.setPass(c, pass{OnSaleID: o.ID, Position: j.Position, ExpiresAt: until}, now)
	st.state = queueAdmitted
	return st, nil
}
