package web

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
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

// checkoutModel is the checkout of hold h in loc's language: money by
// loc.Money, why it can no longer be paid for by payErrorText.
func (s *Server) checkoutModel(loc *i18n.Localizer, sm booking.SeatMap, h booking.Hold, gone error, prices booking.ShowPrices, choice booking.TypeChoice, amount booking.Money) model.Checkout {
	byID := make(map[string]booking.Seat, len(sm.Seats))
	for _, st := range sm.Seats {
		byID[st.ID] = st
	}
	m := model.Checkout{
		Show:          s.showModelIn(loc, sm.Show),
		HoldID:        h.ID,
		Amount:        int64(amount),
		Total:         loc.Money(int64(amount), h.Currency),
		ReleaseAction: holdURL(h.ID) + "/release",
		PayAction:     holdURL(h.ID) + "/pay",
		SeatMapURL:    showURL(h.ShowID),
		TotalURL:      holdURL(h.ID) + "/total",
		UpdateAction:  holdURL(h.ID) + "/total",
	}
	for _, id := range h.SeatIDs {
		st := byID[id]
		seat := model.CheckoutSeat{ID: id, Category: st.Category, Price: loc.Money(int64(st.Price), h.Currency), Field: typeField(id)}
		for _, o := range prices.OnlineTypes(st.Category) {
			selected := o.Type.ID == choice[id]
			if selected {
				seat.Price = loc.Money(int64(o.Price), h.Currency)
			}
			seat.Types = append(seat.Types, model.TypeOption{
				ID: o.Type.ID, Name: o.Type.Name, Note: o.Type.Note, Selected: selected,
				Price: loc.Money(int64(o.Price), h.Currency), PriceRaw: strconv.FormatInt(int64(o.Price), 10),
			})
		}
		m.Seats = append(m.Seats, seat)
	}
	if gone != nil {
		m.Gone = booking.ErrorMessage(payError(loc, gone))
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
func (s *Server) explainPaidHold(ctx context.Context, loc *i18n.Localizer, m *model.Checkout, h booking.Hold, owner string) error {
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
		m.Gone, m.BookingLabel = loc.T("checkout.paid_booked"), loc.T("checkout.see_ticket")
	case booking.BookingRefundDue:
		m.Gone, m.BookingLabel = loc.T("checkout.paid_refund_due")+" "+reasonText(loc, b.Reason), loc.T("checkout.see_booking")
	case booking.BookingRefunded:
		m.Gone, m.BookingLabel = loc.T("checkout.paid_refunded")+" "+reasonText(loc, b.Reason), loc.T("checkout.see_booking")
	}
	m.Gone = strings.TrimSpace(m.Gone)
	return nil
}

// errorTexts are the messages of the domain's refusals a page says in its
// own words, by sentinel.
type errorTexts []struct {
	err error
	id  string
}

// find is the message of the first sentinel err is.
func (ts errorTexts) find(err error) (string, bool) {
	for _, t := range ts {
		if errors.Is(err, t.err) {
			return t.id, true
		}
	}
	return "", false
}

// payErrors are the messages of the errors Pay and the checkout answer
// with (SPEC §11: 404, 410, 422; 409 when Pay was pressed twice at once),
// by the domain's error.
var payErrors = errorTexts{
	{booking.ErrHoldExpired, "checkout.err_expired"},
	{booking.ErrHoldReleased, "checkout.err_released"},
	{booking.ErrHoldReplaced, "checkout.err_replaced"},
	{booking.ErrHoldCompleted, "checkout.err_completed"},
	{booking.ErrSalesClosed, "checkout.err_sales_closed"},
	{booking.ErrShowCancelled, "checkout.err_show_cancelled"},
	{booking.ErrOnlineCutoff, "checkout.err_online_cutoff"},
	{booking.ErrCheckoutSuperseded, "checkout.err_superseded"},
	{booking.ErrHoldNotFound, "checkout.err_hold_not_found"},
	{booking.ErrNotOwner, "checkout.err_hold_not_found"},
}

// emailRefused is ValidateEmail's message for an address that is not
// one address with a dotted domain.
const emailRefused = "Please enter one email address, like name@example.com."

// payError is err, an answer of Pay or of the checkout, with its message
// in loc's language and its kind kept (the same code, a
// *booking.TypeChoiceError naming the same seat or rule, InvalidFields
// of the same field), so that its status and hooks do not change. In
// English, and for an error it has no message for, it is err.
func payError(loc *i18n.Localizer, err error) error {
	if err == nil || loc.Lang == i18n.English {
		return err
	}
	var ce *booking.TypeChoiceError
	var fields booking.InvalidFields
	switch {
	case errors.As(err, &ce):
		out := *ce
		switch {
		case ce.Rule == booking.RuleAccompanied:
			out.Message = loc.T("checkout.err_accompanied")
		case ce.Seat != "" && ce.Rule == "":
			out.Message = loc.F("checkout.err_not_offered", "Seat", ce.Seat)
		}
		return &out
	case errors.As(err, &fields):
		out := slices.Clone(fields)
		for i, f := range out {
			if f.Field == "email" && f.Message == emailRefused {
				out[i].Message = loc.T("checkout.err_email")
			}
		}
		return out
	}
	if id, ok := payErrors.find(err); ok {
		return &booking.Error{Code: booking.ErrorCode(err), Message: loc.T(id)}
	}
	return err
}
