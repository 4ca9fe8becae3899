package model

import "strings"

// Field is one input of an admin form: what was typed and, after a refused
// save, what is wrong with it.
type Field struct {
	Name  string // the form field's name
	Label string
	Value string
	Error string
	Hint  string
	// Autocomplete is the input's autocomplete token, "" for none
	// ("new-password" keeps a browser from filling in its own).
	Autocomplete string
	// List is what the input suggests (a datalist): values, in order.
	List []string
}

// Describedby is the ids of the field's hint and error, for
// aria-describedby: the error first, "" when it has neither.
func (f Field) Describedby() string {
	var ids []string
	if f.Invalid() {
		ids = append(ids, "f-"+f.Name+"-error")
	}
	if f.Hint != "" {
		ids = append(ids, "f-"+f.Name+"-hint")
	}
	return strings.Join(ids, " ")
}

// Invalid reports whether the field has an error.
func (f Field) Invalid() bool { return f.Error != "" }

// Option is one choice of a select.
type Option struct {
	Value, Label string
	Selected     bool
}

// AdminCatalog lists what a cinema is made of.
type AdminCatalog struct {
	AdminPage
	Notice   *Notice
	Theatres []CatalogTheatre
	Movies   []CatalogMovie
}

// CatalogTheatre is a theatre with its screens.
type CatalogTheatre struct {
	ID, Name, City, TimeZone, URL, NewScreenURL string
	Screens                                     []CatalogScreen
}

// CatalogScreen is a screen in the catalog.
type CatalogScreen struct {
	ID, Name, URL, NewShowURL string
	Seats                     int
}

// CatalogMovie is a movie in the catalog.
type CatalogMovie struct {
	ID, Title, Details, URL string
}

// AdminForm is an admin's form of one thing: its fields, where it posts,
// and, when editing, where its deletion posts.
type AdminForm struct {
	AdminPage
	Heading      string
	Action       string
	Submit       string // the save button's words
	Fields       []Field
	DeleteAction string // "" when new
	Notice       *Notice
	Back         string // the catalog
	// Links are pages of the thing being edited (a theatre's ticket
	// types and price cards): Value the URL, Label the words.
	Links []Option
}

// AdminScreenForm is the screen form: name and layout, its reference, and
// the layout previewed as the seat map.
type AdminScreenForm struct {
	AdminForm
	Theatre    string
	Layout     Field
	Example    string
	ExportURL  string   // "" when new
	Preview    *SeatMap // the layout drawn as the seat map, in preview mode
	Categories []string
	SeatCount  int
}

// AdminShowForm plans a show: movie, screen, start and a price per seat
// category of the screen.
type AdminShowForm struct {
	AdminForm
	Movies   []Option
	Screens  []Option
	ScreenOK bool // a screen is chosen: its categories' prices are asked for
	ZoneNote string
	Start    Field
	Prices   []Field
	Pick     string // GET target that reloads the form for another screen
	MovieErr string
	ScreenID string
	// Cards are the screen's theatre's price cards: with any, the show is
	// priced by the one chosen instead of Prices.
	Cards   []Option
	CardErr string
}
