package web

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// handleDoor is GET /admin/checkin?show=ID&code=CODE&confirm=1: the door,
// for staff and admins. Without show it offers the first show starting
// within two hours or running now; with code it looks the ticket up and
// admits nothing, by the rule an admission with the same fields would
// follow (booking.DecideCheckin): no show given checks no show, as a POST
// without one admits to any.
func (s *Server) handleDoor(c echo.Context) error {
	q := c.QueryParams()
	showID := q.Get("show")
	m, err := s.doorModel(c, showID, q.Has("show"))
	if err != nil {
		return err
	}
	if code := q.Get("code"); strings.TrimSpace(code) != "" {
		confirm := q.Get("confirm") == "1"
		ck, err := s.svc.LookUpTicket(c.Request().Context(), code, showID, confirm)
		if err != nil {
			return err
		}
		if wait, err := s.countDoorGuess(c, ck); err != nil || wait > 0 {
			return s.doorTooMany(c, m, wait, err)
		}
		m.Result = s.doorResult(localizer(c), ck, code, showID, false)
	}
	return s.renderDoor(c, http.StatusOK, m)
}

// handleDoorAdmit is POST /admin/checkin, fields code, show ("" or absent
// for any show) and confirm (1 admits a ticket refused not_today): the
// ticket is admitted at once, exactly once however many doors scan it. An
// unknown code is 200 and refused; only no code at all is 422.
func (s *Server) handleDoorAdmit(c echo.Context) error {
	ctx := c.Request().Context()
	code, showID, confirm := c.FormValue("code"), c.FormValue("show"), c.FormValue("confirm") == "1"
	m, err := s.doorModel(c, showID, true)
	if err != nil {
		return err
	}
	if strings.TrimSpace(code) == "" {
		m.CodeErr = localizer(c).T("door.code_missing")
		return s.renderDoor(c, http.StatusUnprocessableEntity, m)
	}
	ck, err := s.svc.AdmitTicket(ctx, code, showID, currentAdmin(c).Email, confirm)
	if err != nil {
		return err
	}
	if wait, err := s.countDoorGuess(c, ck); err != nil || wait > 0 {
		return s.doorTooMany(c, m, wait, err)
	}
	m.Result = s.doorResult(localizer(c), ck, code, showID, confirm)
	if ck.Result == booking.CheckinAdmitted {
		m.Count.Admitted += len(ck.Booking.SeatIDs) // counted before the admission
		s.log.InfoContext(ctx, "ticket admitted", "booking", ck.Booking.ID, "show", ck.Booking.ShowID, "by", currentAdmin(c).Email,
			"confirmed", confirm, "request_id", requestIDOf(c))
	}
	return s.renderDoor(c, http.StatusOK, m)
}

// Guesses at the door (SPEC §12): a session's unknown codes are counted
// in the shared Limiter, doorGuessesPerWindow a doorGuessWindow; known
// codes never count, so a busy door is never slowed.
const (
	doorGuessesPerWindow = 30
	doorGuessWindow      = time.Minute
	doorGuessKeyPrefix   = "door-guess:"
)

// countDoorGuess counts ck against the session's guesses when its code is
// unknown, and says how long to wait when it is one too many. A limiter
// that fails is an error: the door still answers known codes, which never
// ask it. Beyond the limit a known code is still answered (SPEC §12): the
// 429 then itself tells an unknown code from a known one, so the limit
// does not stop a session that keeps guessing from learning which codes
// exist.
func (s *Server) countDoorGuess(c echo.Context, ck booking.Checkin) (time.Duration, error) {
	if ck.Reason != booking.RefusedUnknown {
		return 0, nil
	}
	ctx := c.Request().Context()
	ok, retry, err := s.limiter.Allow(ctx, doorGuessKeyPrefix+s.doorSessionKey(c), doorGuessesPerWindow, doorGuessWindow)
	switch {
	case err != nil:
		return 0, errorf("web: door guess limiter: %w", err)
	case !ok:
		return max(retry, time.Second), nil
	}
	return 0, nil
}

// doorSessionKey names the signed-in session in the limiter: a hash of
// its token (renewed at sign-in), so that the token itself is stored
// nowhere else.
func (s *Server) doorSessionKey(c echo.Context) string {
	sum := sha256.Sum256([]byte(s.sessions.Token(c.Request().Context())))
	return hex.EncodeToString(sum[:16])
}

