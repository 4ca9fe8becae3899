// Package mail writes and sends the emails boxoffice sends about a booking:
// the ticket when it is confirmed, the booking link again on request, and
// word of a refund or a cancelled show. Each email has a plain-text part and
// an HTML alternative; a ticket also carries its QR code and an .ics event.
//
// Compose decides what a message says; a Sender delivers it: SMTP (NewSMTP)
// in production, Log (NewLog) for development without SMTP_URL.
package mail

import (
	"context"
	"time"
)

// Kind is why a message is sent.
type Kind string

// The kinds of message, one for each event a moviegoer hears about.
const (
	Confirmed Kind = "confirmed"  // the booking is confirmed: the ticket
	RefundDue Kind = "refund_due" // paid but the seats were gone (or another reason): a refund is coming
	Refunded  Kind = "refunded"   // the money went back
	Cancelled Kind = "cancelled"  // the show was cancelled; a refund is coming
	Link      Kind = "link"       // "find my booking": the booking link again (the booking may be in any state)
)

// Message is one email about one booking, with everything it says already
// decided by the caller (formatted amount, absolute link), so that sending
// it again after a failure sends the same email.
type Message struct {
	ID         string // the outbox message's id: the Message-ID is <ID@host of BookingURL>, stable across retries
	Kind       Kind
	To         string
	BookingID  string
	BookingURL string // absolute: https://host/bookings/ID?key=KEY
	State      string // the booking's state when sent: pending, confirmed, failed, refund_due, refunded
	Film       string
	Rating     string
	RuntimeMin int // 0 when unknown (the .ics event then lasts 3 hours)
	Theatre    string
	City       string
	Screen     string
	StartsAt   time.Time // UTC
	TimeZone   string    // the theatre's IANA zone; "" means UTC. Times in the mail are shown in it, with its abbreviation
	Seats      []string  // "A1", "A2"
	Tickets    []string  // each seat with its type and price: "A1 Adult ₹180", "A2 Child (under 12) ₹90"
	Amount     string    // formatted, e.g. "₹450.50"
	TicketCode string    // "7K3M-Q9PA"; set when the booking is confirmed
	Reason     string    // why a refund is due, e.g. "show cancelled" or "the seats were taken before the payment arrived"
	// Lang is the language it is written in, its booking's (SPEC §19):
	// en, hi or ta; "" (or another) is English. Amount and Tickets are
	// formatted in it already.
	Lang string
}

// Sender sends a message. Send returns an error for anything that should be
// retried later; the caller retries with back-off.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Composed is a message written out: what every Sender sends or prints.
type Composed struct {
	Subject string
	Text    string // the text/plain part
	HTML    string // the text/html alternative; it shows the QR code by QRContentID
	// QR is the ticket's QR code as a PNG, nil when the message carries no
	// ticket. It is embedded (QRContentID) and attached (QRName).
	QR          []byte
	QRName      string // ticket-7K3M-Q9PA.png
	QRContentID string // without angle brackets: the HTML says cid:QRContentID
	// ICS is the show as an iCalendar event (METHOD:PUBLISH), nil without a ticket.
	ICS     []byte
	ICSName string // ticket-7K3M-Q9PA.ics
}

// ICSContentType is the content type of Composed.ICS.
const ICSContentType = "text/calendar; charset=utf-8; method=PUBLISH"
