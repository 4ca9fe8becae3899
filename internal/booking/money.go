package booking

import (
	"slices"
	"strconv"
	"strings"
)

// Money is an amount in minor units of its currency (paise for INR, yen
// for JPY), so that sums are exact.
type Money int64

// currency is what boxoffice knows of an ISO 4217 currency it supports.
type currency struct {
	symbol string
	// exponent is its minor units: an amount of 1 major unit is 10^exponent
	// of them (2 for INR's paise, 0 for JPY, which has none).
	exponent int
}

// currencies are the ISO 4217 codes a theatre may price its shows in. A
// code outside them is refused when a theatre is saved (ValidateTheatre).
var currencies = map[string]currency{
	"INR": {"₹", 2},
	"EUR": {"€", 2},
	"GBP": {"£", 2},
	"USD": {"$", 2},
	"JPY": {"¥", 0},
}

// Currencies are the codes of the supported currencies, sorted.
func Currencies() []string {
	codes := make([]string, 0, len(currencies))
	for c := range currencies {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

// CurrencyExponent is the number of minor-unit digits of code (2 for INR,
// 0 for JPY), and whether code is a currency boxoffice supports.
func CurrencyExponent(code string) (int, bool) {
	c, ok := currencies[code]
	return c.exponent, ok
}

// exponentOf is code's exponent, 2 for a code boxoffice does not know (an
// amount stored before the table, or a provider's event).
func exponentOf(code string) int {
	if c, ok := currencies[code]; ok {
		return c.exponent
	}
	return 2
}

// Format renders m for a person, with the currency's symbol and its minor
// units, none when the amount is whole: "₹250", "₹99.50", "¥1,500".
func (m Money) Format(currency string) string {
	sign := ""
	v := int64(m)
	if v < 0 {
		sign, v = "-", -v
	}
	sym := currency + " "
	if c, ok := currencies[currency]; ok {
		sym = c.symbol
	}
	exp := exponentOf(currency)
	unit := int64(1)
	for range exp {
		unit *= 10
	}
	whole, frac := v/unit, v%unit
	s := groupThousands(strconv.FormatInt(whole, 10))
	if frac != 0 {
		f := strconv.FormatInt(frac, 10)
		s += "." + strings.Repeat("0", exp-len(f)) + f
	}
	return sign + sym + s
}

// Major is m in its currency's major unit with every minor digit and no
// symbol, as a CSV or a form gives it: "250.00", "-12.50", "1500" (JPY).
func (m Money) Major(currency string) string {
	sign := ""
	v := int64(m)
	if v < 0 {
		sign, v = "-", -v
	}
	exp := exponentOf(currency)
	if exp == 0 {
		return sign + strconv.FormatInt(v, 10)
	}
	unit := int64(1)
	for range exp {
		unit *= 10
	}
	f := strconv.FormatInt(v%unit, 10)
	return sign + strconv.FormatInt(v/unit, 10) + "." + strings.Repeat("0", exp-len(f)) + f
}

func groupThousands(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	lead := len(digits) % 3
	if lead > 0 {
		b.WriteString(digits[:lead])
	}
	for i := lead; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}
