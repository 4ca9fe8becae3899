package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

const findBookingPath = "/bookings/find"

// Limits of "find my booking", per client address, in the database like
// HOLD_RATE: each request may send a mail, and guesses of ticket codes
// must stay few.
const (
	findsPerAddress = 10
	findWindow      = 15 * time.Minute
	findKeyPrefix   = "find-booking:"
)

// findAnswer is the message id of the one answer to a search, whether a
// booking matched or not, so that it tells nobody which codes and
// addresses go together.
const findAnswer = "find.sent"

// handleFindBooking is GET /bookings/find: the form.
func (s *Server) handleFindBooking(c echo.Context) error {
	return s.render(c, http.StatusOK, pages.FindBooking(model.FindBooking{
		Page: s.page(c, localizer(c).T("find.title")), Action: findBookingPath,
	}))
}

// handleFindBookingSubmit is POST /bookings/find (email, code, _csrf): it
// mails the booking link again when the two match a booking, and answers
// 200 with the same message either way; 429 beyond findsPerAddress a
// window.
func (s *Server) handleFindBookingSubmit(c echo.Context) error {
	ctx := c.Request().Context()
	email, code := c.FormValue("email"), c.FormValue("code")
	loc := localizer(c)
	m := model.FindBooking{Page: s.page(c, loc.T("find.title")), Action: findBookingPath,
		Email: booking.Truncate(email, 254), Code: booking.Truncate(code, 20)}
	ok, retry, err := s.limiter.Allow(ctx, findKeyPrefix+addressKey(c), findsPerAddress, findWindow)
	switch {
	case err != nil:
		return errorf("web: find-booking limiter: %w", err)
	case !ok:
		return &rateLimitError{retryAfter: max(retry, time.Second)}
	}
	if err := s.svc.FindBooking(ctx, email, code); err != nil {
		return err
	}
	m.Sent = loc.T(findAnswer)
	return s.render(c, http.StatusOK, pages.FindBooking(m))
}
