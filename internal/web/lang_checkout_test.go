package web_test

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

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

// pageIn is the page at path, asked for in lang (?lang=), on c.
func pageIn(t *testing.T, c *client, path, lang string, want int) response {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	res := c.get(path + sep + "lang=" + lang)
	wantStatus(t, res, want)
	if got := res.doc(t).Find("html").AttrOr("lang", ""); got != lang {
		t.Fatalf("%s in %s: <html lang=%q>", path, lang, got)
	}
	return res
}

// hooks are the data-* hooks of a page's seats (SPEC §20): each
// data-seat-id with its data-ticket-type and data-price, each type select's
// name and its options' values and data-price, and data-amount.
func checkoutHooks(t *testing.T, res response) []string {
	t.Helper()
	d := res.doc(t)
	var out []string
	d.Find("[data-seat-id]").Each(func(_ int, s *goquery.Selection) {
		out = append(out, "seat "+s.AttrOr("data-seat-id", "")+" "+s.AttrOr("data-ticket-type", "")+" "+s.AttrOr("data-price", ""))
	})
	d.Find("select").Each(func(_ int, s *goquery.Selection) {
		out = append(out, "select "+s.AttrOr("name", ""))
		s.Find("option").Each(func(_ int, o *goquery.Selection) {
			out = append(out, "option "+o.AttrOr("value", "")+" "+o.AttrOr("data-price", ""))
		})
	})
	d.Find("[data-amount]").Each(func(_ int, s *goquery.Selection) {
		out = append(out, "amount "+s.AttrOr("data-amount", ""))
	})
	d.Find("[data-ticket]").Each(func(_ int, s *goquery.Selection) {
		out = append(out, "ticket "+s.AttrOr("data-seat-id", "")+" "+s.AttrOr("data-ticket-type", "")+" "+s.AttrOr("data-ticket-code", ""))
	})
	return out
}

// samePage checks the page at path in Hindi and Tamil for English
// catalog text (i18ntest.Check), for the phrases want says each language
// shows, and that its data-* hooks are those of the English page.
func samePage(t *testing.T, c *client, name, path string, status int, want map[i18n.Lang][]string) []string {
	t.Helper()
	en := checkoutHooks(t, pageIn(t, c, path, "en", status))
	for _, lang := range []i18n.Lang{i18n.Hindi, i18n.Tamil} {
		res := pageIn(t, c, path, string(lang), status)
		i18ntest.Check(t, name, res.body, lang)
		for _, w := range want[lang] {
			if !strings.Contains(res.body, w) {
				t.Errorf("%s in %s does not say %q", name, lang, w)
			}
		}
		if got := checkoutHooks(t, res); !slices.Equal(got, en) {
			t.Errorf("%s in %s: data-* hooks\n%v\nwant those in English\n%v", name, lang, got, en)
		}
	}
	return en
}

// wantHooks fails t unless hooks has each of want.
func wantHooks(t *testing.T, name string, hooks []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(hooks, w) {
			t.Errorf("%s has no hook %q: %v", name, w, hooks)
		}
	}
}

