package web

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
	"boxoffice/views/partials"
)

// handleBooking is GET /bookings/:bookingID, for the session that made the
// booking only (anyone else gets 404): pending until the provider's callback
// lands, then the ticket, the refund or the decline.
func (s *Server) handleBooking(c echo.Context) error {
	m, err := s.bookingView(c)
	if err != nil {
		return err
	}
	if isHTMX(c) {
		return s.render(c, http.StatusOK, partials.Booking(m))
	}
	title := "booking.title_" + m.State
	if m.Cancelled != nil {
		title = "booking.title_cancelled"
	}
	m.Page = s.page(c, localizer(c).T(title))
	return s.render(c, http.StatusOK, pages.Booking(m))
}

// handleBookingStatus is the fragment a pending booking page polls: GET
// /bookings/:bookingID/status. It answers 304 while the state is the one the
// browser shows.
func (s *Server) handleBookingStatus(c echo.Context) error {
	m, err := s.bookingView(c)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("ETag", m.ETag)
	h.Set("Cache-Control", "private, no-cache")
	if etagMatches(c.Request().Header.Get("If-None-Match"), m.ETag) {
		return c.NoContent(http.StatusNotModified)
	}
	return s.render(c, http.StatusOK, partials.Booking(m))
}

// refreshPending is Service.RefreshPending for a page: a provider that
// cannot be asked just now leaves the booking as stored, and the page
// shows it pending. asked says whether the provider was asked.
func (s *Server) refreshPending(c echo.Context, b booking.Booking) (nb booking.Booking, asked bool) {
	nb, asked, err := s.svc.RefreshPending(c.Request().Context(), b)
	if err != nil {
		s.log.WarnContext(c.Request().Context(), "looking up a stuck payment failed", "booking_id", b.ID,
			"payment_id", b.PaymentID, "err", err, "request_id", requestIDOf(c))
		return b, asked
	}
	return nb, asked
}

// bookingView reads the booking and its show: the visitor's own, or, with
// ?key=, the one the key opens, whoever asks (the booking link). A booking
// stuck pending is looked up at the provider first
// (Service.RefreshPending): the page then shows what the provider knows,
// even if its event never came.
func (s *Server) bookingView(c echo.Context) (model.Booking, error) {
	ctx := c.Request().Context()
	id, key := c.Param("bookingID"), c.QueryParam("key")
	var b booking.Booking
	var err error
	if c.QueryParams().Has("key") {
		b, err = s.svc.BookingByKey(ctx, id, key)
	} else {
		b, err = s.svc.Booking(ctx, id, s.visitor(c))
	}
	if err != nil {
		return model.Booking{}, err
	}
	b, _ = s.refreshPending(c, b)
	show, err := s.svc.Show(ctx, b.ShowID)
	if err != nil {
		return model.Booking{}, errorf("web: show %s of booking %s: %w", b.ShowID, b.ID, err)
	}
	loc := localizer(c)
	m, err := s.bookingModel(loc, b, show)
	if err != nil {
		return m, err
	}
	if show.Cancelled() && (b.State == booking.BookingRefundDue || b.State == booking.BookingRefunded) {
		if m.Cancelled, err = s.cancellationModel(ctx, loc, b, show); err != nil {
			return m, err
		}
	}
	if c.QueryParams().Has("key") {
		// The page polls and links to itself with the key, so that it
		// keeps working without the session.
		q := "?key=" + url.QueryEscape(key)
		m.URL, m.StatusURL, m.PrintURL = m.URL+q, bookingURL(b.ID)+"/status"+q, m.PrintURL+q
	}
	return m, nil
}

// bookingLink is BookingLink on this server's PUBLIC_URL.
func (s *Server) bookingLink(b booking.Booking) string { return BookingLink(s.publicURL, b) }

// BookingLink is the booking link of b on publicURL (without a trailing
// slash), which opens it on any device without the session that made it
// (SPEC §11); "" for a booking made before links existed. The booking page
// and the mails share it.
func BookingLink(publicURL string, b booking.Booking) string {
	if b.Key == "" {
		return ""
	}
	return publicURL + bookingURL(b.ID) + "?key=" + url.QueryEscape(b.Key)
}
