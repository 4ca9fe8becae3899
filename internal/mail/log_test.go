package mail

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

func TestLog(t *testing.T) {
	var buf bytes.Buffer
	l := NewLog(slog.New(slog.NewTextHandler(&buf, nil)), testFrom)
	if err := l.Send(context.Background(), confirmed()); err != nil {
		t.Fatalf("Send: %v", err)
	}
	out := buf.String()
	for _, s := range []string{"level=INFO", "to=asha@example.com", `subject="Your tickets: The Long Night, Tue 1 Dec 18:00"`, "link=" + `"` + testLink + `"`, "Ticket code: 7K3M-Q9PA"} {
		if !strings.Contains(out, s) {
			t.Errorf("log lacks %q:\n%s", s, out)
		}
	}
}

func TestLogNeverFails(t *testing.T) {
	var buf bytes.Buffer
	l := NewLog(slog.New(slog.NewTextHandler(&buf, nil)), testFrom)
	if err := l.Send(context.Background(), with(func(m *Message) { m.Kind = "birthday" })); err != nil {
		t.Fatalf("Send: %v, want nil", err)
	}
	if out := buf.String(); !strings.Contains(out, "level=WARN") || !strings.Contains(out, testLink) {
		t.Errorf("log = %q, want a warning with the link", out)
	}
}
