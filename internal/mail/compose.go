package mail

import (
	"errors"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	texttemplate "text/template"
	"time"

	qrcode "github.com/skip2/go-qrcode"

	"boxoffice/internal/i18n"
)

// qrSize is about the side of the QR code PNG in pixels: large enough for a
// door scanner reading a phone screen, small enough to stay a kilobyte.
const qrSize = 256

// letter is what a message says, in the order both parts show it; the text
// and HTML templates only lay it out.
type letter struct {
	Lang      string // <html lang>
	Subject   string
	Heading   string
	Paras     []string
	Code      string           // the ticket code, "" when the message carries no ticket
	CodeLabel string           // "Ticket code"
	QRAlt     string           // the QR code's text alternative
	QRSrc     htmltemplate.URL // cid:… of the embedded QR code
	Door      string           // what to do with the code
	Details   []detail         // the booking, a row each
	Link      string           // the booking link
	LinkLabel string           // the words on it
	OrOpen    string           // "Or open this link:"
	Footer    string           // why this address got the email
}

type detail struct{ Label, Value string }

// Compose writes out m: subject, plain text, HTML and, when it carries a
// ticket, the QR code and the .ics event. Senders share it, so the log shows
// what SMTP would have sent; tests read it without a server.
func Compose(m Message) (Composed, error) {
	host, err := bookingHost(m.BookingURL)
	if err != nil {
		return Composed{}, err
	}
	ticket, err := carriesTicket(m)
	if err != nil {
		return Composed{}, err
	}
	tz := zone(m.TimeZone)
	start := m.StartsAt.In(tz)
	lang := langOf(m.Lang)
	loc := i18n.For(lang)
	short := loc.Date(start, "Mon 2 Jan 15:04")
	when := loc.Date(start, "Monday 2 January 2006, 15:04 MST")
	film := oneLine(m.Film)

	l := letter{
		Lang:      string(lang),
		Link:      m.BookingURL,
		LinkLabel: loc.T("mail.open_booking"),
		OrOpen:    loc.T("mail.or_open"),
		CodeLabel: loc.T("mail.ticket_code"),
		Details:   details(loc, m, when),
		Footer:    loc.T("mail.footer"),
	}
	amount := oneLine(m.Amount)
	reason := oneLine(m.Reason)
	// withAmount is message id, or its "_no_amount" form when the amount
	// is not known.
	withAmount := func(id string, args ...any) string {
		if amount == "" {
			return loc.F(id+"_no_amount", args...)
		}
		return loc.F(id, append(args, "Amount", amount)...)
	}
	switch m.Kind {
	case Confirmed:
		l.Subject = loc.F("mail.confirmed_subject", "Film", film, "When", short)
		l.Heading = loc.F("mail.confirmed_heading", "Film", film)
		l.Paras = []string{loc.T("mail.confirmed_body")}
	case Link:
		l.Subject = loc.F("mail.link_subject", "Film", film, "When", short)
		l.Heading = loc.F("mail.link_heading", "Film", film)
		l.Paras = []string{
			loc.T("mail.link_body"),
			loc.F("mail.link_state", "State", stateWords(loc, m.State)),
		}
	case RefundDue:
		l.Subject = loc.F("mail.refund_due_subject", "Film", film, "When", short)
		l.Heading = loc.T("mail.refund_due_heading")
		first := withAmount("mail.refund_due_body", "Film", film)
		if reason != "" {
			first = withAmount("mail.refund_due_body_reason", "Film", film, "Reason", reason)
		}
		l.Paras = []string{first, loc.T("mail.refund_due_money")}
	case Cancelled:
		l.Subject = loc.F("mail.cancelled_subject", "Film", film, "When", short)
		l.Heading = loc.T("mail.cancelled_heading")
		l.Paras = []string{
			loc.F("mail.cancelled_body", "Film", film, "When", when),
			withAmount("mail.cancelled_refund"),
		}
	case Refunded:
		l.Subject = loc.F("mail.refunded_subject", "Film", film, "When", short)
		l.Heading = loc.T("mail.refunded_heading")
		l.Paras = []string{withAmount("mail.refunded_body", "Film", film)}
		if reason != "" {
			l.Paras = append(l.Paras, loc.F("mail.refunded_reason", "Reason", reason))
		}
	default:
		return Composed{}, fmt.Errorf("mail: compose: unknown kind %q", m.Kind)
	}

	c := Composed{Subject: l.Subject}
	if ticket {
		code := oneLine(m.TicketCode)
		png, err := qrPNG(code)
		if err != nil {
			return Composed{}, fmt.Errorf("mail: compose: QR code: %w", err)
		}
		safe := fileSafe(code)
		c.QR = png
		c.QRName = "ticket-" + safe + ".png"
		c.QRContentID = "ticket-" + safe + "@" + idDomain(host)
		c.ICS = calendar(loc, m, host, time.Now())
		c.ICSName = "ticket-" + safe + ".ics"
		l.Code = code
		l.QRSrc = htmltemplate.URL("cid:" + c.QRContentID)
		l.Door = loc.T("mail.door")
		l.QRAlt = loc.F("mail.qr_alt", "Code", code)
	}

	var text, html strings.Builder
	if err := textTmpl.Execute(&text, l); err != nil {
		return Composed{}, fmt.Errorf("mail: compose: text: %w", err)
	}
	if err := htmlTmpl.Execute(&html, l); err != nil {
		return Composed{}, fmt.Errorf("mail: compose: html: %w", err)
	}
	c.Text, c.HTML = text.String(), html.String()
	return c, nil
}

