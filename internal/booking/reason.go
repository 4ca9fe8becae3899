package booking

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Reasons a person reads (why a booking failed or is due a refund) are
// stored as codes with arguments, not as English, so that each page and
// mail says them in its own language (SPEC §19).
//
// The stored form is one or more parts joined by ";", each a code and, after
// a "?", its arguments as name=value pairs joined by "&", every value
// query-escaped (net/url.QueryEscape: a space is "+", "%", "+", "&", ";",
// "=" and anything but letters, digits and "-_.~" are "%XX"):
//
//	show_cancelled
//	seats_taken?count=2&seats=A1%2C+A2
//	show_cancelled;refund_failed?provider_reason=expired_or_canceled_card
//
// A stored reason is a code only when every part names a known code with
// exactly that code's arguments (ParseReason); any other text, such as a
// reason stored before codes that the migration could not convert, is
// shown as it is. A part's message is "reason.<code>" in the catalog
// (internal/i18n/locales/reason.*.toml), its arguments {{.CamelCase}} of
// their names; parts are shown one after the other, joined by a space.
const (
	// ReasonShowCancelled: the show was cancelled (SPEC §10).
	ReasonShowCancelled = "show_cancelled"
	// ReasonPaymentDeclined: the provider said the payment failed.
	ReasonPaymentDeclined = "payment_declined"
	// ReasonCheckoutExpired: a pending payment's last checkout expired
	// after its hold had ended (SPEC §9).
	ReasonCheckoutExpired = "checkout_expired"
	// ReasonPaymentReplaced: a repeated Pay replaced the payment (SPEC §15).
	ReasonPaymentReplaced = "payment_replaced"

	// codeAmountMismatch: a success took another amount or currency than
	// the booking's (args paid, price: MoneyArg).
	codeAmountMismatch = "amount_mismatch"
	// codeSeatsTaken: a late payment found its seats taken (args count,
	// seats: "A1, A2").
	codeSeatsTaken = "seats_taken"
	// codeRefundFailed: a refund failed at the provider, and the booking
	// is due one again (arg provider_reason, the provider's words).
	codeRefundFailed = "refund_failed"
	// codeText: text kept as it is (arg text), such as an old English
	// reason that a refund failure was added to.
	codeText = "text"
)

// ArgKind says how a reason's argument is shown.
type ArgKind int

const (
	ArgText  ArgKind = iota // as it is
	ArgCount                // a number, which picks the plural form
	ArgMoney                // an amount: MoneyArg
)

// reasonArgs are each code's arguments, in their stored order.
var reasonArgs = map[string][]struct {
	name string
	kind ArgKind
}{
	ReasonShowCancelled:   nil,
	ReasonPaymentDeclined: nil,
	ReasonCheckoutExpired: nil,
	ReasonPaymentReplaced: nil,
	codeAmountMismatch:    {{"paid", ArgMoney}, {"price", ArgMoney}},
	codeSeatsTaken:        {{"count", ArgCount}, {"seats", ArgText}},
	codeRefundFailed:      {{"provider_reason", ArgText}},
	codeText:              {{"text", ArgText}},
}

// ReasonArg is one argument of a reason.
type ReasonArg struct {
	Name  string // snake_case, as stored
	Value string
	Kind  ArgKind
}

// Reason is one part of a stored reason: a code and its arguments.
type Reason struct {
	Code string
	Args []ReasonArg
}

// newReason is code with values for its arguments, in reasonArgs' order.
func newReason(code string, values ...string) Reason {
	r := Reason{Code: code}
	for i, a := range reasonArgs[code] {
		r.Args = append(r.Args, ReasonArg{Name: a.name, Value: values[i], Kind: a.kind})
	}
	return r
}

// String is r's stored form.
func (r Reason) String() string {
	if len(r.Args) == 0 {
		return r.Code
	}
	var b strings.Builder
	b.WriteString(r.Code)
	for i, a := range r.Args {
		b.WriteByte("?&"[min(i, 1)])
		b.WriteString(a.Name)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(a.Value))
	}
	return b.String()
}

// EncodeReasons is the stored form of parts, in order.
func EncodeReasons(parts ...Reason) string {
	s := make([]string, len(parts))
	for i, p := range parts {
		s[i] = p.String()
	}
	return strings.Join(s, ";")
}

// ParseReason reads a stored reason into its parts; ok is false when it
// is not one (empty, or text that is not codes: shown as it is).
func ParseReason(stored string) (parts []Reason, ok bool) {
	if stored == "" {
		return nil, false
	}
	for _, s := range strings.Split(stored, ";") {
		p, ok := parseReasonPart(s)
		if !ok {
			return nil, false
		}
		parts = append(parts, p)
	}
	return parts, true
}

