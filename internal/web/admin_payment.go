package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
	"boxoffice/views/pages"
)

// handleAdminPayment is GET /admin/payments/:paymentID: the payment, its
// booking and show, and every callback that named it, refused ones too, so
// that "I was charged but got no ticket" is answered in one look. An id no
// payment has is still shown when callbacks claimed it.
func (s *Server) handleAdminPayment(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("paymentID")
	callbacks, err := s.svc.Callbacks(ctx, booking.CallbackQuery{PaymentID: id, Limit: adminCallbackLimit})
	if err != nil {
		return err
	}
	v := model.AdminPayment{AdminPage: s.adminPage(c, "Payment "+short(id)), PaymentID: id, Callbacks: s.adminCallbacks(callbacks)}
	p, err := s.svc.Payment(ctx, id)
	switch {
	case errors.Is(err, booking.ErrPaymentNotFound) && len(callbacks) > 0:
		v.Verdict = "There is no such payment; the callbacks below named it anyway."
		return s.render(c, http.StatusOK, pages.AdminPayment(v))
	case err != nil:
		return err
	}
	b, err := s.svc.AnyBooking(ctx, p.BookingID)
	if err != nil {
		return errorf("web: booking %s of payment %s: %w", p.BookingID, p.ID, err)
	}
	if nb, _ := s.refreshPending(c, b); nb.State != b.State {
		b = nb
		if p, err = s.svc.Payment(ctx, p.ID); err != nil {
			return err
		}
	}
	v.Found, v.State, v.Total, v.Created = true, string(p.State), p.Amount.Format(p.Currency), s.adminTime(p.CreatedAt)
	v.CheckoutRef, v.ChargeRef = p.CheckoutRef, p.ChargeRef
	loc := s.loc
	if show, err := s.svc.Show(ctx, b.ShowID); err == nil {
		sm := s.adminShowModel(show)
		v.Show, v.ShowURL, loc = &sm, adminShowURL(show.ID), s.showLocation(show)
	}
	bm := s.adminBookingModel(b, loc)
	v.Booking = &bm
	v.Verdict = paymentVerdict(p, b, callbacks)
	return s.render(c, http.StatusOK, pages.AdminPayment(v))
}
