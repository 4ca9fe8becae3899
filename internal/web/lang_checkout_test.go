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

// bookingHooks are the data-* hooks of a checkout, booking or print page
// (SPEC §20): each data-seat-id with its data-ticket-type and data-price,
// each type select's name and its options' values and data-price,
// data-amount, and each ticket's seat, type and code.
var bookingHooks = []hookSet{
	hooksOf("[data-seat-id]", "data-seat-id", "data-ticket-type", "data-price"),
	hooksOf("select", "name"),
	hooksOf("option", "value", "data-price"),
	hooksOf("[data-amount]", "data-amount"),
	hooksOf("[data-ticket]", "data-seat-id", "data-ticket-type", "data-ticket-code"),
}

// langOf is the page at path on c, asked for in a language (?lang=).
func langOf(c *client, path string) func(i18n.Lang) response {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return func(lang i18n.Lang) response { return c.get(path + sep + "lang=" + string(lang)) }
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
	h := wantLikeEnglish(t, "checkout", langOf(c, hold), http.StatusOK, bookingHooks, map[i18n.Lang][]string{
		i18n.Hindi: {"आपकी सीटें", "टिकटों के लिए ईमेल", "कुल (2 सीटें)"},
		i18n.Tamil: {"உங்கள் இருக்கைகள்", "மொத்தம் (2 இருக்கைகள்)"},
	})
	wantHooks(t, "checkout", h, "select: name=type_A1", "select: name=type_A2")

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
	wantLikeEnglish(t, "the pending booking", langOf(c, bookingPath), http.StatusOK, bookingHooks, map[i18n.Lang][]string{
		i18n.Hindi: {"आपके भुगतान की पुष्टि हो रही है"},
		i18n.Tamil: {"உங்கள் கட்டணம் உறுதிசெய்யப்படுகிறது"},
	})
	wantLikeEnglish(t, "the print page of a pending booking", langOf(c, bookingPath+"/print"), http.StatusConflict, bookingHooks, map[i18n.Lang][]string{
		i18n.Hindi: {"प्रिंट करने के लिए कोई टिकट नहीं"},
		i18n.Tamil: {"அச்சிட டிக்கெட் எதுவும் இல்லை"},
	})

	wantStatus(t, a.deliver(a.event(p, booking.EventPaymentSucceeded)), http.StatusOK)
	// The hold is paid for: its checkout says so, translated.
	wantLikeEnglish(t, "the checkout of a paid hold", langOf(c, hold), http.StatusGone, bookingHooks, map[i18n.Lang][]string{
		i18n.Hindi: {"आपने इन सीटों का भुगतान कर दिया है", "अपना टिकट देखें"},
		i18n.Tamil: {"உங்கள் டிக்கெட்டைப் பார்க்கவும்"},
	})
	h = wantLikeEnglish(t, "the confirmed booking", langOf(c, bookingPath), http.StatusOK, bookingHooks, map[i18n.Lang][]string{
		i18n.Hindi: {"आपकी बुकिंग हो गई", "टिकट कोड", "कुल"},
		i18n.Tamil: {"உங்கள் முன்பதிவு முடிந்தது", "டிக்கெட் குறியீடு"},
	})
	wantHooks(t, "the confirmed booking", h, "[data-amount]: data-amount="+strconv.FormatInt(int64(p.Amount), 10))
	h = wantLikeEnglish(t, "the print page", langOf(c, bookingPath+"/print"), http.StatusOK, bookingHooks, map[i18n.Lang][]string{
		i18n.Hindi: {"आपके टिकट", "पंक्ति", "टिकट 1 / 2"},
		i18n.Tamil: {"உங்கள் டிக்கெட்டுகள்", "வரிசை"},
	})
	if len(h) < 4 {
		t.Errorf("the print page's hooks: %v; want a seat and a ticket each of A1, A2", h)
	}

	// Declined.
	p2 := c.mustPay("B1")
	wantStatus(t, a.deliver(a.event(p2, booking.EventPaymentFailed)), http.StatusOK)
	wantLikeEnglish(t, "the declined booking", langOf(c, "/bookings/"+p2.BookingID), http.StatusOK, bookingHooks, map[i18n.Lang][]string{
		i18n.Hindi: {"भुगतान अस्वीकार हुआ", "कोई पैसा नहीं कटा"},
		i18n.Tamil: {"கட்டணம் நிராகரிக்கப்பட்டது"},
	})

	// A hold that ended: 410 with why.
	gone := c.mustHold("C1")
	a.clock.Advance(time.Hour)
	wantLikeEnglish(t, "the checkout of an expired hold", langOf(c, gone), http.StatusGone, bookingHooks, map[i18n.Lang][]string{
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
	wantLikeEnglish(t, "a cancelled show's booking due a refund", langOf(c, link(due)), http.StatusOK, bookingHooks, map[i18n.Lang][]string{
		i18n.Hindi: {"यह शो रद्द कर दिया गया", "के दूसरे शो"},
		i18n.Tamil: {"இந்தக் காட்சி ரத்து செய்யப்பட்டது", "படத்தின் பிற காட்சிகள்"},
	})
	wantLikeEnglish(t, "a cancelled show's refunded booking", langOf(c, link(refunded)), http.StatusOK, bookingHooks, map[i18n.Lang][]string{
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
