package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"boxoffice/internal/booking"
	"boxoffice/internal/i18n"
	"boxoffice/internal/i18n/i18ntest"
	"boxoffice/internal/mail"
	"boxoffice/internal/payment"
	"boxoffice/internal/testkit"
	"boxoffice/internal/web"
)

// payIn holds seats on c and presses Pay on a page in lang (?lang=), and
// returns the pending payment.
func payIn(t *testing.T, c *client, lang string, seats ...string) booking.Payment {
	t.Helper()
	hold := c.mustHold(seats...)
	res := c.post(hold+"/pay?lang="+lang, url.Values{"_csrf": {c.csrf()}, "email": {testEmail}})
	wantStatus(t, res, http.StatusSeeOther)
	id, ok := strings.CutPrefix(res.Header.Get("Location"), payment.CheckoutPath)
	if !ok {
		t.Fatalf("Pay sent the browser to %q", res.Header.Get("Location"))
	}
	p, err := c.app.store.Payment(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// sendMails sends the outbox's due mails through SMTP to mailpit.
func (a *app) sendMails(t *testing.T, mailpitURL string) int {
	t.Helper()
	sender, err := mail.NewSMTP(mailpitURL, "boxoffice <tickets@example.com>")
	if err != nil {
		t.Fatal(err)
	}
	n, err := a.svc.SendMail(context.Background(), 10, func(ctx context.Context, m booking.Mail, b booking.Booking, sh booking.Show) error {
		return sender.Send(ctx, mail.About(m, b, sh, web.BookingLink(a.srv.URL, b)))
	})
	if err != nil {
		t.Fatalf("SendMail: %v", err)
	}
	return n
}

// TestMailInTheBookingsLanguage: a booking paid on a Tamil page keeps ta,
// and its confirmation mail is in Tamil (subject, text and HTML, sent
// through a real SMTP server); Find my booking, asked for on an English
// page, mails the link in the booking's Tamil too (SPEC §19).
func TestMailInTheBookingsLanguage(t *testing.T) {
	a := newApp(t)
	mailpit := testkit.Mailpit(t)
	c := a.client()
	p := payIn(t, c, "ta", "A1", "A2")
	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)
	b := a.booking(p)
	if b.Lang != "ta" {
		t.Fatalf("a booking paid with ?lang=ta has lang %q", b.Lang)
	}
	if n := a.sendMails(t, mailpit.SMTPURL); n != 1 {
		t.Fatalf("sent %d mails, want the confirmation", n)
	}
	msg := mailpit.Message(t, mailpit.WaitFor(t, 1)[0].ID)
	if !strings.HasPrefix(msg.Subject, "உங்கள் டிக்கெட்டுகள்: ") {
		t.Errorf("the confirmation's subject %q is not in Tamil", msg.Subject)
	}
	i18ntest.Check(t, "the confirmation mail", msg.HTML, i18n.Tamil)
	for _, want := range []string{"உங்கள் முன்பதிவு உறுதியானது", "டிக்கெட் குறியீடு", b.TicketCode, "₹360"} {
		if !strings.Contains(msg.HTML, want) || !strings.Contains(msg.Text, want) {
			t.Errorf("the confirmation mail does not say %q:\n%s", want, msg.Text)
		}
	}
	if !strings.Contains(msg.HTML, `<html lang="ta">`) {
		t.Errorf("the confirmation's HTML is not marked lang=ta")
	}

	finder := a.client()
	res := finder.post("/bookings/find?lang=en", url.Values{"_csrf": {finder.csrf()}, "email": {testEmail}, "code": {b.TicketCode}})
	wantStatus(t, res, http.StatusOK)
	if lang := res.doc(t).Find("html").AttrOr("lang", ""); lang != "en" {
		t.Fatalf("find my booking answered in %q, want the English page", lang)
	}
	if n := a.sendMails(t, mailpit.SMTPURL); n != 1 {
		t.Fatalf("sent %d mails, want the link", n)
	}
	var link testkit.MailpitMessage
	for _, m := range mailpit.WaitFor(t, 2) {
		if m.ID != msg.ID {
			link = mailpit.Message(t, m.ID)
		}
	}
	if !strings.HasPrefix(link.Subject, "உங்கள் முன்பதிவு: ") {
		t.Errorf("find my booking's mail, asked for in English, has subject %q; want the booking's Tamil", link.Subject)
	}
	i18ntest.Check(t, "find my booking's mail", link.HTML, i18n.Tamil)
}
