package mail

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	qrcode "github.com/skip2/go-qrcode"
)

const testLink = "https://tickets.example.com/bookings/bk_123?key=s3cr3t&x=1"

// confirmed is a confirmation for 18:00 in Pune (12:30 UTC).
func confirmed() Message {
	return Message{
		ID:         "01JD8X4K2Q",
		Kind:       Confirmed,
		To:         "asha@example.com",
		BookingID:  "bk_123",
		BookingURL: testLink,
		State:      "confirmed",
		Film:       "The Long Night",
		Rating:     "UA",
		RuntimeMin: 142,
		Theatre:    "Bioscope",
		City:       "Pune",
		Screen:     "Screen 2",
		StartsAt:   time.Date(2026, 12, 1, 12, 30, 0, 0, time.UTC),
		TimeZone:   "Asia/Kolkata",
		Seats:      []string{"A1", "A2"},
		Amount:     "₹450.00",
		TicketCode: "7K3M-Q9PA",
	}
}

func with(edit func(*Message)) Message {
	m := confirmed()
	edit(&m)
	return m
}

func TestCompose(t *testing.T) {
	const when = "Tuesday 1 December 2026, 18:00 IST"
	// every message names the booking and links to it, in both parts
	common := []string{testLink, "The Long Night", "A1, A2", when, "Bioscope, Pune", "Screen 2", "₹450.00"}
	tests := []struct {
		name        string
		m           Message
		wantSubject string
		want        []string // in the text and, escaped, in the HTML
		notWant     []string // in neither
		wantTicket  bool
	}{
		{
			name:        "confirmed",
			m:           confirmed(),
			wantSubject: "Your tickets: The Long Night, Tue 1 Dec 18:00",
			want:        []string{"confirmed", "7K3M-Q9PA", "at the door", "UA"},
			wantTicket:  true,
		},
		{
			name:        "link to a confirmed booking",
			m:           with(func(m *Message) { m.Kind = Link }),
			wantSubject: "Your booking: The Long Night, Tue 1 Dec 18:00",
			want:        []string{"The booking is confirmed.", "7K3M-Q9PA", "at the door"},
			wantTicket:  true,
		},
		{
			name:        "link to a pending booking",
			m:           with(func(m *Message) { m.Kind, m.State, m.TicketCode = Link, "pending", "" }),
			wantSubject: "Your booking: The Long Night, Tue 1 Dec 18:00",
			want:        []string{"waiting for its payment"},
			notWant:     []string{"Ticket code", "at the door"},
		},
		{
			name:        "link to a refunded booking keeps its code to itself",
			m:           with(func(m *Message) { m.Kind, m.State = Link, "refunded" }),
			wantSubject: "Your booking: The Long Night, Tue 1 Dec 18:00",
			want:        []string{"The booking is refunded."},
			notWant:     []string{"7K3M-Q9PA", "at the door"},
		},
		{
			name: "refund due",
			m: with(func(m *Message) {
				m.Kind, m.State, m.TicketCode = RefundDue, "refund_due", ""
				m.Reason = "the seats were taken before the payment arrived"
			}),
			wantSubject: "Refund on its way: The Long Night, Tue 1 Dec 18:00",
			want:        []string{"We received your payment of ₹450.00", "no ticket could be issued: the seats were taken before the payment arrived.", "will be refunded"},
			notWant:     []string{"Ticket code", "at the door"},
		},
		{
			name:        "refund due without a reason",
			m:           with(func(m *Message) { m.Kind, m.State, m.TicketCode = RefundDue, "refund_due", "" }),
			wantSubject: "Refund on its way: The Long Night, Tue 1 Dec 18:00",
			want:        []string{"but no ticket could be issued.", "will be refunded"},
		},
		{
			name:        "cancelled",
			m:           with(func(m *Message) { m.Kind, m.Reason = Cancelled, "show cancelled" }),
			wantSubject: "Show cancelled: The Long Night, Tue 1 Dec 18:00",
			want:        []string{"has been cancelled", "no longer valid", "will be refunded"},
			notWant:     []string{"7K3M-Q9PA", "at the door"},
		},
		{
			name:        "refunded",
			m:           with(func(m *Message) { m.Kind, m.State, m.Reason = Refunded, "refunded", "show cancelled" }),
			wantSubject: "Refund made: The Long Night, Tue 1 Dec 18:00",
			want:        []string{"We have refunded your payment of ₹450.00", "The reason: show cancelled."},
			notWant:     []string{"7K3M-Q9PA", "at the door"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compose(tt.m)
			if err != nil {
				t.Fatal(err)
			}
			if c.Subject != tt.wantSubject {
				t.Errorf("Subject = %q, want %q", c.Subject, tt.wantSubject)
			}
			for _, s := range append(append([]string{}, common...), tt.want...) {
				if !strings.Contains(c.Text, s) {
					t.Errorf("text lacks %q:\n%s", s, c.Text)
				}
				if h := htmlEscape(s); !strings.Contains(c.HTML, h) {
					t.Errorf("HTML lacks %q:\n%s", h, c.HTML)
				}
			}
			for _, s := range tt.notWant {
				if strings.Contains(c.Text, s) || strings.Contains(c.HTML, s) {
					t.Errorf("message says %q, want it not to", s)
				}
			}
			if got := c.QR != nil; got != tt.wantTicket {
				t.Errorf("QR code present = %v, want %v", got, tt.wantTicket)
			}
			if got := c.ICS != nil; got != tt.wantTicket {
				t.Errorf(".ics present = %v, want %v", got, tt.wantTicket)
			}
			if tt.wantTicket {
				want := Composed{QRName: "ticket-7K3M-Q9PA.png", QRContentID: "ticket-7K3M-Q9PA@tickets.example.com", ICSName: "ticket-7K3M-Q9PA.ics"}
				got := Composed{QRName: c.QRName, QRContentID: c.QRContentID, ICSName: c.ICSName}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("names (-want +got):\n%s", diff)
				}
				if img := `<img src="cid:` + c.QRContentID + `"`; !strings.Contains(c.HTML, img) {
					t.Errorf("HTML lacks %s", img)
				}
			} else if strings.Contains(c.HTML, "<img") {
				t.Errorf("HTML has an image without a ticket:\n%s", c.HTML)
			}
		})
	}
}

