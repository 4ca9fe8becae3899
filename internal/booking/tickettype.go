package booking

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// StandardTypeID is the id of the implicit ticket type of a theatre without
// types (SPEC §15): it sells every seat at its category's price, online and
// at the box office. No theatre may define a type of this id.
const StandardTypeID = "standard"

// TicketType is one of the prices a theatre sells a seat at (SPEC §15):
// adult, child, senior, comp. A theatre's types are kept in the order its
// admin sets; a show copies them with its price table, so later edits of a
// type change new shows only.
type TicketType struct {
	ID   string // a slug, ^[a-z][a-z0-9-]{0,15}$, unique in the theatre
	Name string
	// Note is shown to buyers, on the ticket and at the door ("under 12").
	Note string
	// DoorCheck asks the door's staff to check the ticket's holder.
	DoorCheck bool
	// Accompanied seats need a seat of a type that is not accompanied in
	// the same booking.
	Accompanied bool
	// Online and BoxOffice say where it is sold: at least one.
	Online    bool
	BoxOffice bool
}

// StandardType is the implicit type of a theatre without types.
func StandardType() TicketType {
	return TicketType{ID: StandardTypeID, Name: "Standard", Online: true, BoxOffice: true}
}

// TypesOf is what a theatre whose stored types are stored sells: those, in
// their order, or the implicit StandardType alone when it has none.
func TypesOf(stored []TicketType) []TicketType {
	if len(stored) == 0 {
		return []TicketType{StandardType()}
	}
	return stored
}

// TypeByID is the type of id among types, and whether there is one.
func TypeByID(types []TicketType, id string) (TicketType, bool) {
	i := slices.IndexFunc(types, func(t TicketType) bool { return t.ID == id })
	if i < 0 {
		return TicketType{}, false
	}
	return types[i], true
}

var typeIDPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,15}$`)

// MaxTicketTypes is how many types a theatre may have: a form's grid of
// categories × types stays readable.
const MaxTicketTypes = 12

// ValidateTicketType checks t before it is stored among others, the
// theatre's other types (without t's old version): its id a slug that is
// not StandardTypeID and not another's, a name, a note of one line, sold
// somewhere.
func ValidateTicketType(t TicketType, others []TicketType) error {
	var f fields
	switch {
	case t.ID == StandardTypeID:
		f.add("id", "%q is reserved for theatres without types; choose another id.", StandardTypeID)
	case !typeIDPattern.MatchString(t.ID):
		f.add("id", "The id must start with a letter a-z and have at most 16 of a-z, 0-9 and -, like adult or child-3d.")
	default:
		if _, taken := TypeByID(others, t.ID); taken {
			f.add("id", "The theatre already has a type %s.", t.ID)
		}
	}
	f.text("name", "The name", t.Name, 40)
	if t.Note != "" {
		f.text("note", "The note", t.Note, 80)
	}
	if !t.Online && !t.BoxOffice {
		f.add("sold", "Sell it online, at the box office, or both.")
	}
	if len(others) >= MaxTicketTypes {
		f.add("id", "A theatre can have at most %d types.", MaxTicketTypes)
	}
	return f.err()
}

// PriceCell is the price of a seat of one category as one ticket type, in
// minor units. A cell not in a table is not offered.
type PriceCell struct {
	Category string
	Type     string
	Price    Money
}

// PriceTable is the price of each seat category × ticket type offered.
type PriceTable []PriceCell

// Price is the price of cat × typ, and whether it is offered.
func (p PriceTable) Price(cat, typ string) (Money, bool) {
	for _, c := range p {
		if c.Category == cat && c.Type == typ {
			return c.Price, true
		}
	}
	return 0, false
}

// LowestOnline is the lowest price of a seat of cat sold online under
// types, and whether one is offered: what the map shows as "from".
func (p PriceTable) LowestOnline(cat string, types []TicketType) (Money, bool) {
	var low Money
	found := false
	for _, c := range p {
		t, ok := TypeByID(types, c.Type)
		if c.Category != cat || !ok || !t.Online {
			continue
		}
		if !found || c.Price < low {
			low, found = c.Price, true
		}
	}
	return low, found
}

// DefaultOnline is the price of a seat of cat as checkout first offers it
// (SPEC §15): of the first type in the order of types that is sold online,
// not accompanied, and offered for cat; without one, the lowest online
// price. A show's seats carry it as their price.
func (p PriceTable) DefaultOnline(cat string, types []TicketType) (Money, bool) {
	for _, t := range types {
		if !t.Online || t.Accompanied {
			continue
		}
		if price, ok := p.Price(cat, t.ID); ok {
			return price, true
		}
	}
	return p.LowestOnline(cat, types)
}

// Sorted is the table in the order of categories and then types, with
// cells of unknown categories or types last: one order to store and
// compare in.
func (p PriceTable) Sorted(categories []string, types []TicketType) PriceTable {
	rank := func(c PriceCell) (int, int) {
		ci := slices.Index(categories, c.Category)
		ti := slices.IndexFunc(types, func(t TicketType) bool { return t.ID == c.Type })
		if ci < 0 {
			ci = len(categories)
		}
		if ti < 0 {
			ti = len(types)
		}
		return ci, ti
	}
	out := slices.Clone(p)
	slices.SortStableFunc(out, func(a, b PriceCell) int {
		ac, at := rank(a)
		bc, bt := rank(b)
		if ac != bc {
			return ac - bc
		}
		if at != bt {
			return at - bt
		}
		return strings.Compare(a.Category+"\x00"+a.Type, b.Category+"\x00"+b.Type)
	})
	return out
}

// CellField is the form field of the price of cat × typ.
func CellField(cat, typ string) string { return "price/" + cat + "/" + typ }

// CategoryField is the form field of what is wrong with a whole category.
func CategoryField(cat string) string { return "category/" + cat }

// ValidatePriceTable checks a table of categories × types (SPEC §15):
// every cell of a known category and type, at most MaxPrice; a price of 0
// only for a type sold at the box office alone; every category offering
// at least one type online and one at the box office. Each problem names
// its cell or its category.
func ValidatePriceTable(p PriceTable, categories []string, types []TicketType) error {
	var f fields
	seen := map[[2]string]bool{}
	for _, c := range p {
		field := CellField(c.Category, c.Type)
		t, ok := TypeByID(types, c.Type)
		switch {
		case !slices.Contains(categories, c.Category):
			f.add(field, "There is no seat category %q.", Truncate(c.Category, 40))
		case !ok:
			f.add(field, "There is no ticket type %q.", Truncate(c.Type, 20))
		case seen[[2]string{c.Category, c.Type}]:
			f.add(field, "%s × %s is priced twice.", c.Category, t.Name)
		case c.Price < 0 || c.Price > MaxPrice:
			f.add(field, "The price of %s × %s must be from 0 to %d.", c.Category, t.Name, MaxPrice/100)
		case c.Price == 0 && t.Online:
			f.add(field, "%s × %s: a price of 0 may be offered at the box office only, and %s is sold online.", c.Category, t.Name, t.Name)
		}
		seen[[2]string{c.Category, c.Type}] = true
	}
	for _, cat := range categories {
		online, counter := false, false
		for _, c := range p {
			if t, ok := TypeByID(types, c.Type); ok && c.Category == cat {
				online = online || t.Online
				counter = counter || t.BoxOffice
			}
		}
		switch {
		case !online && !counter:
			f.add(CategoryField(cat), "Offer %s seats as at least one type sold online and one sold at the box office.", cat)
		case !online:
			f.add(CategoryField(cat), "Offer %s seats as at least one type sold online.", cat)
		case !counter:
			f.add(CategoryField(cat), "Offer %s seats as at least one type sold at the box office.", cat)
		}
	}
	return f.err()
}

// PriceCard is a named price table of a theatre (SPEC §15): a show is
// created with one, and copies its table.
type PriceCard struct {
	ID        string
	TheatreID string
	Name      string
	Cells     PriceTable
}

// ValidatePriceCard checks a card of a theatre whose seat categories (of
// all its screens) are categories and whose types are types.
func ValidatePriceCard(c PriceCard, categories []string, types []TicketType) error {
	var f fields
	f.text("name", "The name", c.Name, 60)
	if err := ValidatePriceTable(c.Cells, categories, types); err != nil {
		f = append(f, err.(InvalidFields)...)
	}
	return f.err()
}

// ShowPrices is a show's own price table and the types it copied from its
// theatre when it was created (SPEC §15). A show stored without one (made
// before types, or made without a card) sells the implicit standard type
// at its categories' prices: ShowPricesOf.
type ShowPrices struct {
	Types []TicketType
	Cells PriceTable
}

// Stored reports whether p is a table stored with its show, not implicit.
func (p ShowPrices) Stored() bool { return len(p.Types) > 0 }

// ShowPricesOf is what a show sells: stored, its stored table, or when it
// has none the implicit standard type at each of categories' prices.
func ShowPricesOf(stored ShowPrices, categories []Category) ShowPrices {
	if stored.Stored() {
		return stored
	}
	out := ShowPrices{Types: []TicketType{StandardType()}}
	for _, c := range categories {
		out.Cells = append(out.Cells, PriceCell{Category: c.Name, Type: StandardTypeID, Price: c.Price})
	}
	return out
}

// CategoriesOfTable are the categories p prices, in the order of their
// first cell, without prices.
func CategoriesOfTable(p PriceTable) []Category {
	var out []Category
	for _, c := range p {
		if !slices.ContainsFunc(out, func(x Category) bool { return x.Name == c.Category }) {
			out = append(out, Category{Name: c.Category})
		}
	}
	return out
}

// CategoryNames are the names of cats, in order.
func CategoryNames(cats []Category) []string {
	out := make([]string, len(cats))
	for i, c := range cats {
		out[i] = c.Name
	}
	return out
}

// HalfUp is n × num / den rounded half up, for prices derived from
// another (a child's half, a senior's 70 %).
func HalfUp(n Money, num, den int64) Money {
	return Money((int64(n)*num*2 + den) / (den * 2))
}

// TaxRate is a rate of tax in hundredths of a percent (1800 is 18 %),
// stored on a theatre (SPEC §17).
type TaxRate int

// String is the rate as a person reads it: "18", "12.5".
func (r TaxRate) String() string {
	s := fmt.Sprintf("%d.%02d", r/100, r%100)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// ParseTaxRate reads a percent from 0 to 100 with at most two decimals.
func ParseTaxRate(s string) (TaxRate, error) {
	m, err := ParsePrice(s)
	if err != nil || strings.Contains(s, ",") || m > 100_00 {
		return 0, Errorf(EINVALID, "The tax rate %q must be a percent from 0 to 100, like 18 or 12.5.", Truncate(s, 20))
	}
	return TaxRate(m), nil
}

// MaxRentWeeks is how many weeks a movie's rental terms may name.
const MaxRentWeeks = 52

// ParseRent reads a movie's rental terms (SPEC §17): the distributor's
// percent of the net for each week of the run, "50,45,40"; the last
// applies to the weeks after it.
func ParseRent(s string) ([]int, error) {
	bad := Errorf(EINVALID, "The rental terms %q must be percents from 0 to 100 per week, separated by commas, like 50,45,40.", Truncate(s, 40))
	if strings.TrimSpace(s) == "" {
		return nil, bad
	}
	parts := strings.Split(s, ",")
	if len(parts) > MaxRentWeeks {
		return nil, Errorf(EINVALID, "The rental terms can name at most %d weeks.", MaxRentWeeks)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" || len(p) > 3 || strings.Trim(p, "0123456789") != "" {
			return nil, bad
		}
		var n int
		fmt.Sscan(p, &n)
		if n > 100 {
			return nil, bad
		}
		out[i] = n
	}
	return out, nil
}

// FormatRent is rent as ParseRent reads it.
func FormatRent(rent []int) string {
	parts := make([]string, len(rent))
	for i, n := range rent {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ",")
}
