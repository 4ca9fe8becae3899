package i18n

import (
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/currency"
	"golang.org/x/text/number"
)

// Money is minor units of an ISO 4217 currency for a person: the symbol,
// Latin digits, INR in Indian grouping in every language ("₹1,00,000"),
// other currencies in the language's ("€100,000.50"), and no minor digits
// when the amount is whole ("₹250", "₹99.50").
func (l *Localizer) Money(minor int64, code string) string {
	unit, err := currency.ParseISO(code)
	if err != nil {
		return code + " " + strconv.FormatInt(minor, 10)
	}
	scale, _ := currency.Standard.Rounding(unit)
	p := l.printer
	if code == "INR" {
		p = l.indian
	}
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	div := int64(1)
	for range scale {
		div *= 10
	}
	var amount string
	if minor%div == 0 {
		amount = p.Sprint(number.Decimal(minor / div))
	} else {
		amount = p.Sprint(number.Decimal(float64(minor)/float64(div),
			number.MinFractionDigits(scale), number.MaxFractionDigits(scale)))
	}
	sym := p.Sprint(currency.NarrowSymbol(unit))
	if sym == code {
		sym += " " // "KWD 1.500", as no symbol is known
	}
	return sign + sym + amount
}

// Number is n with the language's grouping and Latin digits.
func (l *Localizer) Number(n int) string { return l.printer.Sprint(number.Decimal(n)) }

var (
	monthIDs   = [...]string{"", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	weekdayIDs = [...]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
)

// Month is m's full name in the language ("दिसंबर").
func (l *Localizer) Month(m time.Month) string { return l.T("date.month." + monthIDs[m]) }

// ShortMonth is m's abbreviated name ("दिस॰").
func (l *Localizer) ShortMonth(m time.Month) string { return l.T("date.short_month." + monthIDs[m]) }

// Weekday is d's full name ("सोमवार").
func (l *Localizer) Weekday(d time.Weekday) string { return l.T("date.weekday." + weekdayIDs[d]) }

// ShortWeekday is d's abbreviated name ("सोम").
func (l *Localizer) ShortWeekday(d time.Weekday) string {
	return l.T("date.short_weekday." + weekdayIDs[d])
}

// Date formats t by a Go layout, as time.Format does, with its month and
// weekday names ("January", "Jan", "Monday", "Mon") in the language; every
// other element (digits, "15:04", a zone's "MST") as time.Format writes it.
func (l *Localizer) Date(t time.Time, layout string) string {
	if l.Lang == English {
		return t.Format(layout)
	}
	var b strings.Builder
	rest := layout
	for rest != "" {
		i, tok := nextName(rest)
		if i < 0 {
			b.WriteString(t.Format(rest))
			break
		}
		if i > 0 {
			b.WriteString(t.Format(rest[:i]))
		}
		switch tok {
		case "January":
			b.WriteString(l.Month(t.Month()))
		case "Jan":
			b.WriteString(l.ShortMonth(t.Month()))
		case "Monday":
			b.WriteString(l.Weekday(t.Weekday()))
		case "Mon":
			b.WriteString(l.ShortWeekday(t.Weekday()))
		}
		rest = rest[i+len(tok):]
	}
	return b.String()
}

// nextName finds the first month or weekday name element of a Go layout.
func nextName(layout string) (int, string) {
	for i := 0; i < len(layout); i++ {
		for _, tok := range [...]string{"January", "Jan", "Monday", "Mon"} {
			if strings.HasPrefix(layout[i:], tok) {
				return i, tok
			}
		}
	}
	return -1, ""
}

// Pattern is a message with arguments compiled once for a hot loop, such as
// the seat grid's hundreds of accessible names: go-i18n renders it once with
// a marker per argument, and Fill puts the values in without a template.
type Pattern struct {
	parts []string // literal text around the arguments
	args  []int    // args[i] is the index, in names, of the value after parts[i]
}

// Pattern compiles message id, whose arguments are names, in order.
func (l *Localizer) Pattern(id string, names ...string) Pattern {
	kv := make([]any, 0, 2*len(names))
	for i, n := range names {
		kv = append(kv, n, "\x00"+strconv.Itoa(i)+"\x00")
	}
	s := l.F(id, kv...)
	var p Pattern
	for {
		i := strings.IndexByte(s, 0)
		if i < 0 {
			p.parts = append(p.parts, s)
			return p
		}
		j := strings.IndexByte(s[i+1:], 0)
		if j < 0 {
			p.parts = append(p.parts, s)
			return p
		}
		n, _ := strconv.Atoi(s[i+1 : i+1+j])
		p.parts = append(p.parts, s[:i])
		p.args = append(p.args, n)
		s = s[i+1+j+1:]
	}
}

// Fill is the message with values, in the order of Pattern's names.
func (p Pattern) Fill(values ...string) string {
	n := 0
	for _, s := range p.parts {
		n += len(s)
	}
	for _, a := range p.args {
		if a < len(values) {
			n += len(values[a])
		}
	}
	var b strings.Builder
	b.Grow(n)
	for i, s := range p.parts {
		b.WriteString(s)
		if i < len(p.args) && p.args[i] < len(values) {
			b.WriteString(values[p.args[i]])
		}
	}
	return b.String()
}
