package web

import (
	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
)

// reasonText is a reason stored on a booking or a payment (a code with
// arguments, booking.ParseReason) as a person reads it in loc's language
// (messages "reason.*"); text stored before codes that the migration
// could not convert reads as it is. A nil loc is English.
func reasonText(loc *i18n.Localizer, stored string) string {
	if loc == nil {
		loc = i18n.For(i18n.English)
	}
	return booking.ReasonText(loc, stored)
}

// adminReason is a stored reason for the admin pages, which stay English;
// the callback log's English reasons read as they are.
func adminReason(stored string) string { return reasonText(nil, stored) }
