package web_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"boxoffice/internal/booking"
	"boxoffice/internal/mail"
	"boxoffice/internal/testkit"
	"boxoffice/internal/web"
)

// TestTypesMail: the confirmation mail of a booking with ticket types,
// sent to a real SMTP server (mailpit), lists each seat with its type, the
// type's note and its price, in the text and in the HTML.
func TestTypesMail(t *testing.T) {
	a := newApp(t)
	a.typedShow()
	mailpit := testkit.Mailpit(t)
	a.bookTyped(booking.TypeChoice{"A1": "senior", "A2": "child"}, "A1", "A2", "D2")

	sender, err := mail.NewSMTP(mailpit.SMTPURL, "boxoffice <tickets@example.com>")
	if err != nil {
		t.Fatal(err)
	}
	n, err := a.svc.SendMail(context.Background(), 10, func(ctx context.Context, m booking.Mail, b booking.Booking, sh booking.Show) error {
		return sender.Send(ctx, mail.About(m, b, sh, web.BookingLink(a.srv.URL, b)))
	})
	if err != nil || n != 1 {
		t.Fatalf("SendMail = %d, %v; want the confirmation sent", n, err)
	}
	msg := mailpit.Message(t, mailpit.WaitFor(t, 1)[0].ID)
	space := regexp.MustCompile(`\s+`)
	text := space.ReplaceAllString(msg.Text, " ")
	html := space.ReplaceAllString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(msg.HTML, " "), " ")
	for _, want := range []string{
		"A1 Senior (ID needed) ₹126",
		"A2 Child (under 12) ₹90",
		"D2 Adult ₹250",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the mail's text does not list %q:\n%s", want, msg.Text)
		}
		if !strings.Contains(html, want) {
			t.Errorf("the mail's HTML does not list %q:\n%s", want, msg.HTML)
		}
	}
	if !strings.Contains(text, "₹466") || !strings.Contains(html, "₹466") {
		t.Errorf("the mail does not say the total ₹466 (12600 + 9000 + 25000)")
	}
}
