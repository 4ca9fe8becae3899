package booking

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Screen is a hall of a theatre: its name and its seat layout, as the text
// ParseLayout reads. A show copies its seats from the layout when it is
// planned; editing the layout later changes no show.
type Screen struct {
	ID        string
	TheatreID string
	Name      string
	Layout    string
}

// FieldError is what is wrong with one field of a form, for the person
// filling it in.
type FieldError struct {
	Field   string // the form field's name
	Message string
	// Key and Args name the message for another language, as Error's do.
	Key  string
	Args []any
}

// InvalidFields are the problems of one form, each naming its field. Its
// code is EINVALID, and its message lists them all.
type InvalidFields []FieldError

func (f InvalidFields) Error() string {
	msgs := make([]string, len(f))
	for i, e := range f {
		msgs[i] = e.Message
	}
	return strings.Join(msgs, " ")
}

// Unwrap makes InvalidFields an EINVALID *Error for ErrorCode and
// ErrorMessage.
func (f InvalidFields) Unwrap() error { return &Error{Code: EINVALID, Message: f.Error()} }

// For is the message for field, "" when it is fine.
func (f InvalidFields) For(field string) string {
	for _, e := range f {
		if e.Field == field {
			return e.Message
		}
	}
	return ""
}

// fields collects a form's problems.
type fields InvalidFields

