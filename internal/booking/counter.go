package booking

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Channel is where a booking was sold (SPEC §16).
type Channel string

const (
	ChannelOnline    Channel = "online"
	ChannelBoxOffice Channel = "box_office"
)

// Method is how the box office took the money of a sale, or gave it back.
type Method string

const (
	MethodCash Method = "cash"
	MethodCard Method = "card" // a terminal outside boxoffice
	MethodComp Method = "comp" // every seat at 0, with a reason
)

// ProviderBoxOffice is the provider of a payment taken at the counter.
const ProviderBoxOffice = "box_office"

// The rules a sale at the counter can break besides the types' (SPEC §16):
// data-rule on the 422's message.
const (
	RuleMethod = "method"
	RuleReason = "reason"
)

// Lengths of what a person types at the counter.
const (
	maxCardRef    = 40
	maxCompReason = 120
)

// ErrBoxOfficeClosed refuses a counter hold or sale from BOXOFFICE_CLOSE on.
var ErrBoxOfficeClosed = &Error{Code: EGONE, Message: "The box office has closed for this show."}

// ErrRefundAtCounter refuses a provider refund of a box-office booking:
// its money is given back at the counter.
var ErrRefundAtCounter = &Error{Code: ECONFLICT, Message: "This booking was sold at the box office: refund it at the counter."}

// ErrRefundOnline refuses a counter refund of a booking sold online.
var ErrRefundOnline = &Error{Code: ECONFLICT, Message: "This booking was sold online: refund online bookings in the refund queue."}

// The counter's other refusals of a refund (DecideCounterRefund), named so
// that a page can say them in its language.
var (
	ErrRefundAdmitted    = &Error{Code: ECONFLICT, Message: "This ticket was admitted at the door, so it cannot be refunded."}
	ErrRefundUnconfirmed = &Error{Code: ECONFLICT, Message: "Only a confirmed booking can be refunded."}
	ErrRefundStarted     = &Error{Code: ECONFLICT, Message: "The show has started: a booking can be refunded at the counter only before its show starts."}
)

// BoxOfficeCloseAt is when the box office stops selling the show at m.
func (s Show) BoxOfficeCloseAt(m Moment) time.Time { return s.StartsAt.Add(m.BoxOfficeClose) }

// CheckAtCounter says whether seats of the show may be held or sold at
// the box office at m (SPEC §16): not once it was cancelled, nor from
// BoxOfficeCloseAt on. The sales opening and SALES_CLOSE do not apply.
func (s Show) CheckAtCounter(m Moment) error {
	switch {
	case s.Cancelled():
		return ErrShowCancelled
	case !m.Now.Before(s.BoxOfficeCloseAt(m)):
		return ErrBoxOfficeClosed
	}
	return nil
}

// checkHoldSale is the sales check of hold h's show at m: the counter's
// for a counter hold, the web's otherwise.
func checkHoldSale(show Show, h Hold, m Moment) error {
	if h.Counter {
		return show.CheckAtCounter(m)
	}
	return show.CheckOnSale(m)
}

// AtCounter is m under the counter's rules (SPEC §16): no cap per address
// and no single-gap rule. MAX_SEATS still applies (Service).
func (m Moment) AtCounter() Moment {
	m.SeatsPerAddress, m.AllowGaps = 0, true
	return m
}

// CounterSale is what the counter's Sell asks for (SPEC §16): the staff
// session's hold, the types chosen, the method, and the ids minted for
// the payment and booking.
type CounterSale struct {
	HoldID string
	Owner  string // the staff session's counter owner (Hold.Owner)
	SoldBy string // the staff account's email
	Method Method
	// CardRef is the card terminal's reference (card only, optional);
	// Reason why a comp was given (comp only, required).
	CardRef string
	Reason  string
	Email   string // validated by ValidateEmail; "" for none
	Types   TypeChoice
	// Lang is the language chosen on the counter page (SPEC §19), which
	// the booking's mails use; "" is the service's default language.
	Lang string

	PaymentID  string
	BookingID  string
	Key        string
	TicketCode string
}

