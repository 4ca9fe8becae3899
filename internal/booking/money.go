package booking

import (
	"strconv"
	"strings"
)

// Money is an amount in minor units of its currency (paise for INR), so that
// sums are exact.
type Money int64

var currencySymbols = map[string]string{"INR": "₹", "USD": "$", "EUR": "€", "GBP": "£"}

// Format renders m for a person, with the currency's symbol and no decimals
// when the amount is whole: "₹250", "₹99.50".
func (m Money) Format(currency string) string {
	sign := ""
	v := int64(m)
	if v < 0 {
		sign, v = "-", -v
	}
	sym, ok := currencySymbols[currency]
	if !ok {
		sym = currency + " "
	}
	whole, frac := v/100, v%100
	s := groupThousands(strconv.FormatInt(whole, 10))
	if frac != 0 {
		s += "." + strconv.FormatInt(frac/10, 10) + strconv.FormatInt(frac%10, 10)
	}
	return sign + sym + s
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
