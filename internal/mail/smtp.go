package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// smtpTimeout bounds each step of a conversation with the server (dial,
// each command, the message's data); a Send's ctx may end it sooner.
const smtpTimeout = 30 * time.Second

// server is an SMTP_URL taken apart.
type server struct {
	host        string
	port        int
	implicitTLS bool // smtps://: TLS from the first byte
	user, pass  string
}

// ParseURL checks an SMTP_URL (for configuration validation at start):
// smtp://[user[:pass]@]host[:port] (default port 587, STARTTLS required,
// except to a loopback host where plain is allowed when the server offers
// no STARTTLS) or smtps://[user[:pass]@]host[:port] (implicit TLS, default
// 465). Error messages are for a person and never contain the password.
func ParseURL(raw string) error {
	_, err := parseURL(raw)
	return err
}

// parseURL never puts url.Parse's error in its own: that quotes the URL,
// password and all.
func parseURL(raw string) (server, error) {
	const want = "want smtp://[user[:pass]@]host[:port] or smtps://[user[:pass]@]host[:port]"
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return server{}, errors.New("not a URL; " + want)
	}
	var s server
	switch u.Scheme {
	case "smtp":
		s.port = gomail.DefaultPortTLS
	case "smtps":
		s.port, s.implicitTLS = gomail.DefaultPortSSL, true
	case "":
		return server{}, errors.New("has no scheme; " + want)
	default:
		return server{}, fmt.Errorf("scheme %q is not smtp or smtps; %s", u.Scheme, want)
	}
	if u.Opaque != "" {
		return server{}, errors.New("has no host; " + want)
	}
	if s.host = u.Hostname(); s.host == "" {
		return server{}, errors.New("has no host; " + want)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return server{}, errors.New("the port must be a number from 1 to 65535")
		}
		s.port = n
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return server{}, errors.New("must be only the server, without a path, query or fragment; " + want)
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
		if s.user == "" {
			return server{}, errors.New("has a password but no user name")
		}
	}
	return s, nil
}

// loopback says whether host is this machine: a loopback address or the
// name localhost. Other names are not resolved, since what they resolve to
// may change.
func loopback(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// tlsPolicy is the STARTTLS policy for s: mandatory, so that a password or
// a ticket never crosses a network in the clear, except on this machine
// (a relay or a development mail catcher), where STARTTLS is used when
// offered. With implicit TLS there is nothing to start.
func tlsPolicy(s server) gomail.TLSPolicy {
	switch {
	case s.implicitTLS:
		return gomail.NoTLS
	case loopback(s.host):
		return gomail.TLSOpportunistic
	}
	return gomail.TLSMandatory
}

// SMTP sends messages through an SMTP server, one connection per message:
// the outbox sends a message now and then, never a stream of them.
type SMTP struct {
	server server
	from   *netmail.Address
	// rootCAs, when set, replaces the system's roots: tests trust their
	// own server's certificate with it.
	rootCAs *x509.CertPool
}

var _ Sender = (*SMTP)(nil)

// NewSMTP returns a Sender over SMTP_URL rawURL, sending From: from
// (MAIL_FROM, an address, optionally "Name <addr>").
func NewSMTP(rawURL, from string) (*SMTP, error) {
	s, err := parseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("SMTP_URL: %w", err)
	}
	addr, err := netmail.ParseAddress(strings.TrimSpace(from))
	if err != nil {
		return nil, errors.New(`MAIL_FROM: not an email address; want tickets@example.com or "Boxoffice <tickets@example.com>"`)
	}
	return &SMTP{server: s, from: addr}, nil
}

