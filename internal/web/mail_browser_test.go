package web_test

import (
	"context"
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"boxoffice/internal/booking"
	"boxoffice/internal/mail"
	"boxoffice/internal/testkit"
	"boxoffice/internal/web"
)

// TestTicketMail: the confirmation mail reaches a real SMTP server; its
// link opens the ticket in a fresh browser that never saw the session; its
// QR code, decoded by the same jsQR the door uses, is the ticket code.
func TestTicketMail(t *testing.T) {
	a := newApp(t)
	mailpit := testkit.Mailpit(t)
	c := a.client()
	p := c.mustPay("A1", "A2")
	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), 200)
	b := a.booking(p)

	sender, err := mail.NewSMTP(mailpit.SMTPURL, "boxoffice <tickets@example.com>")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	n, err := a.svc.SendMail(ctx, 10, func(ctx context.Context, m booking.Mail, b booking.Booking, sh booking.Show) error {
		return sender.Send(ctx, mail.About(m, b, sh, web.BookingLink(a.srv.URL, b)))
	})
	if err != nil || n != 1 {
		t.Fatalf("SendMail = %d, %v; want the confirmation sent", n, err)
	}
	msg := mailpit.Message(t, mailpit.WaitFor(t, 1)[0].ID)
	if msg.To[0].Address != testEmail {
		t.Errorf("mail to %v, want %s", msg.To, testEmail)
	}
	link := regexp.MustCompile(regexp.QuoteMeta(a.srv.URL) + `/bookings/` + b.ID + `\?key=[A-Za-z0-9_%-]+`).FindString(msg.Text)
	if link == "" || !strings.Contains(msg.HTML, b.ID) {
		t.Fatalf("no booking link in the mail:\n%s", msg.Text)
	}
	var png []byte
	for _, part := range append(msg.Inline, msg.Attachments...) {
		if part.ContentType == "image/png" {
			png = mailpit.Part(t, msg.ID, part.PartID)
			break
		}
	}
	if png == nil {
		t.Fatalf("no QR code image in the mail: inline %+v, attachments %+v", msg.Inline, msg.Attachments)
	}

	br := testkit.NewBrowser(t, nil) // its own profile: no cookie of c's
	br.Do(chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("[data-ticket-code]")))
	if code := testkit.Eval[string](br, `document.querySelector('[data-ticket-code]').dataset.ticketCode`); code != b.TicketCode {
		t.Fatalf("the link opens ticket %q, want %q", code, b.TicketCode)
	}
	// Decode the mailed PNG in the page with the vendored jsQR.
	br.Do(chromedp.Evaluate[chromedp.Void](`(() => {
		const s = document.createElement('script');
		s.src = document.querySelector('link[rel=stylesheet]').href.replace('css/app.css', 'vendor/jsQR.js');
		document.head.append(s);
	})()`))
	br.WaitFor(`typeof window.jsQR === 'function'`, 5*time.Second)
	br.Do(chromedp.Evaluate[chromedp.Void](`(() => {
		const img = new Image();
		img.onload = () => {
			const c = document.createElement('canvas');
			c.width = img.width; c.height = img.height;
			const g = c.getContext('2d');
			g.drawImage(img, 0, 0);
			const r = window.jsQR(g.getImageData(0, 0, c.width, c.height).data, c.width, c.height);
			window.decodedQR = r ? r.data : '';
		};
		img.src = 'data:image/png;base64,` + base64.StdEncoding.EncodeToString(png) + `';
	})()`))
	br.WaitFor(`typeof window.decodedQR === 'string'`, 5*time.Second)
	if got := testkit.Eval[string](br, `window.decodedQR`); got != b.TicketCode {
		t.Errorf("the mailed QR code decodes to %q, want the ticket code %q", got, b.TicketCode)
	}
}
