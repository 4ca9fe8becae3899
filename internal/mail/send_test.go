package mail

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"image/png"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boxoffice/internal/testkit"

	"github.com/google/go-cmp/cmp"
)

const testFrom = "boxoffice <tickets@example.com>"

func newSMTP(t *testing.T, rawURL string) *SMTP {
	t.Helper()
	s, err := NewSMTP(rawURL, testFrom)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func send(t *testing.T, s *SMTP, m Message) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := s.Send(ctx, m); err != nil {
		t.Fatalf("Send: %v", err)
	}
}

// TestSendConfirmed sends a ticket through a real SMTP server and reads it
// back as a mail client would: headers, both parts, the QR code embedded
// and attached, and the event.
func TestSendConfirmed(t *testing.T) {
	mp := testkit.Mailpit(t)
	send(t, newSMTP(t, mp.SMTPURL), confirmed())

	list := mp.WaitFor(t, 1)
	got := mp.Message(t, list[0].ID)
	type head struct {
		MessageID string
		From      testkit.MailpitAddress
		To        []testkit.MailpitAddress
		Subject   string
	}
	want := head{
		MessageID: "01JD8X4K2Q@tickets.example.com",
		From:      testkit.MailpitAddress{Name: "boxoffice", Address: "tickets@example.com"},
		To:        []testkit.MailpitAddress{{Address: "asha@example.com"}},
		Subject:   "Your tickets: The Long Night, Tue 1 Dec 18:00",
	}
	if diff := cmp.Diff(want, head{got.MessageID, got.From, got.To, got.Subject}); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if age := time.Since(got.Date); age < -time.Minute || age > time.Minute {
		t.Errorf("Date = %v, want about now", got.Date)
	}
	for _, s := range []string{testLink, "7K3M-Q9PA", "Tuesday 1 December 2026, 18:00 IST", "A1, A2", "₹450.00"} {
		if !strings.Contains(got.Text, s) {
			t.Errorf("text part lacks %q:\n%s", s, got.Text)
		}
		if !strings.Contains(got.HTML, htmlEscape(s)) {
			t.Errorf("HTML part lacks %q", s)
		}
	}
	raw := string(mp.Raw(t, list[0].ID))
	for _, s := range []string{"multipart/alternative", "multipart/related", "multipart/mixed"} {
		if !strings.Contains(raw, s) {
			t.Errorf("raw message lacks %q", s)
		}
	}

	h := mp.Headers(t, list[0].ID)
	if got := h["Message-Id"]; len(got) != 1 || got[0] != "<01JD8X4K2Q@tickets.example.com>" {
		t.Errorf("Message-ID headers = %q, want <01JD8X4K2Q@tickets.example.com>", got)
	}
	if len(h["Date"]) != 1 {
		t.Errorf("Date headers = %q, want one", h["Date"])
	}

	// the QR code, embedded where the HTML shows it
	if len(got.Inline) != 1 {
		t.Fatalf("inline parts = %+v, want the QR code", got.Inline)
	}
	inline := got.Inline[0]
	if inline.ContentType != "image/png" || inline.ContentID != "ticket-7K3M-Q9PA@tickets.example.com" {
		t.Errorf("inline part = %+v, want an image/png with Content-ID ticket-7K3M-Q9PA@tickets.example.com", inline)
	}
	if !strings.Contains(got.HTML, `src="cid:`+inline.ContentID+`"`) {
		t.Errorf("HTML does not show cid:%s", inline.ContentID)
	}
	checkPNG(t, mp.Part(t, got.ID, inline.PartID))

	// the QR code again and the event, as attachments
	files := map[string]testkit.MailpitPart{}
	for _, a := range got.Attachments {
		files[a.FileName] = a
	}
	qr, ok := files["ticket-7K3M-Q9PA.png"]
	if !ok || qr.ContentType != "image/png" {
		t.Errorf("attachments = %+v, want ticket-7K3M-Q9PA.png as image/png", got.Attachments)
	} else {
		checkPNG(t, mp.Part(t, got.ID, qr.PartID))
	}
	ics, ok := files["ticket-7K3M-Q9PA.ics"]
	if !ok || !strings.HasPrefix(ics.ContentType, "text/calendar") {
		t.Fatalf("attachments = %+v, want ticket-7K3M-Q9PA.ics as text/calendar", got.Attachments)
	}
	if ct := contentTypeOf(raw, "ticket-7K3M-Q9PA.ics"); !strings.Contains(ct, "method=PUBLISH") {
		t.Errorf("the .ics is sent as %q, want method=PUBLISH", ct)
	}
	event := props(unfold(t, string(mp.Part(t, got.ID, ics.PartID))))
	if event["UID"] != "bk_123@tickets.example.com" || event["DTSTART"] != "20261201T123000Z" || event["SUMMARY"] != "The Long Night" {
		t.Errorf("event = %v", event)
	}
}

// contentTypeOf is the Content-Type header of the part of raw named name.
func contentTypeOf(raw, name string) string {
	for _, line := range strings.Split(raw, "\r\n") {
		if strings.HasPrefix(line, "Content-Type:") && strings.Contains(line, name) {
			return line
		}
	}
	return ""
}

func checkPNG(t *testing.T, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Errorf("not a PNG: %v", err)
		return
	}
	if s := img.Bounds().Size(); s.X != s.Y || s.X < 200 || s.X > 300 {
		t.Errorf("PNG is %v, want a square of about 256 px", s)
	}
}

