package web

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/views/model"
)

// typeField is the form field of the ticket type of seat id (SPEC §20).
func typeField(seatID string) string { return "type_" + seatID }

// choiceOf is the choice of types a request carries (type_<seatID>) for
// the hold's seats; nil when it carries none.
func choiceOf(c echo.Context, h booking.Hold) booking.TypeChoice {
	var out booking.TypeChoice
	for _, id := range h.SeatIDs {
		if v := c.FormValue(typeField(id)); v != "" {
			if out == nil {
				out = booking.TypeChoice{}
			}
			out[id] = booking.Truncate(v, 40)
		}
	}
	return out
}

// shownChoice is the type checkout shows chosen for each held seat (SPEC
// §15): the request's choice where it is offered, else the pending
// payment's, else the category's DefaultType; and the total of it.
func shownChoice(h booking.Hold, byID map[string]booking.Seat, prices booking.ShowPrices, asked booking.TypeChoice, pending []booking.SeatTicket) (booking.TypeChoice, booking.Money) {
	prior := map[string]string{}
	for _, t := range pending {
		prior[t.SeatID] = t.Type
	}
	out := booking.TypeChoice{}
	var total booking.Money
	for _, id := range h.SeatIDs {
		st := byID[id]
		offered := prices.OnlineTypes(st.Category)
		price := func(typ string) (booking.Money, bool) {
			for _, o := range offered {
				if o.Type.ID == typ {
					return o.Price, true
				}
			}
			return 0, false
		}
		chosen := ""
		for _, typ := range []string{asked[id], prior[id]} {
			if _, ok := price(typ); ok && typ != "" {
				chosen = typ
				break
			}
		}
		if chosen == "" {
			chosen, _ = prices.DefaultType(st.Category)
		}
		out[id] = chosen
		if p, ok := price(chosen); ok {
			total += p
		} else {
			total += st.Price
		}
	}
	return out, total
}

func (s *Server) checkoutModel(sm booking.SeatMap, h booking.Hold, gone error, prices booking.ShowPrices, choice booking.TypeChoice, amount booking.Money) model.Checkout {
	byID := make(map[string]booking.Seat, len(sm.Seats))
	for _, st := range sm.Seats {
		byID[st.ID] = st
	}
	m := model.Checkout{
		Show:          s.showModel(sm.Show),
		HoldID:        h.ID,
		Amount:        int64(amount),
		Total:         amount.Format(h.Currency),
		ReleaseAction: holdURL(h.ID) + "/release",
		PayAction:     holdURL(h.ID) + "/pay",
		SeatMapURL:    showURL(h.ShowID),
		TotalURL:      holdURL(h.ID) + "/total",
		UpdateAction:  holdURL(h.ID) + "/total",
	}
	for _, id := range h.SeatIDs {
		st := byID[id]
		seat := model.CheckoutSeat{ID: id, Category: st.Category, Price: st.Price.Format(h.Currency), Field: typeField(id)}
		for _, o := range prices.OnlineTypes(st.Category) {
			selected := o.Type.ID == choice[id]
			if selected {
				seat.Price = o.Price.Format(h.Currency)
			}
			seat.Types = append(seat.Types, model.TypeOption{
				ID: o.Type.ID, Name: o.Type.Name, Note: o.Type.Note, Selected: selected,
				Price: o.Price.Format(h.Currency), PriceRaw: strconv.FormatInt(int64(o.Price), 10),
			})
		}
		m.Seats = append(m.Seats, seat)
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
		m.Gone, m.BookingLabel = "Your payment went through, but the seats could not be booked, so it is due back to you (refund due). "+reasonIn(ctx, b.Reason), "See your booking"
	case booking.BookingRefunded:
		m.Gone, m.BookingLabel = "Your payment went through, but nothing was booked, and it has been refunded. "+reasonIn(ctx, b.Reason), "See your booking"
	}
	m.Gone = strings.TrimSpace(m.Gone)
	return nil
}
