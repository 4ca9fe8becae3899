package booking_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

func TestValidateTicketType(t *testing.T) {
	others := []booking.TicketType{{ID: "adult", Name: "Adult", Online: true}}
	tests := []struct {
		name  string
		t     booking.TicketType
		field string // "" when valid
	}{
		{"valid", booking.TicketType{ID: "child-3d", Name: "Child", Note: "under 12", Online: true}, ""},
		{"box office only", booking.TicketType{ID: "comp", Name: "Comp", BoxOffice: true}, ""},
		{"standard reserved", booking.TicketType{ID: "standard", Name: "S", Online: true}, "id"},
		{"taken", booking.TicketType{ID: "adult", Name: "A", Online: true}, "id"},
		{"capital", booking.TicketType{ID: "Adult", Name: "A", Online: true}, "id"},
		{"digit first", booking.TicketType{ID: "3d", Name: "A", Online: true}, "id"},
		{"17 characters", booking.TicketType{ID: "abcdefghijklmnopq", Name: "A", Online: true}, "id"},
		{"16 characters", booking.TicketType{ID: "abcdefghijklmnop", Name: "A", Online: true}, ""},
		{"no name", booking.TicketType{ID: "x", Name: " ", Online: true}, "name"},
		{"bidi note", booking.TicketType{ID: "x", Name: "X", Note: "ab\u202ecd", Online: true}, "note"},
		{"control note", booking.TicketType{ID: "x", Name: "X", Note: "a\x07b", Online: true}, "note"},
		{"two-line note", booking.TicketType{ID: "x", Name: "X", Note: "a\nb", Online: true}, "note"},
		{"sold nowhere", booking.TicketType{ID: "x", Name: "X"}, "sold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := booking.ValidateTicketType(tt.t, others)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("ValidateTicketType = %v, want nil", err)
				}
				return
			}
			var f booking.InvalidFields
			if !errors.As(err, &f) || f.For(tt.field) == "" || booking.ErrorCode(err) != booking.EINVALID {
				t.Fatalf("ValidateTicketType = %v, want an EINVALID field error on %s", err, tt.field)
			}
		})
	}
}

func TestValidatePriceTable(t *testing.T) {
	types := []booking.TicketType{
		{ID: "adult", Name: "Adult", Online: true, BoxOffice: true},
		{ID: "web", Name: "Web", Online: true},
		{ID: "comp", Name: "Comp", BoxOffice: true},
	}
	cats := []string{"Classic", "Prime"}
	tests := []struct {
		name  string
		cells booking.PriceTable
		field string
	}{
		{"both ways", booking.PriceTable{{"Classic", "adult", 100}, {"Prime", "adult", 200}}, ""},
		{"split", booking.PriceTable{{"Classic", "web", 100}, {"Classic", "comp", 0}, {"Prime", "adult", 200}}, ""},
		{"box office zero", booking.PriceTable{{"Classic", "adult", 100}, {"Classic", "comp", 0}, {"Prime", "adult", 200}}, ""},
		{"online zero", booking.PriceTable{{"Classic", "adult", 0}, {"Prime", "adult", 200}}, booking.CellField("Classic", "adult")},
		{"negative", booking.PriceTable{{"Classic", "adult", 100}, {"Classic", "comp", -1}, {"Prime", "adult", 200}}, booking.CellField("Classic", "comp")},
		{"no box office", booking.PriceTable{{"Classic", "web", 100}, {"Prime", "adult", 200}}, booking.CategoryField("Classic")},
		{"no online", booking.PriceTable{{"Classic", "adult", 100}, {"Prime", "comp", 0}}, booking.CategoryField("Prime")},
		{"nothing", booking.PriceTable{{"Classic", "adult", 100}}, booking.CategoryField("Prime")},
		{"unknown category", booking.PriceTable{{"Classic", "adult", 100}, {"Prime", "adult", 200}, {"Gold", "adult", 300}}, booking.CellField("Gold", "adult")},
		{"twice", booking.PriceTable{{"Classic", "adult", 100}, {"Classic", "adult", 120}, {"Prime", "adult", 200}}, booking.CellField("Classic", "adult")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := booking.ValidatePriceTable(tt.cells, cats, types)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("ValidatePriceTable = %v, want nil", err)
				}
				return
			}
			var f booking.InvalidFields
			if !errors.As(err, &f) || f.For(tt.field) == "" {
				t.Fatalf("ValidatePriceTable = %v, want a field error on %s", err, tt.field)
			}
		})
	}
}