func parseReasonPart(s string) (Reason, bool) {
	code, query, _ := strings.Cut(s, "?")
	spec, known := reasonArgs[code]
	if !known {
		return Reason{}, false
	}
	r := Reason{Code: code}
	values := map[string]string{}
	if query != "" {
		for _, kv := range strings.Split(query, "&") {
			name, raw, ok := strings.Cut(kv, "=")
			if !ok {
				return Reason{}, false
			}
			v, err := url.QueryUnescape(raw)
			if _, dup := values[name]; err != nil || dup {
				return Reason{}, false
			}
			values[name] = v
		}
	} else if strings.Contains(s, "?") {
		return Reason{}, false
	}
	if len(values) != len(spec) {
		return Reason{}, false
	}
	for _, a := range spec {
		v, ok := values[a.name]
		if !ok || !argValid(a.kind, v) {
			return Reason{}, false
		}
		r.Args = append(r.Args, ReasonArg{Name: a.name, Value: v, Kind: a.kind})
	}
	return r, true
}

func argValid(k ArgKind, v string) bool {
	switch k {
	case ArgCount:
		n, err := strconv.Atoi(v)
		return err == nil && n >= 0
	case ArgMoney:
		_, _, ok := ParseMoneyArg(v)
		return ok
	}
	return true
}

// MoneyArg is an amount as a reason's argument: minor units, a space, the
// currency ("25000 INR").
func MoneyArg(m Money, currency string) string {
	return strconv.FormatInt(int64(m), 10) + " " + strings.ToUpper(currency)
}

// ParseMoneyArg reads MoneyArg's form.
func ParseMoneyArg(v string) (Money, string, bool) {
	minor, cur, ok := strings.Cut(v, " ")
	n, err := strconv.ParseInt(minor, 10, 64)
	if !ok || err != nil || len(cur) != 3 {
		return 0, "", false
	}
	return Money(n), cur, true
}

// AmountMismatchReason: a success took paid (in paidCurrency), while the
// booking costs price (in currency).
func AmountMismatchReason(paid Money, paidCurrency string, price Money, currency string) string {
	return newReason(codeAmountMismatch, MoneyArg(paid, paidCurrency), MoneyArg(price, currency)).String()
}

// SeatsTakenReason: a late payment found seats (sorted) taken.
func SeatsTakenReason(seats []string) string {
	return newReason(codeSeatsTaken, strconv.Itoa(len(seats)), strings.Join(seats, ", ")).String()
}

// ReasonIs reports whether stored is a reason whose first part is code:
// true for "show_cancelled;refund_failed?…" and code ReasonShowCancelled,
// and for an English reason stored before codes that LegacyReason turns
// into one.
func ReasonIs(stored, code string) bool {
	parts, ok := ParseReason(stored)
	if !ok {
		coded, legacy := LegacyReason(stored)
		if !legacy {
			return false
		}
		parts, _ = ParseReason(coded)
	}
	return len(parts) > 0 && parts[0].Code == code
}

// WithRefundFailed is stored with a refund's failure at the provider for
// why (its words, cut to 80 characters; "unknown" when it gave none)
// instead of any earlier one. Text that is not a reason code is kept, as
// text: an old English reason less the refund failure it may already
// name.
func WithRefundFailed(stored, why string) string {
	if why == "" {
		why = "unknown"
	}
	parts, ok := ParseReason(stored)
	if !ok {
		parts = nil
		if text := strings.TrimSpace(stored); text != "" {
			if coded, ok := LegacyReason(text); ok {
				parts, _ = ParseReason(coded)
			} else {
				if i := strings.Index(text, legacyRefundFailedNote); i >= 0 {
					text = text[:i]
				}
				if text != "" {
					parts = []Reason{newReason(codeText, text)}
				}
			}
		}
	}
	parts = slices.DeleteFunc(parts, func(r Reason) bool { return r.Code == codeRefundFailed })
	return EncodeReasons(append(parts, newReason(codeRefundFailed, Truncate(why, 80)))...)
}