// TestCheckoutBookingPrintInHindiAndTamil: the checkout (with a choice of
// types, after a refused Pay, and of a hold that ended), the booking page
// (pending, confirmed, declined) and the print page (confirmed, and
// pending: 409) show no English interface text in Hindi and Tamil, with
// money and dates for the language, and the same data-* hooks as in
// English; a Pay in Hindi stores hi with the booking (SPEC §19, §20).
func TestCheckoutBookingPrintInHindiAndTamil(t *testing.T) {
	a := newApp(t)
	a.typedShow()
	c := a.client()
	hold := c.typedHold("A1", "A2")
	h := samePage(t, c, "checkout", hold, http.StatusOK, map[i18n.Lang][]string{
		i18n.Hindi: {"आपकी सीटें", "टिकटों के लिए ईमेल", "कुल (2 सीटें)"},
		i18n.Tamil: {"உங்கள் இருக்கைகள்", "மொத்தம் (2 இருக்கைகள்)"},
	})
	wantHooks(t, "checkout", h, "select type_A1", "select type_A2")

	// Pay refused: a bad address (422), then accompanied seats only (422,
	// data-rule), each in the page's language.
	for _, tc := range []struct {
		lang  i18n.Lang
		form  url.Values
		want  string
		field string
	}{
		{i18n.Hindi, url.Values{"email": {"not an address"}}, "कृपया एक ईमेल पता लिखें", `[data-field-error="email"]`},
		{i18n.Tamil, url.Values{"email": {testEmail}, "type_A1": {"child"}, "type_A2": {"child"}}, "குறைந்தது ஒரு இருக்கைக்கு", `[data-rule="accompanied"]`},
	} {
		tc.form.Set("_csrf", c.csrf())
		res := c.post(hold+"/pay?lang="+string(tc.lang), tc.form)
		wantStatus(t, res, http.StatusUnprocessableEntity)
		i18ntest.Check(t, "the refused Pay", res.body, tc.lang)
		if got := res.doc(t).Find(tc.field).Text(); !strings.Contains(got, tc.want) {
			t.Errorf("Pay refused in %s says %q; want %q", tc.lang, got, tc.want)
		}
	}

	// Pay in Hindi: the booking keeps hi; its page while pending.
	res := c.post(hold+"/pay?lang=hi", url.Values{"_csrf": {c.csrf()}, "email": {testEmail}})
	wantStatus(t, res, http.StatusSeeOther)
	p, err := a.store.Payment(context.Background(), strings.TrimPrefix(res.Header.Get("Location"), payment.CheckoutPath))
	if err != nil {
		t.Fatal(err)
	}
	if b := a.booking(p); b.Lang != "hi" {
		t.Errorf("a booking paid with ?lang=hi has lang %q", b.Lang)
	}
	bookingPath := "/bookings/" + p.BookingID
	samePage(t, c, "the pending booking", bookingPath, http.StatusOK, map[i18n.Lang][]string{
		i18n.Hindi: {"आपके भुगतान की पुष्टि हो रही है"},
		i18n.Tamil: {"உங்கள் கட்டணம் உறுதிசெய்யப்படுகிறது"},
	})
	samePage(t, c, "the print page of a pending booking", bookingPath+"/print", http.StatusConflict, map[i18n.Lang][]string{
		i18n.Hindi: {"प्रिंट करने के लिए कोई टिकट नहीं"},
		i18n.Tamil: {"அச்சிட டிக்கெட் எதுவும் இல்லை"},
	})

	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)
	// The hold is paid for: its checkout says so, translated.
	samePage(t, c, "the checkout of a paid hold", hold, http.StatusGone, map[i18n.Lang][]string{
		i18n.Hindi: {"आपने इन सीटों का भुगतान कर दिया है", "अपना टिकट देखें"},
		i18n.Tamil: {"உங்கள் டிக்கெட்டைப் பார்க்கவும்"},
	})
	h = samePage(t, c, "the confirmed booking", bookingPath, http.StatusOK, map[i18n.Lang][]string{
		i18n.Hindi: {"आपकी बुकिंग हो गई", "टिकट कोड", "कुल"},
		i18n.Tamil: {"உங்கள் முன்பதிவு முடிந்தது", "டிக்கெட் குறியீடு"},
	})
	wantHooks(t, "the confirmed booking", h, "amount "+strconv.FormatInt(int64(p.Amount), 10))
	h = samePage(t, c, "the print page", bookingPath+"/print", http.StatusOK, map[i18n.Lang][]string{
		i18n.Hindi: {"आपके टिकट", "पंक्ति", "टिकट 1 / 2"},
		i18n.Tamil: {"உங்கள் டிக்கெட்டுகள்", "வரிசை"},
	})
	if len(h) < 4 {
		t.Errorf("the print page's hooks: %v; want a seat and a ticket each of A1, A2", h)
	}

	// Declined.
	p2 := c.mustPay("B1")
	wantStatus(t, a.deliver(a.event(p2, booking.EventPaymentFailed)), http.StatusOK)
	samePage(t, c, "the declined booking", "/bookings/"+p2.BookingID, http.StatusOK, map[i18n.Lang][]string{
		i18n.Hindi: {"भुगतान अस्वीकार हुआ", "कोई पैसा नहीं कटा"},
		i18n.Tamil: {"கட்டணம் நிராகரிக்கப்பட்டது"},
	})

	// A hold that ended: 410 with why.
	gone := c.mustHold("C1")
	a.clock.Advance(time.Hour)
	samePage(t, c, "the checkout of an expired hold", gone, http.StatusGone, map[i18n.Lang][]string{
		i18n.Hindi: {"आपके लिए रोकी गई इन सीटों का समय ख़त्म हो गया है"},
		i18n.Tamil: {"ஒதுக்கீடு காலாவதியானது"},
	})
}

