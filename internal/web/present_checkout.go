package web

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
)

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