// The English reasons stored before codes (SPEC §19: existing data), as
// LegacyReason and the stores' migrations convert them.
const (
	legacyShowCancelled   = "show cancelled"
	legacyPaymentDeclined = "The payment was declined."
	legacyCheckoutExpired = "Checkout expired: the payment was not made before the checkout ended, and your hold has ended. Nothing was charged."
	legacyPaymentReplaced = "Replaced: the ticket types were changed at checkout, so this payment was replaced by a new one. Nothing was charged for it."
	// legacyRefundFailedNote and legacyRefundFailedEnd surround the
	// provider's reason in what a failed refund added to a reason.
	legacyRefundFailedNote = " (A refund failed at the payment provider: "
	legacyRefundFailedEnd  = "; it is due again.)"
	// A late payment's seats: "… on seat A1 had ended, and by then it was
	// no longer free. …" or "… on seats A1, A2 had ended, and by then
	// they were no longer free. …".
	legacySeatTaken    = "Your payment arrived after your hold on seat "
	legacySeatsTaken   = "Your payment arrived after your hold on seats "
	legacySeatTakenEnd = " had ended, and by then it was no longer free. Nothing was booked; your money will be refunded."
	legacySeatsTakeEnd = " had ended, and by then they were no longer free. Nothing was booked; your money will be refunded."
)

var legacyExact = map[string]string{
	legacyShowCancelled:   ReasonShowCancelled,
	legacyPaymentDeclined: ReasonPaymentDeclined,
	legacyCheckoutExpired: ReasonCheckoutExpired,
	legacyPaymentReplaced: ReasonPaymentReplaced,
}

// LegacyReason is the stored form of an English reason stored before codes
// (SQLite's migration 0041_reason_codes does the same): the exact texts of
// the coded reasons, a late payment's seats, and any of those, or any
// other text (kept as text), followed by a failed refund's note. ok is
// false for any other text, which stays as it is (such as an amount
// mismatch, whose amounts were stored formatted).
func LegacyReason(text string) (string, bool) {
	if code, ok := legacyExact[text]; ok {
		return code, true
	}
	if r, ok := legacySeats(text); ok {
		return r, true
	}
	i := strings.Index(text, legacyRefundFailedNote)
	if i < 0 || !strings.HasSuffix(text[i:], legacyRefundFailedEnd) {
		return "", false
	}
	base, why := text[:i], text[i+len(legacyRefundFailedNote):len(text)-len(legacyRefundFailedEnd)]
	failed := newReason(codeRefundFailed, why)
	if base == "" {
		return failed.String(), true
	}
	coded, ok := legacyExact[base]
	if !ok {
		if coded, ok = legacySeats(base); !ok {
			coded = newReason(codeText, base).String()
		}
	}
	return coded + ";" + failed.String(), true
}

func legacySeats(text string) (string, bool) {
	for _, f := range [...]struct{ start, end string }{{legacySeatTaken, legacySeatTakenEnd}, {legacySeatsTaken, legacySeatsTakeEnd}} {
		if strings.HasPrefix(text, f.start) && strings.HasSuffix(text, f.end) && len(text) > len(f.start)+len(f.end) {
			seats := strings.Split(text[len(f.start):len(text)-len(f.end)], ", ")
			return SeatsTakenReason(seats), true
		}
	}
	return "", false
}

// Translator says a message in a language: *i18n.Localizer.
type Translator interface {
	F(id string, args ...any) string
	N(id string, count int, args ...any) string
	Money(minor int64, currency string) string
}

// ReasonText is stored, a reason, as a person reads it in t's language:
// each part's message ("reason.<code>") with its arguments, joined by a
// space; an English reason stored before codes (LegacyReason) as its code
// says it; any other text as it is.
func ReasonText(t Translator, stored string) string {
	parts, ok := ParseReason(stored)
	if !ok {
		coded, legacy := LegacyReason(stored)
		if !legacy {
			return stored
		}
		parts, _ = ParseReason(coded)
	}
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.Text(t)
	}
	return strings.Join(texts, " ")
}

// Text is part r as a person reads it in t's language.
func (r Reason) Text(t Translator) string {
	if r.Code == codeText {
		return r.Args[0].Value
	}
	count, plural := -1, false
	args := make([]any, 0, 2*len(r.Args))
	for _, a := range r.Args {
		var v any = a.Value
		switch a.Kind {
		case ArgCount:
			count, _ = strconv.Atoi(a.Value)
			plural = true
			continue // N sets {{.Count}}
		case ArgMoney:
			if m, cur, ok := ParseMoneyArg(a.Value); ok {
				v = t.Money(int64(m), cur)
			}
		}
		args = append(args, camel(a.Name), v)
	}
	if plural {
		return t.N("reason."+r.Code, count, args...)
	}
	return t.F("reason."+r.Code, args...)
}

// camel is an argument's name as its message's template field:
// "provider_reason" is ProviderReason.
func camel(name string) string {
	var b strings.Builder
	for _, w := range strings.Split(name, "_") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}