// TestCancelledShowBookingInHindiAndTamil: the page of a booking whose
// show was cancelled (refund due, then refunded with when) and its other
// shows are in the page's language, with the month and weekday names in
// it.
func TestCancelledShowBookingInHindiAndTamil(t *testing.T) {
	a, admin, due, refunded := cancelledShowApp(t)
	a.clock.Set(testStart.Add(20 * time.Minute))
	wantStatus(t, admin.post("/admin/bookings/"+refunded.ID+"/refund", url.Values{"_csrf": {admin.adminCSRF()}}), http.StatusSeeOther)
	link := func(b booking.Booking) string {
		stored, err := a.store.Booking(context.Background(), b.ID)
		if err != nil {
			t.Fatal(err)
		}
		return "/bookings/" + b.ID + "?key=" + url.QueryEscape(stored.Key)
	}
	c := a.client()
	samePage(t, c, "a cancelled show's booking due a refund", link(due), http.StatusOK, map[i18n.Lang][]string{
		i18n.Hindi: {"यह शो रद्द कर दिया गया", "के दूसरे शो"},
		i18n.Tamil: {"இந்தக் காட்சி ரத்து செய்யப்பட்டது", "படத்தின் பிற காட்சிகள்"},
	})
	samePage(t, c, "a cancelled show's refunded booking", link(refunded), http.StatusOK, map[i18n.Lang][]string{
		i18n.Hindi: {"आपके पैसे लौटा दिए गए हैं", "शनि 14 मार्च 2026, 12:20 UTC"},
		i18n.Tamil: {"திருப்பித் தரப்பட்டது"},
	})
}

// TestMailOfABookingWithoutLanguage: a booking stored without a language,
// as an older process does during a rolling deploy, is mailed in
// DEFAULT_LANG, as the next start gives it, not in English.
func TestMailOfABookingWithoutLanguage(t *testing.T) {
	p := testPolicy
	p.DefaultLang = "hi"
	a := newAppWith(t, p)
	mailpit := testkit.Mailpit(t)
	pay := payIn(t, a.client(), "ta", "A1")
	wantStatus(t, a.deliver(a.event(pay, booking.EventPaymentSucceeded)), http.StatusOK)
	db, err := sql.Open("sqlite", a.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE bookings SET lang = '' WHERE id = ?`, pay.BookingID); err != nil {
		t.Fatal(err)
	}
	if n := a.sendMails(t, mailpit.SMTPURL); n != 1 {
		t.Fatalf("sent %d mails, want the confirmation", n)
	}
	msg := mailpit.Message(t, mailpit.WaitFor(t, 1)[0].ID)
	if !strings.Contains(msg.HTML, `<html lang="hi">`) {
		t.Errorf("a booking without a language was mailed in %q; want DEFAULT_LANG hi", msg.Subject)
	}
	i18ntest.Check(t, "the confirmation mail", msg.HTML, i18n.Hindi)
}