// Send composes m and delivers it. An error means it was not delivered and
// may be sent again; ctx ending closes the connection at once.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg, err := s.message(m)
	if err != nil {
		return err
	}
	dial, stop := s.dialer(ctx)
	defer stop()
	opts := []gomail.Option{
		gomail.WithPort(s.server.port),
		gomail.WithTimeout(smtpTimeout),
		gomail.WithTLSPolicy(tlsPolicy(s.server)),
		gomail.WithTLSConfig(s.tlsConfig()),
		gomail.WithDialContextFunc(dial),
	}
	if s.server.implicitTLS {
		opts = append(opts, gomail.WithSSL())
	}
	if s.server.user != "" {
		// PLAIN and LOGIN refuse to run unencrypted (except on loopback);
		// a server offering neither gets go-mail's strongest choice.
		opts = append(opts,
			gomail.WithOpportunisticSMTPAuth(gomail.SMTPAuthSCRAMSHA256, gomail.SMTPAuthPlain, gomail.SMTPAuthLogin),
			gomail.WithUsername(s.server.user),
			gomail.WithPassword(s.server.pass),
		)
	}
	client, err := gomail.NewClient(s.server.host, opts...)
	if err != nil {
		return fmt.Errorf("mail: smtp client: %w", err)
	}
	err = client.DialAndSendWithContext(ctx, msg)
	switch {
	case msg.IsDelivered():
		// Only the goodbye failed: sending it again would send it twice.
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("mail: send to %s: %w", s.server.host, ctx.Err())
	case err != nil:
		return fmt.Errorf("mail: send to %s: %w", s.server.host, err)
	}
	return nil
}

// message is m as a go-mail message: mixed (related (alternative (text,
// HTML), QR code), QR code, .ics).
func (s *SMTP) message(m Message) (*gomail.Msg, error) {
	c, err := Compose(m)
	if err != nil {
		return nil, err
	}
	host, err := bookingHost(m.BookingURL)
	if err != nil {
		return nil, err
	}
	if !idSafe(m.ID) {
		return nil, errors.New("mail: the message id must be letters, digits, dots, dashes or underscores")
	}
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	msg.FromMailAddress(s.from)
	if err := msg.To(strings.TrimSpace(m.To)); err != nil {
		return nil, fmt.Errorf("mail: recipient: %w", err)
	}
	msg.Subject(c.Subject)
	msg.SetDate()
	msg.SetMessageIDWithValue(m.ID + "@" + idDomain(host))
	msg.SetBodyString(gomail.TypeTextPlain, c.Text)
	msg.AddAlternativeString(gomail.TypeTextHTML, c.HTML)
	if c.QR != nil {
		png := gomail.WithFileContentType("image/png")
		if err := msg.EmbedReader(c.QRName, bytes.NewReader(c.QR), png,
			gomail.WithFileContentID("<"+c.QRContentID+">")); err != nil {
			return nil, fmt.Errorf("mail: embed QR code: %w", err)
		}
		if err := msg.AttachReader(c.QRName, bytes.NewReader(c.QR), png); err != nil {
			return nil, fmt.Errorf("mail: attach QR code: %w", err)
		}
	}
	if c.ICS != nil {
		if err := msg.AttachReader(c.ICSName, bytes.NewReader(c.ICS),
			gomail.WithFileContentType(ICSContentType)); err != nil {
			return nil, fmt.Errorf("mail: attach event: %w", err)
		}
	}
	return msg, nil
}

// idSafe says whether id can be the left of a Message-ID as it is.
func idSafe(id string) bool {
	if id == "" {
		return false
	}
	for _, r := range id {
		if r != '.' && r != '-' && r != '_' && !('0' <= r && r <= '9') && !('A' <= r && r <= 'Z') && !('a' <= r && r <= 'z') {
			return false
		}
	}
	return true
}

// dialer dials the server itself, for two reasons go-mail's own dialer
// lacks: the connection is closed as soon as ctx ends (go-mail watches
// ctx only while dialing), and with implicit TLS the handshake honours
// ctx too. stop releases ctx's watch once the Send is over.
func (s *SMTP) dialer(ctx context.Context) (dial gomail.DialContextFunc, stop func()) {
	var stops []func() bool
	dial = func(dctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		raw, err := d.DialContext(dctx, network, addr)
		if err != nil {
			return nil, err
		}
		stops = append(stops, context.AfterFunc(ctx, func() { raw.Close() }))
		if !s.server.implicitTLS {
			return raw, nil
		}
		conn := tls.Client(raw, s.tlsConfig())
		if err := conn.HandshakeContext(dctx); err != nil {
			raw.Close()
			return nil, err
		}
		return conn, nil
	}
	stop = func() {
		for _, f := range stops {
			f()
		}
	}
	return dial, stop
}

func (s *SMTP) tlsConfig() *tls.Config {
	c := &tls.Config{ServerName: s.server.host, MinVersion: tls.VersionTLS12}
	if s.rootCAs != nil {
		c.RootCAs = s.rootCAs
	}
	return c
}
