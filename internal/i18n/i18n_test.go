package i18n

import (
	"regexp"
	"slices"
	"testing"
	"time"
)

// TestEveryMessageInEveryLanguage: each language has exactly the English
// catalog's ids, each message with the same {{.Arguments}}.
func TestEveryMessageInEveryLanguage(t *testing.T) {
	c := MustLoad()
	if len(c.IDs()) < 40 {
		t.Fatalf("the English catalog has %d messages; want the whole interface", len(c.IDs()))
	}
	arg := regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)
	argsOf := func(s string) []string {
		var out []string
		for _, m := range arg.FindAllStringSubmatch(s, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
		slices.Sort(out)
		return out
	}
	for _, l := range Langs[1:] {
		for _, id := range c.IDs() {
			en, _ := c.Text(English, id)
			tr, ok := c.Text(l, id)
			if !ok {
				t.Errorf("%s has no %q (English: %q)", l, id, en)
				continue
			}
			if tr == "" {
				t.Errorf("%s's %q is empty", l, id)
			}
			if a, b := argsOf(en), argsOf(tr); !slices.Equal(a, b) {
				t.Errorf("%s's %q has arguments %v; English has %v", l, id, b, a)
			}
		}
		for id := range c.texts[l] {
			if !c.Has(English, id) {
				t.Errorf("%s has %q, which English does not", l, id)
			}
		}
	}
}

func TestMoney(t *testing.T) {
	for _, tc := range []struct {
		lang  Lang
		minor int64
		code  string
		want  string
	}{
		{English, 1_00_000_00, "INR", "₹1,00,000"},
		{Hindi, 1_00_000_00, "INR", "₹1,00,000"},
		{Tamil, 1_00_000_00, "INR", "₹1,00,000"},
		{Tamil, 12_34_567_50, "INR", "₹12,34,567.50"},
		{Hindi, 99_50, "INR", "₹99.50"},
		{English, 250_00, "INR", "₹250"},
		{English, 100_000_50, "EUR", "€100,000.50"},
		{English, 1_500, "JPY", "¥1,500"},
		{English, -12_50, "EUR", "-€12.50"},
		{English, 0, "INR", "₹0"},
		{English, 5, "INR", "₹0.05"},
		{Hindi, 10_000_000_00, "USD", "$1,00,00,000"},
	} {
		if got := For(tc.lang).Money(tc.minor, tc.code); got != tc.want {
			t.Errorf("%s Money(%d, %s) = %q; want %q", tc.lang, tc.minor, tc.code, got, tc.want)
		}
	}
}

func TestDate(t *testing.T) {
	at := time.Date(2026, 12, 7, 19, 30, 0, 0, time.UTC) // a Monday
	for _, tc := range []struct {
		lang         Lang
		layout, want string
	}{
		{English, "Mon 2 Jan 15:04", "Mon 7 Dec 19:30"},
		{Hindi, "Mon 2 Jan 15:04", "सोम 7 दिस॰ 19:30"},
		{Tamil, "Monday 2 January 2006", "திங்கள் 7 டிசம்பர் 2026"},
		{Hindi, "15:04 MST, Monday", "19:30 UTC, सोमवार"},
	} {
		if got := For(tc.lang).Date(at, tc.layout); got != tc.want {
			t.Errorf("%s Date(%q) = %q; want %q", tc.lang, tc.layout, got, tc.want)
		}
	}
}

func TestChoose(t *testing.T) {
	for _, tc := range []struct {
		query, cookie, accept string
		def                   Lang
		want                  Lang
		fromQuery             bool
	}{
		{"hi", "ta", "en", English, Hindi, true},
		{"HI", "", "", English, Hindi, true},
		{"fr", "ta", "", English, Tamil, false}, // an unsupported ?lang= is ignored
		{"", "ta", "hi", English, Tamil, false},
		{"", "", "ta-IN,ta;q=0.9,en;q=0.8", English, Tamil, false},
		{"", "", "fr-FR, hi;q=0.5", English, Hindi, false},
		{"", "", "fr-FR", Hindi, Hindi, false},
		{"", "", "", Tamil, Tamil, false},
		{"", "bogus", "en-GB", Hindi, English, false},
	} {
		got, q := Choose(tc.query, tc.cookie, tc.accept, tc.def)
		if got != tc.want || q != tc.fromQuery {
			t.Errorf("Choose(%q, %q, %q, %s) = %s, %v; want %s, %v", tc.query, tc.cookie, tc.accept, tc.def, got, q, tc.want, tc.fromQuery)
		}
	}
}

func TestMissingMessageFallsBack(t *testing.T) {
	if got := For(Hindi).T("no.such.message"); got != "no.such.message" {
		t.Errorf("a missing message reads %q; want its id", got)
	}
	if got := For(Hindi).T("layout.skip"); got == "Skip to content" || got == "" {
		t.Errorf("Hindi layout.skip = %q", got)
	}
}

func BenchmarkT(b *testing.B) {
	l := For(Hindi)
	for b.Loop() {
		_ = l.T("layout.skip")
	}
}
