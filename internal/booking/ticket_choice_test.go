package booking_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"boxoffice/internal/booking"
)

// demoPrices is the demo's table: adult, child (accompanied, half),
// senior (70 %), comp (box office only) for Prime 200.00 and Classic
// 150.00; Classic does not offer senior.
func demoPrices() booking.ShowPrices {
	return booking.ShowPrices{
		Types: []booking.TicketType{
			{ID: "adult", Name: "Adult", Online: true, BoxOffice: true},
			{ID: "child", Name: "Child", Accompanied: true, Online: true, BoxOffice: true},
			{ID: "senior", Name: "Senior", Note: "ID needed", DoorCheck: true, Online: true, BoxOffice: true},
			{ID: "comp", Name: "Comp", BoxOffice: true},
		},
		Cells: booking.PriceTable{
			{Category: "Prime", Type: "adult", Price: 20000},
			{Category: "Prime", Type: "child", Price: 10000},
			{Category: "Prime", Type: "senior", Price: 14000},
			{Category: "Prime", Type: "comp", Price: 0},
			{Category: "Classic", Type: "adult", Price: 15000},
			{Category: "Classic", Type: "child", Price: 7500},
			{Category: "Classic", Type: "comp", Price: 0},
		},
	}
}

func TestPriceTickets(t *testing.T) {
	seats := []booking.Seat{
		{ID: "A1", Category: "Prime", Price: 20000},
		{ID: "A2", Category: "Prime", Price: 20000},
		{ID: "K1", Category: "Classic", Price: 15000},
	}
	h := booking.Hold{ID: "h1", SeatIDs: []string{"A1", "A2", "K1"}}
	tests := []struct {
		name       string
		choice     booking.TypeChoice
		wantTypes  []string
		wantAmount booking.Money
		wantSeat   string
		wantRule   string
	}{
		{"no choice: the first type offered", nil, []string{"adult", "adult", "adult"}, 55000, "", ""},
		{"adult with children", booking.TypeChoice{"A1": "adult", "A2": "child", "K1": "child"}, []string{"adult", "child", "child"}, 37500, "", ""},
		{"senior and adult", booking.TypeChoice{"A1": "senior", "A2": "senior", "K1": "adult"}, []string{"senior", "senior", "adult"}, 43000, "", ""},
		{"children only", booking.TypeChoice{"A1": "child", "A2": "child", "K1": "child"}, nil, 0, "", booking.RuleAccompanied},
		{"senior not offered in Classic", booking.TypeChoice{"K1": "senior"}, nil, 0, "K1", ""},
		{"box office only type", booking.TypeChoice{"A2": "comp"}, nil, 0, "A2", ""},
		{"unknown type", booking.TypeChoice{"A1": "vip"}, nil, 0, "A1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := booking.PriceTickets(h, seats, demoPrices(), tt.choice)
			if tt.wantSeat != "" || tt.wantRule != "" {
				var ce *booking.TypeChoiceError
				if !errors.As(err, &ce) || ce.Seat != tt.wantSeat || ce.Rule != tt.wantRule {
					t.Fatalf("PriceTickets = %v, %v; want a TypeChoiceError of seat %q rule %q", got, err, tt.wantSeat, tt.wantRule)
				}
				if booking.ErrorCode(err) != booking.EINVALID {
					t.Errorf("code %q, want %q", booking.ErrorCode(err), booking.EINVALID)
				}
				return
			}
			if err != nil {
				t.Fatalf("PriceTickets: %v", err)
			}
			var types []string
			for _, tk := range got {
				types = append(types, tk.Type)
			}
			if diff := cmp.Diff(tt.wantTypes, types); diff != "" {
				t.Errorf("types (-want +got):\n%s", diff)
			}
			if a := booking.TicketsAmount(got); a != tt.wantAmount {
				t.Errorf("amount %d, want %d", a, tt.wantAmount)
			}
		})
	}
}