func TestSendCancelled(t *testing.T) {
	mp := testkit.Mailpit(t)
	m := with(func(m *Message) { m.ID, m.Kind, m.Reason = "01JD8X9ZZZ", Cancelled, "show cancelled" })
	send(t, newSMTP(t, mp.SMTPURL), m)

	got := mp.Message(t, mp.WaitFor(t, 1)[0].ID)
	if got.Subject != "Show cancelled: The Long Night, Tue 1 Dec 18:00" || got.MessageID != "01JD8X9ZZZ@tickets.example.com" {
		t.Errorf("Subject, Message-ID = %q, %q", got.Subject, got.MessageID)
	}
	if len(got.To) != 1 || got.To[0].Address != "asha@example.com" {
		t.Errorf("To = %+v", got.To)
	}
	for _, s := range []string{"has been cancelled", "will be refunded", testLink} {
		if !strings.Contains(got.Text, s) || !strings.Contains(got.HTML, htmlEscape(s)) {
			t.Errorf("text or HTML lacks %q", s)
		}
	}
	if len(got.Inline)+len(got.Attachments) != 0 {
		t.Errorf("inline %+v, attachments %+v; want none", got.Inline, got.Attachments)
	}
}

// TestSendAuthenticates sends as the user of SMTP_URL: over plain SMTP,
// which PLAIN allows only to loopback.
func TestSendAuthenticates(t *testing.T) {
	mp := testkit.Mailpit(t)
	u, _ := url.Parse(mp.SMTPURL)
	u.User = url.UserPassword("boxoffice", "hunter2")
	send(t, newSMTP(t, u.String()), confirmed())
	if got := mp.WaitFor(t, 1)[0].Username; got != "boxoffice" {
		t.Errorf("authenticated as %q, want boxoffice", got)
	}
}

// TestSendHonoursContext talks to a server that never greets: Send must
// end with ctx, not with the 30 s timeout of each step.
func TestSendHonoursContext(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan net.Conn, 10)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns <- c // held open, silent
		}
	}()
	defer func() {
		l.Close()
		for len(conns) > 0 {
			(<-conns).Close()
		}
	}()
	s := newSMTP(t, "smtp://"+l.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = s.Send(ctx, confirmed())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Send: %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Send took %v after ctx ended at 300ms", d)
	}
}

// TestSendNonLoopbackRequiresSTARTTLS runs mailpit on this machine's
// network address, which is not loopback, so the message may not go in
// the clear: without STARTTLS it is refused, with it (and a certificate
// the sender trusts) it goes.
func TestSendNonLoopbackRequiresSTARTTLS(t *testing.T) {
	ip := networkIP(t)
	cert, key, roots := certificate(t, ip)

	plain := testkit.MailpitWith(t, testkit.MailpitOptions{SMTPHost: ip})
	s := newSMTP(t, plain.SMTPURL)
	s.rootCAs = roots
	err := s.Send(context.Background(), confirmed())
	if err == nil || !strings.Contains(err.Error(), "STARTTLS") {
		t.Errorf("Send to %s without STARTTLS: %v, want a refusal naming STARTTLS", plain.SMTPURL, err)
	}
	if n := len(plain.Messages(t)); n != 0 {
		t.Errorf("server received %d messages, want none", n)
	}

	tlsServer := testkit.MailpitWith(t, testkit.MailpitOptions{SMTPHost: ip, TLSCert: cert, TLSKey: key})
	untrusting := newSMTP(t, tlsServer.SMTPURL)
	if err := untrusting.Send(context.Background(), confirmed()); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("Send to a server with an untrusted certificate: %v, want a refusal naming the certificate", err)
	}
	trusting := newSMTP(t, tlsServer.SMTPURL)
	trusting.rootCAs = roots
	send(t, trusting, confirmed())
	if n := len(tlsServer.WaitFor(t, 1)); n != 1 {
		t.Errorf("server received %d messages, want 1", n)
	}
}

// TestSendImplicitTLS sends over smtps://, authenticated.
func TestSendImplicitTLS(t *testing.T) {
	cert, key, roots := certificate(t, "127.0.0.1")
	mp := testkit.MailpitWith(t, testkit.MailpitOptions{TLSCert: cert, TLSKey: key, ImplicitTLS: true})
	u, _ := url.Parse(mp.SMTPURL)
	if u.Scheme != "smtps" {
		t.Fatalf("SMTPURL = %s, want smtps://", mp.SMTPURL)
	}
	u.User = url.UserPassword("boxoffice", "hunter2")
	s := newSMTP(t, u.String())
	s.rootCAs = roots
	send(t, s, confirmed())
	if got := mp.WaitFor(t, 1)[0]; got.Username != "boxoffice" || got.Subject != "Your tickets: The Long Night, Tue 1 Dec 18:00" {
		t.Errorf("received %+v", got)
	}
}

// networkIP is an IPv4 address of this machine that is not loopback.
func networkIP(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	t.Skip("SKIPPED: this machine has no non-loopback IPv4 address; TestTLSPolicy still checks the rule")
	return ""
}

// certificate makes a self-signed certificate for ip and returns its PEM
// files and a pool that trusts it.
func certificate(t *testing.T, ip string) (certFile, keyFile string, roots *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "mailpit test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP(ip)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	roots = x509.NewCertPool()
	roots.AddCert(cert)
	return certFile, keyFile, roots
}