// doorTooMany is the door answering 429 with Retry-After after too many
// unknown codes, or err.
func (s *Server) doorTooMany(c echo.Context, m model.Door, wait time.Duration, err error) error {
	if err != nil {
		return err
	}
	c.Response().Header().Set("Retry-After", retryAfterSeconds(wait))
	loc := localizer(c)
	m.CodeErr = loc.F("door.too_many", "Wait", localWait(loc, wait))
	return s.renderDoor(c, http.StatusTooManyRequests, m)
}

func (s *Server) renderDoor(c echo.Context, status int, m model.Door) error {
	// The camera is for this page only (Permissions-Policy elsewhere
	// denies it).
	c.Response().Header().Set("Permissions-Policy", "camera=(self), microphone=(), geolocation=(), payment=()")
	return s.render(c, status, pages.Door(m))
}

// doorModel is the door with its show chooser: the shows starting within
// two hours or running now, the chosen one (given, or by default the
// first of those) even when it is not among them, and "any show".
func (s *Server) doorModel(c echo.Context, showID string, given bool) (model.Door, error) {
	ctx, loc := c.Request().Context(), localizer(c)
	shows, err := s.svc.DoorShows(ctx)
	if err != nil {
		return model.Door{}, err
	}
	if !given && len(shows) > 0 {
		showID = shows[0].ID
	}
	m := model.Door{AdminPage: s.adminPage(c, loc.T("door.title")), ShowID: showID}
	now := s.svc.Now().Now
	listed := false
	for _, sh := range shows {
		listed = listed || sh.ID == showID
		m.Shows = append(m.Shows, model.Option{Value: sh.ID, Label: s.doorShowLabel(loc, sh), Selected: sh.ID == showID})
	}
	if showID != "" && !listed {
		sh, err := s.svc.Show(ctx, showID)
		switch {
		case booking.ErrorCode(err) == booking.ENOTFOUND:
			return model.Door{}, booking.Errorf(booking.EINVALID, "%s", loc.T("door.no_such_show"))
		case err != nil:
			return model.Door{}, err
		}
		m.Shows = append([]model.Option{{Value: sh.ID, Label: s.doorShowLabel(loc, sh), Selected: true}}, m.Shows...)
		if !booking.InDoorWindow(sh, now) {
			m.ShowNote = loc.F("door.show_note", "When", s.showDayWords(loc, sh, now))
		}
	}
	m.Shows = append(m.Shows, model.Option{Value: "", Label: loc.T("door.any_show"), Selected: showID == ""})
	if showID != "" {
		if m.Count, err = s.svc.DoorCount(ctx, showID); err != nil {
			return model.Door{}, err
		}
		m.Counted = true
	}
	return m, nil
}

// doorCheckText says whether a ticket's seats ask staff to check their
// holder (SPEC §15: a door_check type), and what: each such type once,
// with its note and how many seats.
func doorCheckText(loc *i18n.Localizer, tickets []booking.SeatTicket) (bool, string) {
	if check, _ := booking.TicketsDoorCheck(tickets); !check {
		return false, ""
	}
	var parts []string
	count := map[string]int{}
	for _, t := range tickets {
		if t.DoorCheck {
			count[t.Type]++
		}
	}
	seen := map[string]bool{}
	for _, t := range tickets {
		if !t.DoorCheck || seen[t.Type] {
			continue
		}
		seen[t.Type] = true
		part := strconv.Itoa(count[t.Type]) + " × " + t.TypeName()
		if t.Note != "" {
			part += " (" + t.Note + ")"
		}
		parts = append(parts, part)
	}
	return true, loc.F("door.check", "Types", strings.Join(parts, ", "))
}

// doorShowLabel names a show for the door: time, film and screen.
func (s *Server) doorShowLabel(loc *i18n.Localizer, sh booking.Show) string {
	v := s.counterAdminShow(loc, sh)
	return v.When() + " · " + v.Title + " · " + v.Screen + " · " + v.Theatre
}

