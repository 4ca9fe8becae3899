package booking

import "strings"

// TaxRates are a theatre's tax (SPEC §17): Rate is included in every
// price, except that a price above Above (when Above is more than 0) has
// AboveRate instead, as India's GST taxes a cinema ticket by its price.
type TaxRates struct {
	Rate      TaxRate
	Above     Money
	AboveRate TaxRate
}

// ParseTaxRates reads a theatre form's tax fields (TaxText), the
// threshold in currency's major unit; problems are InvalidFields naming
// tax_rate, tax_above and tax_rate_above.
func ParseTaxRates(t TaxText, currency string) (TaxRates, error) {
	var r TaxRates
	var f fields
	rate := func(field, s string) TaxRate {
		if strings.TrimSpace(s) == "" {
			return 0
		}
		v, err := ParseTaxRate(strings.TrimSpace(s))
		if err != nil {
			f.add(field, "%s", ErrorMessage(err))
		}
		return v
	}
	r.Rate = rate("tax_rate", t.Rate)
	r.AboveRate = rate("tax_rate_above", t.AboveRate)
	if s := strings.TrimSpace(t.Above); s != "" {
		m, err := ParsePriceIn(s, currency)
		if err != nil {
			f.add("tax_above", "The threshold %q must be a price, like %s.", Truncate(s, 20), priceExample(currency))
		}
		r.Above = m
	}
	if len(f) > 0 {
		return TaxRates{}, f.err()
	}
	return r, r.Validate()
}

// For is the rate included in price.
func (r TaxRates) For(price Money) TaxRate {
	if r.Above > 0 && price > r.Above {
		return r.AboveRate
	}
	return r.Rate
}

// Validate refuses rates outside 0–100 % and a second rate without its
// threshold, naming the field (InvalidFields): tax_rate, tax_above,
// tax_rate_above.
func (r TaxRates) Validate() error {
	var bad InvalidFields
	if r.Rate < 0 || r.Rate > 100_00 {
		bad = append(bad, FieldError{Field: "tax_rate", Message: "The tax rate must be a percent from 0 to 100."})
	}
	if r.Above < 0 {
		bad = append(bad, FieldError{Field: "tax_above", Message: "The threshold must be a price of 0 or more."})
	}
	if r.AboveRate < 0 || r.AboveRate > 100_00 {
		bad = append(bad, FieldError{Field: "tax_rate_above", Message: "The second tax rate must be a percent from 0 to 100."})
	}
	if r.Above == 0 && r.AboveRate != 0 {
		bad = append(bad, FieldError{Field: "tax_above", Message: "A second tax rate needs the price above which it applies."})
	}
	if len(bad) > 0 {
		return bad
	}
	return nil
}

// SeatTax is the tax included in price at rate (SPEC §17):
// round_half_up(price × rate / (100 + rate)), exactly in integers (rate
// is in hundredths of a percent). A price below 0 is taxed as its
// opposite, so a refund takes back what the sale counted.
func SeatTax(price Money, rate TaxRate) Money {
	if price < 0 {
		return -SeatTax(-price, rate)
	}
	r := int64(rate)
	if r <= 0 {
		return 0
	}
	return HalfUp(price, r, 100_00+r)
}

// Net is t's price less its tax.
func (t SeatTicket) Net() Money { return t.Price - t.Tax() }

// Tax is the tax included in t's price at the rate stored with it.
func (t SeatTicket) Tax() Money { return SeatTax(t.Price, t.TaxRate) }

// TaxTicketsIn fixes the tax rate of each of tickets, seats of show
// showID being sold, under the rates of the show's theatre as tx reads
// them (ShowTaxRates; a show whose theatre is not in the catalog has
// none): SPEC §17, a seat's rate is fixed when it is sold and stored with
// it. Every step that sells seats calls it inside its transaction before
// it stores them: Pay (StartTypedPaymentStep), and the box office's Sell.
func TaxTicketsIn(tx Tx, showID string, tickets []SeatTicket) ([]SeatTicket, error) {
	rates, err := tx.ShowTaxRates(showID)
	if err != nil {
		return nil, err
	}
	return TaxTickets(tickets, rates), nil
}

// TaxTickets sets the tax rate of each of tickets under rates, in place.
func TaxTickets(tickets []SeatTicket, rates TaxRates) []SeatTicket {
	for i := range tickets {
		tickets[i].TaxRate = rates.For(tickets[i].Price)
	}
	return tickets
}

// Rent is a day's film rent (SPEC §17): its net × percent / 100, rounded
// half up to the minor unit.
func Rent(net Money, percent int) Money {
	if net < 0 {
		return -Rent(-net, percent)
	}
	return HalfUp(net, int64(percent), 100)
}
