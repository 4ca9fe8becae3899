package model

// AdminTypes is a theatre's ticket types in order, each with its actions,
// and the form to add one (or, with Editing, to edit one).
type AdminTypes struct {
	AdminForm
	Theatre   string
	TheatreID string
	Types     []AdminType
	// Form is the add (or edit) form's fields: id (on add), name, note.
	DoorCheck, Accompanied, Online, BoxOffice bool
	SoldErr                                   string
	Editing                                   bool
	CardsURL                                  string
}

// AdminType is one type in the list.
type AdminType struct {
	ID, Name, Note              string
	Sold                        string // "online, box office"
	Flags                       string // "door check · accompanied"
	EditURL, MoveAction, Delete string
	First, Last                 bool
}

// AdminCards is a theatre's price cards.
type AdminCards struct {
	AdminPage
	Theatre, TheatreID, NewURL, TypesURL string
	Notice                               *Notice
	Cards                                []AdminCardLink
}

// AdminCardLink is one card in the list.
type AdminCardLink struct {
	ID, Name, URL, DeleteAction string
	Cells                       int
}

// PriceGrid is a table of seat categories × ticket types with a price
// input per cell (empty: not offered), and each problem beside its cell
// or its category.
type PriceGrid struct {
	Types []PriceGridType
	Rows  []PriceGridRow
}

// PriceGridType is a column: a ticket type.
type PriceGridType struct {
	ID, Name, Sold string
}

// PriceGridRow is a seat category and its cells, one per type.
type PriceGridRow struct {
	Category string
	Error    string
	Cells    []Field // Name is the input's name, Value the price as typed
}

// AdminCardForm is a price card's name and grid.
type AdminCardForm struct {
	AdminForm
	Theatre string
	Grid    PriceGrid
}

// AdminShowPrices is a show's own price table on its admin page.
type AdminShowPrices struct {
	Action string
	CSRF   string
	Grid   PriceGrid
	Notice *Notice
}