// qrPNG is the QR code of code (medium error correction, with its quiet
// zone) as a PNG of about qrSize pixels, each module a whole number of
// pixels wide so that its edges stay sharp.
func qrPNG(code string) ([]byte, error) {
	q, err := qrcode.New(code, qrcode.Medium)
	if err != nil {
		return nil, err
	}
	perModule := max(1, qrSize/len(q.Bitmap()))
	return q.PNG(-perModule)
}

// carriesTicket says whether m shows the ticket code, its QR code and the
// .ics: a confirmation always does, the booking link again when the
// booking is confirmed.
func carriesTicket(m Message) (bool, error) {
	switch {
	case m.Kind == Confirmed && strings.TrimSpace(m.TicketCode) == "":
		return false, errors.New("mail: compose: a confirmation needs its ticket code")
	case m.Kind == Confirmed:
		return true, nil
	case m.Kind == Link:
		return m.State == "confirmed" && strings.TrimSpace(m.TicketCode) != "", nil
	}
	return false, nil
}

// bookingHost is the host of the booking link, which also names the
// Message-ID, the event's UID and the QR code's Content-ID.
func bookingHost(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
		return "", errors.New("mail: compose: the booking link must be an absolute http(s) URL")
	}
	return u.Hostname(), nil
}

// idDomain is host as the right-hand side of a Message-ID or Content-ID:
// an IPv6 address goes in brackets.
func idDomain(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// zone is the theatre's zone; an unknown one shows the time in UTC, which
// the zone abbreviation next to it keeps correct.
func zone(name string) *time.Location {
	if name == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	return loc
}

func details(loc *i18n.Localizer, m Message, when string) []detail {
	film := oneLine(m.Film)
	if r := oneLine(m.Rating); r != "" && film != "" {
		film += " (" + r + ")"
	}
	where := oneLine(m.Theatre)
	if city := oneLine(m.City); city != "" {
		where = strings.TrimPrefix(where+", "+city, ", ")
	}
	rows := []detail{
		{loc.T("mail.film"), film},
		{loc.T("mail.when"), when},
		{loc.T("mail.where"), where},
		{loc.T("mail.screen"), oneLine(m.Screen)},
		{loc.T("mail.seats"), oneLine(strings.Join(m.Seats, ", "))},
		{loc.T("mail.tickets"), oneLine(strings.Join(m.Tickets, ", "))},
		{loc.T("mail.amount"), oneLine(m.Amount)},
		{loc.T("mail.booking"), oneLine(m.BookingID)},
	}
	kept := rows[:0]
	for _, r := range rows {
		if r.Value != "" {
			kept = append(kept, r)
		}
	}
	return kept
}

// stateWords says a booking's state the way a moviegoer would.
func stateWords(loc *i18n.Localizer, state string) string {
	switch state {
	case "pending", "confirmed", "failed", "refund_due", "refunded":
		return loc.T("mail.state_" + state)
	case "":
		return loc.T("mail.state_unknown")
	}
	return strings.ReplaceAll(oneLine(state), "_", " ")
}

// langOf is the language a message is written in: its booking's, else
// English (a booking a process of an older release stored before the
// store gave it DEFAULT_LANG).
func langOf(code string) i18n.Lang {
	if l, ok := i18n.Parse(code); ok {
		return l
	}
	return i18n.English
}

// oneLine folds any run of white space, line breaks included, into one
// space and drops control characters, so no field can break a header line.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// fileSafe keeps the letters, digits and dashes of a ticket code, for a
// file name and a Content-ID.
func fileSafe(code string) string {
	var b strings.Builder
	for _, r := range code {
		if r == '-' || ('0' <= r && r <= '9') || ('A' <= r && r <= 'Z') || ('a' <= r && r <= 'z') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "code"
	}
	return b.String()
}

var textTmpl = texttemplate.Must(texttemplate.New("text").Parse(`{{.Heading}}

{{range .Paras}}{{.}}

{{end}}{{if .Code}}{{.CodeLabel}}: {{.Code}}
{{.Door}}

{{end}}{{range .Details}}{{.Label}}: {{.Value}}
{{end}}
{{.LinkLabel}}:
{{.Link}}

-- 
{{.Footer}}
`))

// htmlTmpl is one column of inline-styled tables, which mail clients render
// alike; its only image is the embedded QR code.
var htmlTmpl = htmltemplate.Must(htmltemplate.New("html").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Subject}}</title>
</head>
<body style="margin:0;padding:0;background:#f4f4f5;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5;">
<tr><td align="center" style="padding:16px 8px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#18181b;font-size:16px;line-height:1.5;">
<tr><td style="padding:24px 20px;">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;">{{.Heading}}</h1>
{{range .Paras}}<p style="margin:0 0 16px;">{{.}}</p>
{{end}}{{if .Code}}<div style="margin:0 0 20px;padding:16px 8px;border:2px dashed #18181b;border-radius:8px;text-align:center;">
<div style="font-size:14px;color:#52525b;">{{.CodeLabel}}</div>
<div style="font-family:ui-monospace,Menlo,Consolas,monospace;font-size:32px;font-weight:700;letter-spacing:2px;">{{.Code}}</div>
<img src="{{.QRSrc}}" width="200" height="200" alt="{{.QRAlt}}" style="display:block;margin:12px auto 0;width:200px;max-width:100%;height:auto;">
<div style="font-size:15px;margin-top:8px;">{{.Door}}</div>
</div>
{{end}}<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 20px;border-collapse:collapse;">
{{range .Details}}<tr><td style="padding:6px 12px 6px 0;color:#52525b;vertical-align:top;width:1%;white-space:nowrap;">{{.Label}}</td><td style="padding:6px 0;vertical-align:top;font-weight:600;">{{.Value}}</td></tr>
{{end}}</table>
<p style="margin:0 0 12px;"><a href="{{.Link}}" style="display:inline-block;padding:12px 20px;background:#18181b;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600;">{{.LinkLabel}}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#52525b;word-break:break-all;">{{.OrOpen}} <a href="{{.Link}}" style="color:#1d4ed8;">{{.Link}}</a></p>
<p style="margin:0;font-size:13px;color:#71717a;">{{.Footer}}</p>
</td></tr></table>
</td></tr></table>
</body>
</html>
`))
