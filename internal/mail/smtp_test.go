package mail

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gomail "github.com/wneessen/go-mail"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		raw  string
		want server
	}{
		{"smtp://mail.example.com", server{host: "mail.example.com", port: 587}},
		{"smtp://mail.example.com/", server{host: "mail.example.com", port: 587}},
		{" smtp://mail.example.com:2525 ", server{host: "mail.example.com", port: 2525}},
		{"smtp://apikey:pa%40ss%3Aword@smtp.example.com:587", server{host: "smtp.example.com", port: 587, user: "apikey", pass: "pa@ss:word"}},
		{"smtp://user@mail.example.com", server{host: "mail.example.com", port: 587, user: "user"}},
		{"smtps://u:p@mail.example.com", server{host: "mail.example.com", port: 465, implicitTLS: true, user: "u", pass: "p"}},
		{"smtps://mail.example.com:2465", server{host: "mail.example.com", port: 2465, implicitTLS: true}},
		{"smtp://127.0.0.1:1025", server{host: "127.0.0.1", port: 1025}},
		{"smtp://[::1]:25", server{host: "::1", port: 25}},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			if err := ParseURL(tt.raw); err != nil {
				t.Fatalf("ParseURL: %v", err)
			}
			got, err := parseURL(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(server{})); diff != "" {
				t.Errorf("parsed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseURLRefuses(t *testing.T) {
	const secret = "hunter2"
	tests := []struct {
		name, raw, want string
	}{
		{"empty", "", "no scheme"},
		{"no scheme", "mail.example.com", "no scheme"},
		{"host:port", "mail.example.com:587", "not smtp or smtps"},
		{"http", "http://u:hunter2@mail.example.com", `scheme "http" is not smtp or smtps`},
		{"submissions", "submissions://u:hunter2@mail.example.com", "not smtp or smtps"},
		{"opaque", "smtp:u:hunter2@mail.example.com", "no host"},
		{"no host", "smtp://u:hunter2@:587", "no host"},
		{"bad port", "smtp://u:hunter2@mail.example.com:smtp", "not a URL"},
		{"port 0", "smtp://u:hunter2@mail.example.com:0", "port must be a number from 1 to 65535"},
		{"port too big", "smtp://u:hunter2@mail.example.com:65536", "port must be a number from 1 to 65535"},
		{"path", "smtp://u:hunter2@mail.example.com/inbox", "without a path"},
		{"query", "smtp://u:hunter2@mail.example.com?tls=off", "without a path, query"},
		{"fragment", "smtp://u:hunter2@mail.example.com#x", "without a path, query or fragment"},
		{"password without user", "smtp://:hunter2@mail.example.com", "no user name"},
		{"bad escape", "smtp://u:hunter2%zz@mail.example.com", "not a URL"},
		{"control character", "smtp://u:hunter2\x7f@mail.example.com", "not a URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ParseURL(tt.raw)
			if err == nil {
				t.Fatal("ParseURL succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error %q shows the password", err)
			}
			if _, err := NewSMTP(tt.raw, "tickets@example.com"); err == nil || strings.Contains(err.Error(), secret) {
				t.Errorf("NewSMTP: %v, want an error without the password", err)
			}
		})
	}
}

// TestTLSPolicy is the rule of SMTP_URL: STARTTLS is required unless the
// server is this machine. TestSendNonLoopbackRequiresSTARTTLS sees it
// applied against a real server.
func TestTLSPolicy(t *testing.T) {
	tests := []struct {
		raw  string
		want gomail.TLSPolicy
	}{
		{"smtp://mail.example.com", gomail.TLSMandatory},
		{"smtp://192.0.2.10:25", gomail.TLSMandatory},
		{"smtp://[2001:db8::1]:25", gomail.TLSMandatory},
		{"smtp://localhost.example.com", gomail.TLSMandatory},
		{"smtp://10.0.0.1:1025", gomail.TLSMandatory},
		{"smtp://127.0.0.1:1025", gomail.TLSOpportunistic},
		{"smtp://127.1.2.3:1025", gomail.TLSOpportunistic},
		{"smtp://[::1]:1025", gomail.TLSOpportunistic},
		{"smtp://localhost:1025", gomail.TLSOpportunistic},
		{"smtp://LocalHost.:1025", gomail.TLSOpportunistic},
		{"smtps://mail.example.com", gomail.NoTLS}, // TLS from the first byte: nothing to start
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			s, err := parseURL(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			if got := tlsPolicy(s); got != tt.want {
				t.Errorf("tlsPolicy = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNewSMTPFrom(t *testing.T) {
	for _, from := range []string{"tickets@example.com", "boxoffice <tickets@example.com>", `"Box Office, Pune" <tickets@example.com>`} {
		if _, err := NewSMTP("smtp://mail.example.com", from); err != nil {
			t.Errorf("NewSMTP(_, %q): %v", from, err)
		}
	}
	for _, from := range []string{"", "tickets", "boxoffice", "<tickets@example.com", "a@example.com, b@example.com"} {
		_, err := NewSMTP("smtp://mail.example.com", from)
		if err == nil {
			t.Errorf("NewSMTP(_, %q) succeeded, want an error", from)
		} else if !strings.HasPrefix(err.Error(), "MAIL_FROM: ") {
			t.Errorf("NewSMTP(_, %q): %q, want it to name MAIL_FROM", from, err)
		}
	}
}

func TestMessageHeaders(t *testing.T) {
	s, err := NewSMTP("smtp://mail.example.com", testFrom)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := s.message(confirmed())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := msg.GetMessageID(), "<01JD8X4K2Q@tickets.example.com>"; got != want {
		t.Errorf("Message-ID = %q, want %q", got, want)
	}
	for _, id := range []string{"", "a b", "x@y", "<x>", "x\r\nBcc: y"} {
		if _, err := s.message(with(func(m *Message) { m.ID = id })); err == nil {
			t.Errorf("message with id %q: no error", id)
		}
	}
	for _, to := range []string{"", "asha", "a@example.com\r\nBcc: b@example.com"} {
		if _, err := s.message(with(func(m *Message) { m.To = to })); err == nil {
			t.Errorf("message to %q: no error", to)
		}
	}
}
