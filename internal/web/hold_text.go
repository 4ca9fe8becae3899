package web

import (
	"errors"
	"strings"
	"time"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
)

// holdText is what the domain says to a moviegoer about a hold, its seats
// or its show (SPEC §19: its messages are codes with arguments, rendered
// in the page's language): the typed errors by their fields, an
// *booking.Error or a form's field by its Key and Args as message
// "hold.<key>". An error without a message of its own here reads as the
// domain wrote it (booking.ErrorMessage).
func holdText(loc *i18n.Localizer, err error) string {
	var (
		paying *booking.PayingError
		gap    *booking.GapError
		taken  *booking.UnavailableError
		fields booking.InvalidFields
	)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &paying):
		return loc.F("hold.paying", "Seats", strings.Join(paying.Seats, ", "))
	case errors.As(err, &gap):
		return loc.F("hold.gap", "Seat", gap.Seat, "Suggestion", strings.Join(gap.Suggestion, ", "))
	case errors.As(err, &taken):
		return loc.N("hold.taken", len(taken.Seats), "Seats", strings.Join(taken.Seats, ", "))
	case errors.As(err, &fields):
		texts := make([]string, len(fields))
		for i, f := range fields {
			texts[i] = keyedText(loc, f.Key, f.Args, f.Message)
		}
		return strings.Join(texts, " ")
	}
	key, args := booking.ErrorKey(err)
	return keyedText(loc, key, args, booking.ErrorMessage(err))
}

// domainText is what the domain says to a person about err, a refusal
// that reached the error page, in loc's language: the hold's and Pay's
// refusals as those pages say them, the per-address cap, and any error with
// a message key; english (the message classify found) otherwise.
func domainText(loc *i18n.Localizer, err error, english string) string {
	var capped *booking.HeldCapError
	if errors.As(err, &capped) {
		return loc.F("domain.held_cap", "Cap", capped.Cap)
	}
	if loc.Lang == i18n.English {
		return english
	}
	if pe := payError(loc, err); pe != err {
		return booking.ErrorMessage(pe)
	}
	if text := holdText(loc, err); text != booking.ErrorMessage(err) {
		return text
	}
	return english
}

// keyedText is message "hold.<key>", else "domain.<key>", with args
// (name, value pairs; a time as the show's pages write one), or english
// when there is no such message.
func keyedText(loc *i18n.Localizer, key string, args []any, english string) string {
	cat := i18n.MustLoad()
	id := "hold." + key
	if !cat.Has(i18n.English, id) {
		id = "domain." + key
	}
	if key == "" || !cat.Has(i18n.English, id) {
		return english
	}
	out := make([]any, len(args))
	for i, a := range args {
		if t, ok := a.(time.Time); ok {
			a = loc.Date(t, "Mon 2 Jan 2006 15:04 MST")
		}
		out[i] = a
	}
	return loc.F(id, out...)
}