func TestPriceTicketsWithoutTable(t *testing.T) {
	seats := []booking.Seat{{ID: "A1", Category: "Prime", Price: 25000}, {ID: "A2", Category: "Prime", Price: 24000}}
	h := booking.Hold{ID: "h1", SeatIDs: []string{"A1", "A2"}}
	got, err := booking.PriceTickets(h, seats, booking.ShowPrices{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []booking.SeatTicket{{SeatID: "A1", Category: "Prime", Type: "standard", Price: 25000, Name: "Standard"}, {SeatID: "A2", Category: "Prime", Type: "standard", Price: 24000, Name: "Standard"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tickets (-want +got):\n%s", diff)
	}
	if _, err := booking.PriceTickets(h, seats, booking.ShowPrices{}, booking.TypeChoice{"A2": "child"}); err == nil {
		t.Error("a type of no table was accepted")
	}
}

func TestDefaultTypeAndLineItems(t *testing.T) {
	p := demoPrices()
	if got, _ := p.DefaultType("Prime"); got != "adult" {
		t.Errorf("DefaultType(Prime) = %q, want adult", got)
	}
	kidsFirst := booking.ShowPrices{Types: []booking.TicketType{p.Types[1], p.Types[0]}, Cells: p.Cells}
	if got, _ := kidsFirst.DefaultType("Prime"); got != "adult" {
		t.Errorf("DefaultType with child first = %q, want adult (not accompanied)", got)
	}
	if got := len(p.OnlineTypes("Classic")); got != 2 {
		t.Errorf("Classic offers %d types online, want 2 (adult, child)", got)
	}
	show := booking.Show{Movie: booking.Movie{Title: "Kalki"}}
	tickets := []booking.SeatTicket{
		{SeatID: "A1", Category: "Prime", Type: "adult", Price: 20000},
		{SeatID: "A2", Category: "Prime", Type: "child", Price: 10000},
		{SeatID: "A3", Category: "Prime", Type: "adult", Price: 20000},
		{SeatID: "K1", Category: "Classic", Type: "adult", Price: 15000},
	}
	want := []booking.LineItem{
		{Name: "Kalki — Prime seat, Adult", UnitPrice: 20000, Quantity: 2},
		{Name: "Kalki — Prime seat, Child", UnitPrice: 10000, Quantity: 1},
		{Name: "Kalki — Classic seat, Adult", UnitPrice: 15000, Quantity: 1},
	}
	if diff := cmp.Diff(want, booking.TicketLineItems(show, tickets, p.Types)); diff != "" {
		t.Errorf("line items (-want +got):\n%s", diff)
	}
	if !booking.SameTickets(tickets, []booking.SeatTicket{tickets[3], tickets[2], tickets[1], tickets[0]}) {
		t.Error("SameTickets in another order = false")
	}
	other := append([]booking.SeatTicket(nil), tickets...)
	other[1].Type, other[1].Price = "adult", 20000
	if booking.SameTickets(tickets, other) {
		t.Error("SameTickets of another choice = true")
	}
}

func TestTicketsOfAndDoorCheck(t *testing.T) {
	seats := []booking.Seat{{ID: "A1", Category: "Prime"}, {ID: "A2", Category: "Prime"}, {ID: "K1", Category: "Classic"}}
	h := booking.Hold{ID: "h1", SeatIDs: []string{"A1", "A2", "K1"}}
	got, err := booking.PriceTickets(h, seats, demoPrices(), booking.TypeChoice{"A1": "senior", "A2": "child"})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Name != "Senior" || !got[0].DoorCheck || got[1].Note != "" || got[2].TypeName() != "Adult" {
		t.Errorf("tickets %+v: want the sold types' names and door checks kept", got)
	}
	if check, _ := booking.TicketsDoorCheck(got); !check {
		t.Error("a senior's ticket asks no door check")
	}
	if check, _ := booking.TicketsDoorCheck(got[1:]); check {
		t.Error("a child's and an adult's tickets ask a door check")
	}
	// A booking stored without tickets: standard, its amount shared out.
	old := booking.Booking{SeatIDs: []string{"A1", "A2", "A3"}, Amount: 1000}
	want := []booking.SeatTicket{{SeatID: "A1", Type: "standard", Price: 334}, {SeatID: "A2", Type: "standard", Price: 333}, {SeatID: "A3", Type: "standard", Price: 333}}
	if diff := cmp.Diff(want, booking.TicketsOf(old)); diff != "" {
		t.Errorf("TicketsOf an old booking (-want +got):\n%s", diff)
	}
	if n := booking.TicketsOf(old)[0].TypeName(); n != "Standard" {
		t.Errorf("an old ticket's type name %q, want Standard", n)
	}
}
