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
)

// qrSize is about the side of the QR code PNG in pixels: large enough for a
// door scanner reading a phone screen, small enough to stay a kilobyte.
const qrSize = 256

// letter is what a message says, in the order both parts show it; the text
// and HTML templates only lay it out.
type letter struct {
	Subject   string
	Heading   string
	Paras     []string
	Code      string           // the ticket code, "" when the message carries no ticket
	QRSrc     htmltemplate.URL // cid:… of the embedded QR code
	Door      string           // what to do with the code
	Details   []detail         // the booking, a row each
	Link      string           // the booking link
	LinkLabel string           // the words on it
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
	loc := zone(m.TimeZone)
	start := m.StartsAt.In(loc)
	short := start.Format("Mon 2 Jan 15:04")
	when := start.Format("Monday 2 January 2006, 15:04 MST")
	film := oneLine(m.Film)

	l := letter{
		Link:      m.BookingURL,
		LinkLabel: "Open your booking",
		Details:   details(m, when),
		Footer:    "You get this email because this address was given for the booking.",
	}
	amount := oneLine(m.Amount)
	reason := oneLine(m.Reason)
	switch m.Kind {
	case Confirmed:
		l.Subject = "Your tickets: " + film + ", " + short
		l.Heading = "Your tickets for " + film
		l.Paras = []string{"Your booking is confirmed. Enjoy the show!"}
	case Link:
		l.Subject = "Your booking: " + film + ", " + short
		l.Heading = "Your booking for " + film
		l.Paras = []string{
			"Here is the link to your booking, as asked for.",
			"The booking is " + stateWords(m.State) + ".",
		}
	case RefundDue:
		l.Subject = "Refund on its way: " + film + ", " + short
		l.Heading = "Your payment will be refunded"
		why := "but no ticket could be issued."
		if reason != "" {
			why = "but no ticket could be issued: " + reason + "."
		}
		l.Paras = []string{
			"We received your payment" + ofAmount(amount) + " for " + film + ", " + why,
			"The money will be refunded to the way you paid; you need not do anything. Your bank may take a few days to show it.",
		}
	case Cancelled:
		l.Subject = "Show cancelled: " + film + ", " + short
		l.Heading = "The show has been cancelled"
		l.Paras = []string{
			"We are sorry: the show of " + film + " on " + when + " has been cancelled, and its tickets are no longer valid.",
			"Your payment" + ofAmount(amount) + " will be refunded to the way you paid; you need not do anything.",
		}
	case Refunded:
		l.Subject = "Refund made: " + film + ", " + short
		l.Heading = "Your refund has been made"
		l.Paras = []string{
			"We have refunded your payment" + ofAmount(amount) + " for " + film + " to the way you paid. Your bank may take a few days to show it.",
		}
		if reason != "" {
			l.Paras = append(l.Paras, "The reason: "+reason+".")
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
		c.ICS = calendar(m, host, time.Now())
		c.ICSName = "ticket-" + safe + ".ics"
		l.Code = code
		l.QRSrc = htmltemplate.URL("cid:" + c.QRContentID)
		l.Door = "Show this code, or its QR code, at the door."
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

func details(m Message, when string) []detail {
	film := oneLine(m.Film)
	if r := oneLine(m.Rating); r != "" && film != "" {
		film += " (" + r + ")"
	}
	where := oneLine(m.Theatre)
	if city := oneLine(m.City); city != "" {
		where = strings.TrimPrefix(where+", "+city, ", ")
	}
	rows := []detail{
		{"Film", film},
		{"When", when},
		{"Where", where},
		{"Screen", oneLine(m.Screen)},
		{"Seats", oneLine(strings.Join(m.Seats, ", "))},
		{"Tickets", oneLine(strings.Join(m.Tickets, ", "))},
		{"Amount", oneLine(m.Amount)},
		{"Booking", oneLine(m.BookingID)},
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
func stateWords(state string) string {
	switch state {
	case "pending":
		return "waiting for its payment to be confirmed"
	case "confirmed":
		return "confirmed"
	case "failed":
		return "not completed: no payment went through"
	case "refund_due":
		return "not confirmed, and its payment is being refunded"
	case "refunded":
		return "refunded"
	case "":
		return "being processed"
	}
	return strings.ReplaceAll(oneLine(state), "_", " ")
}

func ofAmount(amount string) string {
	if amount == "" {
		return ""
	}
	return " of " + amount
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

{{end}}{{if .Code}}Ticket code: {{.Code}}
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
<html lang="en">
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
<div style="font-size:14px;color:#52525b;">Ticket code</div>
<div style="font-family:ui-monospace,Menlo,Consolas,monospace;font-size:32px;font-weight:700;letter-spacing:2px;">{{.Code}}</div>
<img src="{{.QRSrc}}" width="200" height="200" alt="QR code of ticket {{.Code}}" style="display:block;margin:12px auto 0;width:200px;max-width:100%;height:auto;">
<div style="font-size:15px;margin-top:8px;">{{.Door}}</div>
</div>
{{end}}<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 20px;border-collapse:collapse;">
{{range .Details}}<tr><td style="padding:6px 12px 6px 0;color:#52525b;vertical-align:top;width:1%;white-space:nowrap;">{{.Label}}</td><td style="padding:6px 0;vertical-align:top;font-weight:600;">{{.Value}}</td></tr>
{{end}}</table>
<p style="margin:0 0 12px;"><a href="{{.Link}}" style="display:inline-block;padding:12px 20px;background:#18181b;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600;">{{.LinkLabel}}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#52525b;word-break:break-all;">Or open this link: <a href="{{.Link}}" style="color:#1d4ed8;">{{.Link}}</a></p>
<p style="margin:0;font-size:13px;color:#71717a;">{{.Footer}}</p>
</td></tr></table>
</td></tr></table>
</body>
</html>
`))