func (f *fields) add(field, format string, args ...any) {
	*f = append(*f, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// text checks a required line of text of at most max characters, without
// the control and text-direction characters RefusedRune refuses.
func (f *fields) text(field, label, v string, max int) {
	switch n := utf8.RuneCountInString(v); {
	case strings.TrimSpace(v) == "":
		f.add(field, "%s is required.", label)
	case n > max:
		f.add(field, "%s can be at most %d characters; it has %d.", label, max, n)
	case strings.ContainsAny(v, "\r\n\t<>"):
		f.add(field, "%s must be one line of plain text.", label)
	default:
		if msg := refusedText(label, v); msg != "" {
			f.add(field, "%s", msg)
		}
	}
}

func (f fields) err() error {
	if len(f) == 0 {
		return nil
	}
	return InvalidFields(f)
}

// ValidateTheatre checks a theatre before it is stored: a name, a city, an
// IANA time zone (Asia/Kolkata), in which its show times are shown, and a
// supported currency (Currencies), in which its shows are priced.
func ValidateTheatre(t Theatre) error {
	var f fields
	f.text("name", "The name", t.Name, 80)
	f.text("city", "The city", t.City, 60)
	if _, err := t.Location(); err != nil {
		f.add("time_zone", "%q is not a time zone; write one like Asia/Kolkata or Europe/London.", Truncate(t.TimeZone, 40))
	}
	if _, ok := CurrencyExponent(t.Currency); !ok {
		f.add("currency", "%q is not a currency we sell in; choose one of %s.", Truncate(t.Currency, 12), strings.Join(Currencies(), ", "))
	}
	return f.err()
}

// Location is the theatre's time zone. A theatre stored before theatres had
// one (TimeZone empty) has none: the caller's default applies.
func (t Theatre) Location() (*time.Location, error) {
	if t.TimeZone == "" || t.TimeZone == "Local" {
		return nil, fmt.Errorf("booking: theatre %s has no time zone", t.ID)
	}
	return time.LoadLocation(t.TimeZone)
}

// ValidateMovie checks a movie before it is stored.
func ValidateMovie(m Movie) error {
	var f fields
	f.text("title", "The title", m.Title, 120)
	if m.Language != "" {
		f.text("language", "The language", m.Language, 40)
	}
	if m.Rating != "" {
		f.text("rating", "The certificate", m.Rating, 12)
	}
	if m.RuntimeMin < 1 || m.RuntimeMin > 600 {
		f.add("runtime", "The runtime must be from 1 to 600 minutes.")
	}
	return f.err()
}

// ValidateScreen checks a screen before it is stored and returns its
// parsed layout; a layout's problem names its line and column.
func ValidateScreen(sc Screen) (Layout, error) {
	var f fields
	f.text("name", "The name", sc.Name, 40)
	// The layout is kept as typed, notes and all: its lines may break and
	// its notes may have tabs, but no other control character.
	if msg := refusedText("The layout", sc.Layout, '\n', '\r', '\t'); msg != "" {
		f.add("layout", "%s", msg)
		return Layout{}, f.err()
	}
	l, err := ParseLayout(sc.Layout)
	if err != nil {
		f.add("layout", "%s", err.Error())
	}
	return l, f.err()
}

// ParsePrice reads a price in a currency of two decimals (INR): see
// ParsePriceIn.
func ParsePrice(s string) (Money, error) { return ParsePriceIn(s, "INR") }

// ParsePriceIn reads a price as a person types it in currency's major
// unit ("250", "99.50", "1,250": commas only between groups of three
// digits) into its minor units, up to MaxPrice: a currency without minor
// units (JPY) takes no decimals.
func ParsePriceIn(s, currency string) (Money, error) {
	exp := exponentOf(currency)
	s = strings.TrimSpace(s)
	whole, frac, hasFrac := strings.Cut(s, ".")
	if groups := strings.Split(whole, ","); len(groups) > 1 {
		for i, g := range groups {
			if (i == 0 && (len(g) == 0 || len(g) > 3)) || (i > 0 && len(g) != 3) {
				return 0, fmt.Errorf("not a price")
			}
		}
		whole = strings.Join(groups, "")
	}
	if whole == "" || len(whole) > 9-exp || (hasFrac && (len(frac) == 0 || len(frac) > exp)) {
		return 0, fmt.Errorf("not a price")
	}
	for _, part := range []string{whole, frac} {
		for _, c := range part {
			if c < '0' || c > '9' {
				return 0, fmt.Errorf("not a price")
			}
		}
	}
	v, _ := strconv.ParseInt(whole+(frac + strings.Repeat("0", exp))[:exp], 10, 64)
	if m := Money(v); m <= MaxPrice {
		return m, nil
	}
	return 0, fmt.Errorf("more than a seat can cost")
}

// MaxPrice is the most a seat may cost, in minor units: a million in the
// major unit of a currency of two decimals, under the eight digits a
// provider's amount may have.
const MaxPrice Money = 1_000_000_00

// LocalTimeLayout is how a show's start is typed: the form's
// datetime-local, in the theatre's time zone.
const LocalTimeLayout = "2006-01-02T15:04"

// PlanShow is the show an admin plans: movie on screen of theatre, starting
// at start (LocalTimeLayout, in the theatre's zone) at now or later, with a
// price (as typed, in the theatre's currency) for every seat category of
// the screen's layout: the show copies the theatre's currency. Its seats
// are copied from the layout. A time that does not exist in the zone
// (skipped when the clocks go forward) is refused; one that happens twice
// (when they go back) is the first.
func PlanShow(id string, movie Movie, theatre Theatre, screen Screen, start string, prices map[string]string, now time.Time) (Show, []Seat, error) {
	var f fields
	currency := theatre.Currency
	if _, ok := CurrencyExponent(currency); !ok {
		f.add("screen", "The theatre %s has no currency: set one first.", theatre.Name)
	}
	loc, err := theatre.Location()
	if err != nil {
		loc = time.UTC
		f.add("screen", "The theatre %s has no time zone: set one first.", theatre.Name)
	}
	startsAt, err := time.ParseInLocation(LocalTimeLayout, strings.TrimSpace(start), loc)
	if err == nil {
		startsAt = firstOccurrence(startsAt, loc)
	}
	switch {
	case err != nil:
		f.add("start", "Give the start as a date and a time, like 2026-12-24T18:30.")
	case startsAt.Format(LocalTimeLayout) != strings.TrimSpace(start):
		f.add("start", "%s does not exist in %s: the clocks skip it. Choose another time.", strings.Replace(start, "T", " ", 1), loc)
	case !startsAt.After(now):
		f.add("start", "The start must be in the future.")
	}
	layout, err := ParseLayout(screen.Layout)
	if err != nil {
		f.add("screen", "The screen's layout is not valid: %s", err.Error())
	}
	parsed := map[string]Money{}
	for _, name := range layout.CategoryNames() {
		field := "price_" + name
		p, err := ParsePriceIn(prices[name], currency)
		switch {
		case strings.TrimSpace(prices[name]) == "":
			f.add(field, "Give the price of a %s seat.", name)
		case err != nil:
			f.add(field, "%q is not a price for %s; write it like %s.", Truncate(prices[name], 12), name, priceExample(currency))
		case p <= 0:
			f.add(field, "The price of a %s seat must be more than nothing.", name)
		default:
			parsed[name] = p
		}
	}
	if len(f) > 0 {
		return Show{}, nil, f.err()
	}
	theatre.Currency = "" // the show's own is Show.Currency
	show := Show{
		ID: id, Movie: movie, Theatre: theatre, Screen: screen.Name, ScreenID: screen.ID,
		StartsAt: startsAt.UTC(), Currency: currency,
	}
	seats, err := layout.SeatsFor(id, parsed)
	if err != nil {
		return Show{}, nil, err
	}
	return show, seats, nil
}

// priceExample is how a price is written in currency, for a message.
func priceExample(currency string) string {
	if exponentOf(currency) == 0 {
		return "1500"
	}
	return "250 or 99.50"
}

// firstOccurrence is the earliest instant that reads as t's local time in
// loc: when the clocks go back, an hour happens twice, and time.Parse may
// give either.
func firstOccurrence(t time.Time, loc *time.Location) time.Time {
	local := t.In(loc).Format(LocalTimeLayout)
	for _, d := range []time.Duration{2 * time.Hour, time.Hour, 30 * time.Minute} {
		if e := t.Add(-d); e.In(loc).Format(LocalTimeLayout) == local {
			return e
		}
	}
	return t
}

// ErrInUse is refused deletion: something still refers to it. Its message
// says what, and what to do instead.
func ErrInUse(format string, args ...any) error { return Errorf(ECONFLICT, format, args...) }

// CheckDeleteTheatre is whether a theatre with screens screens and shows
// shows may go: one with either stays (ErrInUse).
func CheckDeleteTheatre(screens, shows int) error {
	if screens > 0 {
		return ErrInUse("The theatre has %d screen(s): delete them first.", screens)
	}
	if shows > 0 {
		return ErrInUse("The theatre has %d show(s); a theatre with shows stays.", shows)
	}
	return nil
}

// CheckCurrencyChange is whether a theatre priced in from, with shows
// shows and cards price cards, may be priced in to instead (SPEC §10): its
// shows copied from and its cards' prices are in its minor units, so a
// theatre with a show or a card keeps it (ErrInUse, 409).
func CheckCurrencyChange(from, to string, shows, cards int) error {
	if from == to {
		return nil
	}
	if shows > 0 {
		return ErrInUse("The theatre's shows are priced in %s: its currency can change only while it has no show and no price card (it has %d show(s)).", from, shows)
	}
	if cards > 0 {
		return ErrInUse("The theatre's price cards are priced in %s: its currency can change only while it has no show and no price card (it has %d card(s)).", from, cards)
	}
	return nil
}

// CheckDeleteScreen is whether a screen that shows shows were made on may
// go: one with shows stays (ErrInUse).
func CheckDeleteScreen(shows int) error {
	if shows > 0 {
		return ErrInUse("%d show(s) were made on this screen; a screen with shows stays.", shows)
	}
	return nil
}

// CheckDeleteMovie is whether a movie of shows shows may go: one with
// shows stays (ErrInUse).
func CheckDeleteMovie(shows int) error {
	if shows > 0 {
		return ErrInUse("The movie has %d show(s); delete or keep them first.", shows)
	}
	return nil
}
