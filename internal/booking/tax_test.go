package booking_test

import (
	"testing"

	"boxoffice/internal/booking"
)

func TestSeatTax(t *testing.T) {
	tests := []struct {
		name  string
		price booking.Money
		rate  booking.TaxRate
		want  booking.Money
	}{
		{"no rate", 250_00, 0, 0},
		{"18 % of 118.00 is 18.00", 118_00, 1800, 18_00},
		{"18 % of 250.00 rounds 38.135… up", 250_00, 1800, 38_14}, // 25000×18/118 = 3813.56 → 3814
		{"12 % of 100.00: 1071.428… down", 100_00, 1200, 10_71},
		{"exact half rounds up", 21, 500, 1},      // 21×5/105 = 1.0 exactly → 1
		{"past a half rounds up", 149, 10_00, 14}, // 149×10/110 = 13.545… → 14
		{"under a half rounds down", 5, 10_00, 0}, // 5×10/110 = 0.4545… → 0
		{"one paisa at 100 %", 1, 100_00, 1},      // 1×100/200 = 0.5 → 1
		{"three paise at 100 %", 3, 100_00, 2},    // 1.5 → 2
		{"two decimals: 12.5 %", 112_50, 1250, 12_50},
		{"comp", 0, 1800, 0},
		{"a refund is the opposite", -250_00, 1800, -38_14},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if got := booking.SeatTax(tt.price, tt.rate); got != want {
				t.Errorf("SeatTax(%d, %v) = %d; want %d", tt.price, tt.rate, got, want)
			}
			tk := booking.SeatTicket{Price: tt.price, TaxRate: tt.rate}
			if tk.Tax()+tk.Net() != tt.price {
				t.Errorf("tax %d + net %d != price %d", tk.Tax(), tk.Net(), tt.price)
			}
		})
	}
}

func TestTaxRatesFor(t *testing.T) {
	gst := booking.TaxRates{Rate: 1200, Above: 100_00, AboveRate: 1800}
	tests := []struct {
		name  string
		rates booking.TaxRates
		price booking.Money
		want  booking.TaxRate
	}{
		{"one rate", booking.TaxRates{Rate: 1800}, 500_00, 1800},
		{"below the threshold", gst, 99_99, 1200},
		{"at the threshold", gst, 100_00, 1200},
		{"above the threshold", gst, 100_01, 1800},
		{"no threshold", booking.TaxRates{Rate: 500, AboveRate: 0}, 1_000_00, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rates.For(tt.price); got != tt.want {
				t.Errorf("For(%d) = %v; want %v", tt.price, got, tt.want)
			}
		})
	}
	tickets := booking.TaxTickets([]booking.SeatTicket{{SeatID: "A1", Price: 50_00}, {SeatID: "A2", Price: 250_00}}, gst)
	if tickets[0].TaxRate != 1200 || tickets[1].TaxRate != 1800 {
		t.Errorf("TaxTickets = %+v; want 12 %% on 50.00 and 18 %% on 250.00", tickets)
	}
}

func TestTaxRatesValidate(t *testing.T) {
	tests := []struct {
		name  string
		rates booking.TaxRates
		field string
	}{
		{"fine", booking.TaxRates{Rate: 1800, Above: 100_00, AboveRate: 2800}, ""},
		{"over 100 %", booking.TaxRates{Rate: 100_01}, "tax_rate"},
		{"negative", booking.TaxRates{Rate: -1}, "tax_rate"},
		{"second rate without a threshold", booking.TaxRates{Rate: 1200, AboveRate: 1800}, "tax_above"},
		{"second rate over 100 %", booking.TaxRates{Above: 1, AboveRate: 100_01}, "tax_rate_above"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.rates.Validate()
			if tt.field == "" {
				if err != nil {
					t.Errorf("Validate = %v; want nil", err)
				}
				return
			}
			f, ok := err.(booking.InvalidFields)
			if !ok || len(f) == 0 || f[0].Field != tt.field {
				t.Errorf("Validate = %#v; want a field error on %s", err, tt.field)
			}
		})
	}
}

func TestRent(t *testing.T) {
	tests := []struct {
		net     booking.Money
		percent int
		want    booking.Money
	}{
		{1000_00, 50, 500_00},
		{1, 50, 1},          // 0.5 → 1
		{3, 50, 2},          // 1.5 → 2
		{101, 45, 45},       // 45.45 → 45
		{111, 45, 50},       // 49.95 → 50
		{211_86, 40, 84_74}, // 8474.4 → 8474
		{500, 0, 0},
	}
	for _, tt := range tests {
		if got := booking.Rent(tt.net, tt.percent); got != tt.want {
			t.Errorf("Rent(%d, %d) = %d; want %d", tt.net, tt.percent, got, tt.want)
		}
	}
}