// CheckCounterSale checks what a person typed at the counter: a known
// method, a reason for a comp, short references. A *TypeChoiceError
// naming the rule (422).
func CheckCounterSale(sale CounterSale) error {
	switch sale.Method {
	case MethodCash, MethodCard, MethodComp:
	default:
		return &TypeChoiceError{Rule: RuleMethod, Message: "Choose how the customer pays: cash, card or comp."}
	}
	if sale.Method == MethodComp && strings.TrimSpace(sale.Reason) == "" {
		return &TypeChoiceError{Rule: RuleReason, Message: "A comp needs a reason: say why the tickets are given free."}
	}
	if len([]rune(sale.Reason)) > maxCompReason {
		return &TypeChoiceError{Rule: RuleReason, Message: fmt.Sprintf("The reason is too long: at most %d characters.", maxCompReason)}
	}
	if len([]rune(sale.CardRef)) > maxCardRef {
		return &TypeChoiceError{Rule: RuleMethod, Message: fmt.Sprintf("The card reference is too long: at most %d characters.", maxCardRef)}
	}
	return nil
}

// BoxOfficeTypes are the types p offers at the box office for a seat of
// cat, in the admin's order, each with its price: the counter's choice for
// the seat.
func (p ShowPrices) BoxOfficeTypes(cat string) []TypePrice {
	return p.typesSold(cat, func(t TicketType) bool { return t.BoxOffice })
}

// DefaultBoxOfficeType is the type the counter chooses first for a seat
// of cat: the first sold there that is not accompanied, else the first.
func (p ShowPrices) DefaultBoxOfficeType(cat string) (string, bool) {
	return firstUnaccompanied(p.BoxOfficeTypes(cat))
}

// PriceCounterTickets prices hold h's seats at the box office (SPEC §16),
// as PriceTickets does online but among the types sold at the box office
// (ShowPricesOf(p, …) for a show without a table): each seat as the type
// chosen for it, or with none the first sold there that is not
// accompanied; with MethodComp every seat at 0. A type not sold there is a
// TypeChoiceError naming the seat, accompanied seats only one naming
// RuleAccompanied.
func PriceCounterTickets(h Hold, seats []Seat, stored ShowPrices, choice TypeChoice, method Method) ([]SeatTicket, error) {
	p := ShowPricesOf(stored, Categories(seats))
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
		if typ == "" {
			typ, _ = p.DefaultBoxOfficeType(s.Category)
		}
		offered := p.BoxOfficeTypes(s.Category)
		i := slices.IndexFunc(offered, func(o TypePrice) bool { return o.Type.ID == typ })
		if i < 0 {
			return nil, &TypeChoiceError{Seat: id, Message: fmt.Sprintf("Seat %s cannot be sold at the box office as %q: choose one of the types offered for it.", id, Truncate(typ, 20))}
		}
		tt, price := offered[i].Type, offered[i].Price
		if method == MethodComp {
			price = 0
		}
		out = append(out, SeatTicket{SeatID: id, Category: s.Category, Type: typ, Price: price, Name: tt.Name, Note: tt.Note, DoorCheck: tt.DoorCheck})
		companion = companion || !tt.Accompanied
	}
	if !companion && len(out) > 0 {
		return nil, &TypeChoiceError{Rule: RuleAccompanied, Message: "Those tickets must come with a ticket of another type in the same booking (an accompanying adult, say): choose one for at least one seat."}
	}
	return out, nil
}

// LostSeats are the seats of h that a sale at the counter cannot book at
// m (SPEC §16): neither still locked by h (however old the lock) nor free
// by the seat rule with no reserve but house, or gone from the show;
// sorted.
func LostSeats(h Hold, seats []Seat, m Moment) []string {
	byID := make(map[string]Seat, len(seats))
	for _, s := range seats {
		byID[s.ID] = s
	}
	var lost []string
	for _, id := range h.SeatIDs {
		s, ok := byID[id]
		if !ok || !(s.LockedBy(h.ID) || (s.AvailableAt(m) && s.Reserve.HoldableBy(true))) {
			lost = append(lost, id)
		}
	}
	SortSeatIDs(lost)
	return lost
}

// NewCounterSale builds the succeeded payment and the confirmed booking of
// a sale at the counter of hold h's seats as tickets, at now.
func NewCounterSale(h Hold, sale CounterSale, tickets []SeatTicket, now time.Time) (Payment, Booking) {
	amount := TicketsAmount(tickets)
	p := Payment{
		ID: sale.PaymentID, HoldID: h.ID, BookingID: sale.BookingID, Owner: h.Owner,
		Amount: amount, Currency: h.Currency, State: PaymentSucceeded, CreatedAt: now, Tickets: tickets,
		Provider: ProviderBoxOffice, Method: sale.Method,
	}
	b := Booking{
		ID: sale.BookingID, HoldID: h.ID, PaymentID: sale.PaymentID, Owner: h.Owner,
		ShowID: h.ShowID, SeatIDs: h.SeatIDs, Amount: amount, Currency: h.Currency,
		State: BookingConfirmed, TicketCode: sale.TicketCode, CreatedAt: now, UpdatedAt: now, ConfirmedAt: now,
		Email: sale.Email, Key: sale.Key, Tickets: tickets,
		Channel: ChannelBoxOffice, SoldBy: sale.SoldBy, Method: sale.Method, Lang: sale.Lang,
	}
	if sale.Method == MethodCard {
		b.CardRef = strings.TrimSpace(sale.CardRef)
	}
	if sale.Method == MethodComp {
		b.CompReason = strings.TrimSpace(sale.Reason)
	}
	return p, b
}

