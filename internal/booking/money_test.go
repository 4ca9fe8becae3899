package booking_test

import (
	"testing"

	"boxoffice/internal/booking"
)

func TestMoneyFormat(t *testing.T) {
	tests := []struct {
		name     string
		m        booking.Money
		currency string
		want     string
	}{
		{"zero", 0, "INR", "₹0"},
		{"whole", 25000, "INR", "₹250"},
		{"half", 9950, "INR", "₹99.50"},
		{"one paisa", 1, "INR", "₹0.01"},
		{"ten paise", 10, "INR", "₹0.10"},
		{"thousands", 123456789, "INR", "₹1,234,567.89"},
		{"exactly a thousand", 100000, "INR", "₹1,000"},
		{"below a thousand", 99900, "INR", "₹999"},
		{"million", 100000000, "USD", "$1,000,000"},
		{"euro", 1999, "EUR", "€19.99"},
		{"pound", 500, "GBP", "£5"},
		{"yen has no minor units", 123450, "JPY", "¥123,450"},
		{"euro cents", 1250, "EUR", "€12.50"},
		{"euro cent", 5, "EUR", "€0.05"},
		{"unknown currency", 123450, "CHF", "CHF 1,234.50"},
		{"negative", -9950, "INR", "-₹99.50"},
		{"negative thousands", -100000, "INR", "-₹1,000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.m.Format(tt.currency); got != tt.want {
				t.Errorf("Money(%d).Format(%q) = %q, want %q", tt.m, tt.currency, got, tt.want)
			}
		})
	}
}
