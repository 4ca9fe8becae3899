package booking

import (
	"fmt"
	"slices"
)

// SeatTicket is one seat of a payment or a booking as it is sold (SPEC
// §15): its category, the ticket type chosen for it and that type's
// price, fixed when Pay started the payment, and the tax rate included
// in that price (SPEC §17, TaxTickets; 0 for seats sold before rates).
//
// Name, Note and DoorCheck are the type as the show sold it (the show's
// copy of its theatre's types, which later edits leave alone): what the
// booking, the mail and the door show of it.
type SeatTicket struct {
	SeatID    string  `json:"seat"`
	Category  string  `json:"category"`
	Type      string  `json:"type"`
	Price     Money   `json:"price"`
	Name      string  `json:"name,omitempty"`
	Note      string  `json:"note,omitempty"`
	DoorCheck bool    `json:"door_check,omitempty"`
	TaxRate   TaxRate `json:"rate,omitempty"`
}

// TypeName is the name of t's type as people read it: its stored name, or
// for a ticket stored without one its type's id (Standard for standard).
func (t SeatTicket) TypeName() string {
	switch {
	case t.Name != "":
		return t.Name
	case t.Type == StandardTypeID || t.Type == "":
		return StandardType().Name
	}
	return t.Type
}

// TicketsOf are b's seats as sold: its stored tickets, or for a booking
// stored without them (made before types, and not migrated) each seat as
// standard, the amount shared out evenly (the first seats taking what does
// not divide).
func TicketsOf(b Booking) []SeatTicket {
	if len(b.Tickets) > 0 || len(b.SeatIDs) == 0 {
		return b.Tickets
	}
	n := Money(len(b.SeatIDs))
	each, rest := b.Amount/n, b.Amount%n
	out := make([]SeatTicket, len(b.SeatIDs))
	for i, id := range b.SeatIDs {
		out[i] = SeatTicket{SeatID: id, Type: StandardTypeID, Price: each}
		if Money(i) < rest {
			out[i].Price++
		}
	}
	return out
}

// TicketsDoorCheck reports whether a ticket of tickets has a type that asks the
// door to check its holder (SPEC §15), and the notes of those types, once
// each.
func TicketsDoorCheck(tickets []SeatTicket) (bool, []string) {
	check := false
	var notes []string
	for _, t := range tickets {
		if !t.DoorCheck {
			continue
		}
		check = true
		if t.Note != "" && !slices.Contains(notes, t.Note) {
			notes = append(notes, t.Note)
		}
	}
	return check, notes
}

// TicketsAmount is what tickets cost together.
func TicketsAmount(tickets []SeatTicket) Money {
	var sum Money
	for _, t := range tickets {
		sum += t.Price
	}
	return sum
}

// SameTickets reports whether a and b sell the same seats as the same
// types at the same prices, in any order: a repeated Pay with the same
// choice reuses its payment (and the tax rates fixed when it was made).
func SameTickets(a, b []SeatTicket) bool {
	if len(a) != len(b) {
		return false
	}
	byID := make(map[string]SeatTicket, len(a))
	for _, t := range a {
		byID[t.SeatID] = t
	}
	for _, t := range b {
		o, ok := byID[t.SeatID]
		o.TaxRate = t.TaxRate
		if !ok || o != t {
			return false
		}
	}
	return true
}

// TypeChoice is the ticket type chosen for each held seat, by seat id:
// what Pay carries (type_<seatID>). A seat without one gets the first
// type its category offers online.
type TypeChoice map[string]string

// RuleAccompanied names the rule that a booking of accompanied seats only
// breaks (SPEC §15): data-rule="accompanied".
const RuleAccompanied = "accompanied"

// TypeChoiceError refuses a choice of types (422): Seat names the seat
// whose type is not offered online for its category, or Rule the rule the
// choice as a whole breaks.
type TypeChoiceError struct {
	Seat    string
	Rule    string
	Message string
}

func (e *TypeChoiceError) Error() string { return e.Message }

// Unwrap makes a TypeChoiceError an EINVALID *Error for ErrorCode and
// ErrorMessage.
func (e *TypeChoiceError) Unwrap() error { return &Error{Code: EINVALID, Message: e.Message} }