// RefundMethodFor is the method a counter refund of b gives the money
// back by: method when given (cash or card; comp only for a comp sale),
// else the sale's. A *TypeChoiceError naming RuleMethod otherwise.
func RefundMethodFor(b Booking, method Method) (Method, error) {
	switch method {
	case "":
		return b.Method, nil
	case MethodCash, MethodCard:
		return method, nil
	case MethodComp:
		if b.Method == MethodComp {
			return method, nil
		}
	}
	return "", &TypeChoiceError{Rule: RuleMethod, Message: "Refund in cash or by card."}
}

// DecideCounterRefund is the refund of box-office booking b at the counter
// (SPEC §16) at m, of its show show, by staff account by with method: a
// confirmed booking before its show starts, or a refund_due one at any
// time. It returns the booking refunded and whether its seats become
// available again (before the start). An online booking, one admitted, one
// refunded already, or a confirmed one after the start is ECONFLICT.
func DecideCounterRefund(b Booking, show Show, by string, method Method, m Moment) (Booking, bool, error) {
	if !b.AtBoxOffice() {
		return b, false, ErrRefundOnline
	}
	how, err := RefundMethodFor(b, method)
	if err != nil {
		return b, false, err
	}
	started := !m.Now.Before(show.StartsAt)
	switch {
	case b.State == BookingRefunded:
		return b, false, ErrAlreadyRefunded
	case !b.AdmittedAt.IsZero():
		return b, false, ErrRefundAdmitted
	case b.State == BookingRefundDue:
	case b.State != BookingConfirmed:
		return b, false, ErrRefundUnconfirmed
	case started:
		return b, false, ErrRefundStarted
	}
	b.State, b.RefundedAt, b.RefundedBy, b.RefundMethod, b.UpdatedAt = BookingRefunded, m.Now, by, how, m.Now
	return b, !started, nil
}

// CashUpRow is one staff account's box-office day (SPEC §16): its sales
// (bookings, comps included), their seats, the amounts it took in cash
// and by card, its comp seats (sold for 0), the amounts it refunded at the
// counter in cash and by card, and the net cash to hand in.
type CashUpRow struct {
	Staff       string
	Sales       int
	Seats       int
	Cash        Money
	Card        Money
	Comp        int
	CashRefunds Money
	CardRefunds Money
}

// Net is the cash to hand in: cash taken minus cash refunded.
func (r CashUpRow) Net() Money { return r.Cash - r.CashRefunds }

// CashUp adds up box-office bookings into one row per staff account, by
// email: each sold in [from, to) counts for its seller, each refunded at
// the counter in [from, to) for who refunded it. Refunds made
// automatically (a cancelled show's comp) count for nobody.
func CashUp(bookings []Booking, from, to time.Time) []CashUpRow {
	rows := map[string]*CashUpRow{}
	row := func(email string) *CashUpRow {
		r, ok := rows[email]
		if !ok {
			r = &CashUpRow{Staff: email}
			rows[email] = r
		}
		return r
	}
	in := func(t time.Time) bool { return !t.IsZero() && !t.Before(from) && t.Before(to) }
	for _, b := range bookings {
		if !b.AtBoxOffice() {
			continue
		}
		if in(b.CreatedAt) && b.SoldBy != "" {
			r := row(b.SoldBy)
			r.Sales++
			r.Seats += len(b.SeatIDs)
			switch b.Method {
			case MethodCash:
				r.Cash += b.Amount
			case MethodCard:
				r.Card += b.Amount
			}
			for _, t := range TicketsOf(b) {
				if t.Price == 0 {
					r.Comp++
				}
			}
		}
		if b.State == BookingRefunded && in(b.RefundedAt) && b.RefundedBy != "" && b.RefundedBy != RefundedAutomatically {
			r := row(b.RefundedBy)
			switch b.RefundMethod {
			case MethodCash:
				r.CashRefunds += b.Amount
			case MethodCard:
				r.CardRefunds += b.Amount
			}
		}
	}
	out := make([]CashUpRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Staff < out[j].Staff })
	return out
}