func TestHalfUp(t *testing.T) {
	tests := []struct {
		n        booking.Money
		num, den int64
		want     booking.Money
	}{
		{250_00, 1, 2, 125_00},
		{1, 1, 2, 1},    // 0.5 rounds up
		{3, 1, 2, 2},    // 1.5 rounds up
		{5, 7, 10, 4},   // 3.5 rounds up
		{15, 7, 10, 11}, // 10.5 rounds up
		{14, 7, 10, 10}, // 9.8
		{13, 7, 10, 9},  // 9.1
		{180_01, 1, 2, 90_01},
		{180_01, 7, 10, 126_01}, // 12600.7
	}
	for _, tt := range tests {
		if got := booking.HalfUp(tt.n, tt.num, tt.den); got != tt.want {
			t.Errorf("HalfUp(%d, %d/%d) = %d, want %d", tt.n, tt.num, tt.den, got, tt.want)
		}
	}
}

func TestTypesOfImplicitStandard(t *testing.T) {
	std := booking.TypesOf(nil)
	want := []booking.TicketType{{ID: "standard", Name: "Standard", Online: true, BoxOffice: true}}
	if diff := cmp.Diff(want, std); diff != "" {
		t.Errorf("TypesOf(none) (-want +got):\n%s", diff)
	}
	own := []booking.TicketType{{ID: "adult", Name: "Adult", Online: true}}
	if diff := cmp.Diff(own, booking.TypesOf(own)); diff != "" {
		t.Errorf("TypesOf(own) (-want +got):\n%s", diff)
	}
	p := booking.ShowPricesOf(booking.ShowPrices{}, []booking.Category{{Name: "Classic", Price: 180_00}, {Name: "Prime", Price: 250_00}})
	wantP := booking.ShowPrices{Types: want, Cells: booking.PriceTable{{"Classic", "standard", 180_00}, {"Prime", "standard", 250_00}}}
	if diff := cmp.Diff(wantP, p); diff != "" {
		t.Errorf("ShowPricesOf(none) (-want +got):\n%s", diff)
	}
}

func TestParseRentAndTaxRate(t *testing.T) {
	for in, want := range map[string]string{"50,45,40": "50,45,40", " 50, 45 ,40": "50,45,40", "100": "100", "0": "0"} {
		got, err := booking.ParseRent(in)
		if err != nil || booking.FormatRent(got) != want {
			t.Errorf("ParseRent(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "50,,40", "101", "-5", "5x", "50;45"} {
		if _, err := booking.ParseRent(in); booking.ErrorCode(err) != booking.EINVALID {
			t.Errorf("ParseRent(%q) = %v, want EINVALID", in, err)
		}
	}
	for in, want := range map[string]booking.TaxRate{"0": 0, "18": 1800, "12.5": 1250, "100": 10000} {
		if got, err := booking.ParseTaxRate(in); err != nil || got != want {
			t.Errorf("ParseTaxRate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "101", "-1", "1,000", "x", "12.555"} {
		if _, err := booking.ParseTaxRate(in); booking.ErrorCode(err) != booking.EINVALID {
			t.Errorf("ParseTaxRate(%q) = %v, want EINVALID", in, err)
		}
	}
	if got := booking.TaxRate(1250).String(); got != "12.5" {
		t.Errorf("TaxRate(1250) = %q, want 12.5", got)
	}
}