// doorResult says what the door found, in words for the person at it and
// in SPEC §11's hooks. showID is the show the door checked ("" for any):
// the Admit the answer offers asks the same.
// confirmed is an admission's confirm=1, which admits a ticket for another
// day: the answer then says so.
func (s *Server) doorResult(loc *i18n.Localizer, ck booking.Checkin, typed, showID string, confirmed bool) *model.DoorResult {
	r := &model.DoorResult{Checkin: string(ck.Result), Reason: string(ck.Reason), Code: ck.Code, AdmitShow: showID}
	if r.Code == "" {
		r.Code = booking.Truncate(strings.TrimSpace(typed), 20)
	}
	b := ck.Booking
	if ck.Show.ID != "" {
		v := s.counterAdminShow(loc, ck.Show)
		r.Show = v.Title + " · " + v.When() + " · " + v.Screen + ", " + v.Theatre
		n := len(b.SeatIDs)
		r.Seats = loc.N("door.seats", n)
		r.SeatIDs = b.SeatIDs
		r.Tickets = bookingSeats(b)
		if ck.Result == booking.CheckinValid || ck.Result == booking.CheckinAdmitted {
			r.DoorCheck, r.DoorCheckText = doorCheckText(loc, booking.TicketsOf(b))
		}
	}
	switch ck.Result {
	case booking.CheckinValid:
		r.Headline, r.AdmitForm = loc.T("door.headline.valid"), true
	case booking.CheckinAdmitted:
		r.Headline = loc.T("door.headline.admitted")
		if now := ck.Booking.AdmittedAt; confirmed && showID == "" && !booking.InDoorWindow(ck.Show, now) {
			r.Detail = loc.F("door.detail.admitted_confirmed", "When", s.showDayWords(loc, ck.Show, now))
		}
	case booking.CheckinAlready:
		r.AdmittedAt = serverNow(b.AdmittedAt)
		r.Headline = loc.T("door.headline.already")
		r.Detail = loc.F("door.detail.already",
			"At", loc.Date(b.AdmittedAt.In(s.showLocation(ck.Show)), "15:04 MST, Mon 2 Jan"), "By", b.AdmittedBy)
	case booking.CheckinRefused:
		switch ck.Reason {
		case booking.RefusedUnknown:
			r.Headline, r.Detail = loc.T("door.headline.unknown"), loc.T("door.detail.unknown")
		case booking.RefusedOtherShow:
			r.Headline, r.Detail = loc.T("door.headline.other_show"), loc.T("door.detail.other_show")
		case booking.RefusedNotToday:
			r.Headline = loc.T("door.headline.not_today")
			r.Detail = loc.F("door.detail.not_today", "When", s.showDayWords(loc, ck.Show, s.svc.Now().Now))
			r.ConfirmText = loc.T("door.detail.not_today_confirm")
			r.AdmitForm, r.Confirm = true, true
		case booking.RefusedNotConfirmed:
			r.Headline, r.Detail = loc.T("door.headline.not_confirmed"), loc.T("door.detail.not_confirmed")
		case booking.RefusedRefunded:
			r.Headline, r.Detail = loc.T("door.headline.refunded"), loc.T("door.detail.refunded")
		case booking.RefusedCancelled:
			r.Headline, r.Detail = loc.T("door.headline.cancelled"), loc.T("door.detail.cancelled")
		}
	}
	return r
}

// showDayWords says when sh starts, seen at now, the way staff read it at
// the door: "tomorrow, Sunday 15 March at 18:00", "later today, Saturday 14 March
// at 21:00",
// "Friday 20 March at 18:00, in 6 days", in the show's theatre's zone
// (named when it is not the server's).
func (s *Server) showDayWords(loc *i18n.Localizer, sh booking.Show, now time.Time) string {
	zone := s.showLocation(sh)
	start := sh.StartsAt.In(zone)
	at := start.Format("15:04")
	if zone.String() != s.loc.String() {
		at += " " + start.Format("MST")
	}
	date := loc.Date(start, "Monday 2 January")
	if start.Year() != now.In(zone).Year() {
		date += start.Format(" 2006")
	}
	days := int(civil(start).Sub(civil(now.In(zone))).Hours() / 24)
	switch {
	case days == 0 && start.After(now):
		return loc.F("door.day.later_today", "Date", date, "At", at)
	case days == 0:
		return loc.F("door.day.earlier_today", "Date", date, "At", at)
	case days == 1:
		return loc.F("door.day.tomorrow", "Date", date, "At", at)
	case days == -1:
		return loc.F("door.day.yesterday", "Date", date, "At", at)
	case days > 1:
		return loc.N("door.day.ahead", days, "Date", date, "At", at)
	}
	return loc.N("door.day.ago", -days, "Date", date, "At", at)
}