// htmlEscape is s as html/template writes it in text.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

func TestComposeEscapesHTML(t *testing.T) {
	m := with(func(m *Message) {
		m.Film = `<script>alert("x")</script> & Sons`
		m.Theatre = `Rex "Grand" <b>`
		m.Seats = []string{"<A1>"}
	})
	c, err := Compose(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "<b>", "<A1>"} {
		if strings.Contains(c.HTML, bad) {
			t.Errorf("HTML contains %q unescaped:\n%s", bad, c.HTML)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; Sons", "Rex &#34;Grand&#34; &lt;b&gt;", "&lt;A1&gt;"} {
		if !strings.Contains(c.HTML, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	// the text part is plain text: it says the title as it is
	if !strings.Contains(c.Text, m.Film) {
		t.Errorf("text lacks %q", m.Film)
	}
	// the link's & is escaped in href and text alike
	if !strings.Contains(c.HTML, `href="https://tickets.example.com/bookings/bk_123?key=s3cr3t&amp;x=1"`) {
		t.Errorf("HTML lacks the escaped link:\n%s", c.HTML)
	}
}

func TestComposeHeaderSafe(t *testing.T) {
	c, err := Compose(with(func(m *Message) { m.Film = "Evil\r\nBcc: x@example.com" }))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Your tickets: Evil Bcc: x@example.com, Tue 1 Dec 18:00"; c.Subject != want {
		t.Errorf("Subject = %q, want %q", c.Subject, want)
	}
}

func TestComposeZone(t *testing.T) {
	tests := []struct {
		zone, want string
	}{
		{"Asia/Kolkata", "Tuesday 1 December 2026, 18:00 IST"},
		{"Europe/London", "Tuesday 1 December 2026, 12:30 GMT"},
		{"America/New_York", "Tuesday 1 December 2026, 07:30 EST"},
		{"", "Tuesday 1 December 2026, 12:30 UTC"},
		{"Not/AZone", "Tuesday 1 December 2026, 12:30 UTC"},
	}
	for _, tt := range tests {
		t.Run(tt.zone, func(t *testing.T) {
			c, err := Compose(with(func(m *Message) { m.TimeZone = tt.zone }))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(c.Text, tt.want) {
				t.Errorf("text lacks %q:\n%s", tt.want, c.Text)
			}
		})
	}
}

func TestComposeRefuses(t *testing.T) {
	tests := []struct {
		name string
		m    Message
	}{
		{"unknown kind", with(func(m *Message) { m.Kind = "birthday" })},
		{"confirmation without a code", with(func(m *Message) { m.TicketCode = " " })},
		{"relative link", with(func(m *Message) { m.BookingURL = "/bookings/bk_123?key=k" })},
		{"javascript link", with(func(m *Message) { m.BookingURL = "javascript:alert(1)" })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Compose(tt.m); err == nil {
				t.Error("Compose succeeded, want an error")
			}
		})
	}
}

// TestComposeQR reads the PNG back and checks, module by module, that it
// is the QR code of exactly the ticket code at medium error correction.
func TestComposeQR(t *testing.T) {
	c, err := Compose(confirmed())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(c.QR))
	if err != nil {
		t.Fatalf("QR code is not a PNG: %v", err)
	}
	b := img.Bounds()
	if b.Dx() != b.Dy() || b.Dx() < 200 || b.Dx() > 300 {
		t.Fatalf("QR code is %dx%d, want a square of about 256 px", b.Dx(), b.Dy())
	}
	q, err := qrcode.New("7K3M-Q9PA", qrcode.Medium)
	if err != nil {
		t.Fatal(err)
	}
	want := q.Bitmap()
	px := b.Dx() / len(want)
	if px*len(want) != b.Dx() {
		t.Fatalf("QR code is %d px for %d modules: modules are not whole pixels", b.Dx(), len(want))
	}
	for y, row := range want {
		for x, dark := range row {
			r, _, _, _ := img.At(x*px+px/2, y*px+px/2).RGBA()
			if got := r < 0x8000; got != dark {
				t.Fatalf("module (%d,%d) dark = %v, want %v", x, y, got, dark)
			}
		}
	}
}
