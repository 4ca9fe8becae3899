package mail

import (
	"strings"
	"testing"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/internal/i18n/i18ntest"
)

// TestComposeInTheBookingsLanguage: every kind of message is written in
// its Lang (SPEC §19): subject, text, HTML (no English catalog text
// left), the date with the language's month and weekday names, and the
// .ics event's description.
func TestComposeInTheBookingsLanguage(t *testing.T) {
	for _, tt := range []struct {
		lang    i18n.Lang
		subject string // the confirmation's
		when    string // the show's time, as the details say it
		ics     string // in the event's description
	}{
		{i18n.Hindi, "आपके टिकट: The Long Night, मंगल 1 दिस॰ 18:00", "मंगलवार 1 दिसंबर 2026, 18:00 IST", "टिकट कोड: 7K3M-Q9PA"},
		{i18n.Tamil, "உங்கள் டிக்கெட்டுகள்: The Long Night, ", "1 டிசம்பர் 2026, 18:00 IST", "டிக்கெட் குறியீடு: 7K3M-Q9PA"},
	} {
		loc := i18n.For(tt.lang)
		for _, kind := range []Kind{Confirmed, Link, RefundDue, Cancelled, Refunded} {
			m := with(func(m *Message) { m.Kind, m.Lang, m.Reason = kind, string(tt.lang), "show cancelled" })
			c, err := Compose(m)
			if err != nil {
				t.Fatalf("%s %s: %v", tt.lang, kind, err)
			}
			i18ntest.Check(t, string(kind)+" mail", c.HTML, tt.lang)
			if !strings.Contains(c.HTML, `<html lang="`+string(tt.lang)+`">`) {
				t.Errorf("%s %s: the HTML is not marked with its language", tt.lang, kind)
			}
			if !strings.Contains(c.Text, tt.when) || !strings.Contains(c.HTML, tt.when) {
				t.Errorf("%s %s: the mail does not say the time as %q:\n%s", tt.lang, kind, tt.when, c.Text)
			}
			if !strings.Contains(c.Text, loc.T("mail.open_booking")) {
				t.Errorf("%s %s: the text part has no %q:\n%s", tt.lang, kind, loc.T("mail.open_booking"), c.Text)
			}
			if kind != Confirmed {
				continue
			}
			if !strings.HasPrefix(c.Subject, tt.subject) {
				t.Errorf("%s: subject %q, want it to start %q", tt.lang, c.Subject, tt.subject)
			}
			ics := strings.ReplaceAll(string(c.ICS), "\r\n ", "")
			if !strings.Contains(ics, tt.ics) || strings.Contains(ics, "Ticket code:") {
				t.Errorf("%s: the .ics description is not in the language:\n%s", tt.lang, ics)
			}
		}
	}
}

// TestAboutFormatsInTheBookingsLanguage: About writes the booking's
// amount and ticket prices with Localizer.Money (INR in Indian grouping)
// and passes its language on.
func TestAboutFormatsInTheBookingsLanguage(t *testing.T) {
	b := booking.Booking{ID: "b1", SeatIDs: []string{"A1"}, Amount: 12345600, Currency: "INR", State: booking.BookingConfirmed, Lang: "hi",
		Reason: booking.ReasonShowCancelled}
	m := About(booking.Mail{ID: "m1", Kind: booking.MailCancelled}, b, booking.Show{}, testLink)
	if m.Lang != "hi" || m.Amount != "₹1,23,456" {
		t.Errorf("About: lang %q amount %q; want hi, ₹1,23,456", m.Lang, m.Amount)
	}
	if m.Reason != i18n.For(i18n.Hindi).T("reason.show_cancelled") {
		t.Errorf("About: the cancelled show's reason %q is not in Hindi", m.Reason)
	}
}