// TypePrice is a ticket type a seat's category offers online, at its
// price.
type TypePrice struct {
	Type  TicketType
	Price Money
}

// OnlineTypes are the types p offers online for a seat of cat, in the
// admin's order, each with its price: the checkout's choice for the seat.
func (p ShowPrices) OnlineTypes(cat string) []TypePrice {
	return p.typesSold(cat, func(t TicketType) bool { return t.Online })
}

// DefaultType is the type checkout chooses first for a seat of cat (SPEC
// §15): the first offered online that is not accompanied, else the first
// offered online; false when cat offers none online.
func (p ShowPrices) DefaultType(cat string) (string, bool) {
	return firstUnaccompanied(p.OnlineTypes(cat))
}

// typesSold are the types of p that sold says are sold where the caller
// sells, for a seat of cat, in the admin's order, each with its price.
func (p ShowPrices) typesSold(cat string, sold func(TicketType) bool) []TypePrice {
	var out []TypePrice
	for _, t := range p.Types {
		if !sold(t) {
			continue
		}
		if price, ok := p.Cells.Price(cat, t.ID); ok {
			out = append(out, TypePrice{Type: t, Price: price})
		}
	}
	return out
}

// firstUnaccompanied is the id of the first of offered that is not
// accompanied, else of the first; false when offered is empty.
func firstUnaccompanied(offered []TypePrice) (string, bool) {
	if len(offered) == 0 {
		return "", false
	}
	for _, o := range offered {
		if !o.Type.Accompanied {
			return o.Type.ID, true
		}
	}
	return offered[0].Type.ID, true
}

// PriceTickets prices hold h's seats, as seats (the show's, as stored;
// at least h's) say their categories are, under show prices p and the
// buyer's choice (SPEC §15): each seat as the type chosen for it, or,
// with none chosen, the first type its category offers online. A show
// without a stored table (p not Stored) sells each seat as standard at
// the seat's own price, as before types. A type not offered online for
// the seat's category is a TypeChoiceError naming the seat; a choice of
// accompanied seats only, one naming RuleAccompanied. The tickets are in
// the hold's seat order.
func PriceTickets(h Hold, seats []Seat, p ShowPrices, choice TypeChoice) ([]SeatTicket, error) {
	byID := make(map[string]Seat, len(seats))
	for _, s := range seats {
		byID[s.ID] = s
	}
	out := make([]SeatTicket, 0, len(h.SeatIDs))
	companion := false
	for _, id := range h.SeatIDs {
		s, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("seat %s of hold %s: %w", id, h.ID, errIntegrity)
		}
		typ := choice[id]
		if !p.Stored() {
			if typ != "" && typ != StandardTypeID {
				return nil, notOffered(id, typ)
			}
			out = append(out, SeatTicket{SeatID: id, Category: s.Category, Type: StandardTypeID, Price: s.Price, Name: StandardType().Name})
			companion = true
			continue
		}
		offered := p.OnlineTypes(s.Category)
		if typ == "" && len(offered) > 0 {
			typ = offered[0].Type.ID
		}
		i := slices.IndexFunc(offered, func(o TypePrice) bool { return o.Type.ID == typ })
		if i < 0 {
			return nil, notOffered(id, typ)
		}
		tt := offered[i].Type
		out = append(out, SeatTicket{SeatID: id, Category: s.Category, Type: typ, Price: offered[i].Price, Name: tt.Name, Note: tt.Note, DoorCheck: tt.DoorCheck})
		companion = companion || !offered[i].Type.Accompanied
	}
	if !companion && len(out) > 0 {
		return nil, &TypeChoiceError{Rule: RuleAccompanied, Message: "Those tickets must come with a ticket of another type in the same booking (an accompanying adult, say): choose one for at least one seat."}
	}
	return out, nil
}

func notOffered(seat, typ string) *TypeChoiceError {
	return &TypeChoiceError{Seat: seat, Message: fmt.Sprintf("Seat %s cannot be sold online as %q: choose one of the types offered for it.", seat, Truncate(typ, 20))}
}
