// Package model holds the view models the templates render: plain values
// already formatted for people, so that views never reach a store and web
// decides once how a seat, a price or a time is shown.
package model

// Page is what every full page needs besides its own content.
type Page struct {
	Title     string
	CSRFToken string
	Static    string // URL prefix of the content-hashed assets, "/static/<hash>"
	// Sandbox says payments go through the sandbox provider: the layout
	// tells everyone that no real money moves.
	Sandbox bool
	// Refresh, when above 0, reloads the page after that many seconds
	// without JavaScript (a meta refresh inside noscript).
	Refresh int
	// Lang is the page's language, <html lang>: "en", "hi" or "ta".
	Lang string
	// Langs is the language switcher, on translated pages only.
	Langs []LangLink
}

// LangLink is one language of the switcher: the same page in that language.
type LangLink struct {
	Code    string // "hi", its hreflang
	Name    string // "हिन्दी", in the language itself
	URL     string
	Current bool
}

// HTMLLang is <html lang>: English unless the page says otherwise.
func (p Page) HTMLLang() string {
	if p.Lang == "" {
		return "en"
	}
	return p.Lang
}

// Asset is the versioned URL of a file under static/, e.g. "css/app.css".
func (p Page) Asset(path string) string { return p.Static + "/" + path }

// HTMXConfig is htmx's configuration, read from a meta tag so that no inline
// script is needed: no injected indicator styles and no eval (both would need
// CSP exceptions); 409 and 422 answers carry a seat map to swap in; 304 keeps
// what is on screen; other errors go to the flash area.
const HTMXConfig = `{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,` +
	`"historyRestoreAsHxRequest":false,"responseHandling":[` +
	`{"code":"204","swap":false},{"code":"304","swap":false},{"code":"[23]..","swap":true},` +
	`{"code":"409","swap":true},{"code":"422","swap":true},` +
	`{"code":"[45]..","swap":true,"error":true,"target":"#flash","swapOverride":"innerHTML","select":"unset"}]}`

// Notice is a message shown above the content it is about.
type Notice struct {
	Kind string // "error", "info"
	Text string
}

// Show describes a screening for headers and summaries.
type Show struct {
	ID       string
	URL      string // its seat map
	Title    string
	Rating   string
	Language string
	Runtime  string // "2h 28m"
	Theatre  string
	City     string
	Screen   string
	Date     string // "Fri 14 Mar"
	Time     string // "19:30"
	Zone     string // "GMT": the theatre's zone, when it is not the server's
	StartsAt string // RFC 3339
	State    string // data-show-state: "scheduled" or "cancelled"
}

// Cancelled reports whether the show was cancelled.
func (s Show) Cancelled() bool { return s.State == "cancelled" }

// When is the show's date and time, with its zone when that is not the
// server's: "Fri 14 Mar 19:30 GMT".
func (s Show) When() string {
	w := s.Date + " " + s.Time
	if s.Zone != "" {
		w += " " + s.Zone
	}
	return w
}

// SeatMap is the seat map page and its fragment.
type SeatMap struct {
	Page
	Show        Show
	FormAction  string // POST target of the hold form
	FragmentURL string // GET target of the live refresh
	ETag        string
	MaxSeats    int
	Currency    string
	Notice      *Notice
	Bands       []Band
	Categories  []Category
	MyHold      *HoldLink // the viewer's active hold for the show
	// OnSale is whether seats can be held now (data-on-sale); when not,
	// ClosedReason says why.
	OnSale bool
	// OpensAt is the show's sales opening (RFC 3339, data-opens-at) while
	// it is still to come; "" otherwise.
	OpensAt      string
	ClosedReason string
	// ServerNow is the server's clock as the map was drawn (RFC 3339 with
	// milliseconds): seatmap.js frees held seats by it, not the device's clock.
	ServerNow string
	// Best is the best-available form: what it asked for last.
	Best BestForm
	// GapSeat is the seat a refused hold would have left alone
	// (data-gap-seat).
	GapSeat string
	// PayingURL is the checkout of the hold a refused hold found being
	// paid for (data-paying-hold), where Pay and Back are.
	PayingURL string
	// List draws the seats as a list of checkboxes grouped by band and row
	// instead of the map: the alternative for screen readers (SPEC §13).
	// ListURL and MapURL switch between the two.
	List            bool
	ListURL, MapURL string
	// Wheelchair and Companion say the map has such seats, for the legend.
	Wheelchair, Companion bool
	// Unavailable says that some seat is kept from online sale (SPEC
	// §16): the legend names the state.
	Unavailable bool
	// NoneFree says that no seat can be chosen: the map's scrolling box is
	// then a tab stop of its own, so the keyboard can still scroll it.
	NoneFree bool
	// Grid, when set, is the seat grid already drawn (partials.SeatGrid's
	// HTML, kept by the server for viewers without a hold or a choice of
	// their own), and Bands is empty.
	Grid string
	// Chosen are the seats drawn ticked, and ChosenTotal their total in
	// the show's currency: the hold bar shows them without JavaScript.
	Chosen      []string
	ChosenTotal string
	// Mode is how the grid is drawn: "" for a moviegoer's map, "admin"
	// for the admin's show map (every seat a checkbox for a reserve, in
	// the seat rule's state with its reserve), "preview" for a layout
	// before it has shows (no checkboxes, no prices).
	Mode string
	// Answer is a message for the page's #seatmap-answer, outside the
	// map that refreshes itself: that Back released the hold.
	Answer *Notice
}

// BestForm asks for the best seats for a party: a GET of the seat map
// with ?best=N&category=NAME&wheelchair=1.
type BestForm struct {
	Action     string
	Party      int // 0: not asked
	Parties    []int
	Category   string
	Wheelchair bool
	Error      string
	// Suggested says a block was found and ticked: the page then offers
	// to hold the best seats in one step (SPEC §18), posting the same
	// request to HoldAction with CSRFToken.
	Suggested  bool
	HoldAction string
	CSRFToken  string
}

// HoldLink points the viewer back to a hold they already have.
type HoldLink struct {
	URL   string
	Seats string // "F12, F13"
}

// Category is a price band in the legend.
type Category struct {
	Name  string
	Price string
}

// Band is a run of rows sold at one price, drawn with its name and price.
type Band struct {
	Name       string
	Price      string
	PriceMinor int64 // data-price of its seats, for the running total
	Rows       []Row
}

// Row is one line of the map. Cells are seats and gaps: a gap is an aisle or a
// missing seat, so columns line up from row to row.
type Row struct {
	Label string
	Cells []Cell
	Free  int // seats the viewer can choose: available, or their own
}

// Cell is a seat, or a gap when Seat is nil.
type Cell struct {
	Seat *Seat
}

// Seat is one seat as this viewer sees it.
type Seat struct {
	ID        string
	Number    string
	State     string // available, held, booked, mine
	Kind      string // wheelchair, companion; "" for a standard seat
	Category  string
	Price     int64  // minor units, for the running total
	OwnPrice  bool   // Price is not its band's, so the seat says it (data-price)
	PriceText string // "₹250"
	ExpiresAt string // RFC 3339, when a held (or mine) seat's lock lapses
	What      string // "wheelchair space", "companion seat", "" for a standard seat
	Name      string // "Row F, seat 12, Prime, ₹250, available": its accessible name
	Status    string // "available", "held · may free at 19:42", …
	Checked   bool
	Disabled  bool
	Conflict  bool // requested but just taken by someone else
	Suggested bool // chosen by best available (data-suggested)
	// Reserve (admin map only) is house or blocked (data-reserve), and
	// Note who holds or booked the seat, for its title.
	Reserve string
	Note    string
}

// Checkout is a hold on its way to payment.
type Checkout struct {
	Page
	Show          Show
	HoldID        string
	Seats         []CheckoutSeat
	Amount        int64  // minor units
	Total         string // "₹500"
	ExpiresAt     string // RFC 3339
	Remaining     string // "14:59" at render time
	ReleaseAction string
	PayAction     string
	SeatMapURL    string
	Gone          string // why this hold can no longer be paid for; empty when it can
	ServerNow     string // the server's clock at render (RFC 3339, ms): the countdown runs by it
	Email         string // the address for the tickets, as last given
	EmailErr      string // what is wrong with it, after a refused Pay
	// ExtendAction is where "More time" posts, while the hold has
	// extensions left ("" when not); Extended says it just got some.
	ExtendAction   string
	ExtensionsLeft int
	Extended       bool
	// BookingURL is the booking a completed hold's payment made, for a
	// link labelled BookingLabel; "" for other holds.
	BookingURL   string
	BookingLabel string
	// TotalURL answers the total of a choice of types (htmx, GET);
	// UpdateAction re-renders the checkout with it (the "Update total"
	// button, without JavaScript).
	TotalURL     string
	UpdateAction string
	// TypeErr is why Pay refused the choice of types, naming the seat
	// (TypeErrSeat, data-error-seat) or the rule (TypeErrRule, data-rule).
	TypeErr     string
	TypeErrSeat string
	TypeErrRule string
}

// CheckoutSeat is one line of the checkout summary, with the ticket types
// its category offers online.
type CheckoutSeat struct {
	ID       string
	Category string
	Price    string
	Field    string // type_<ID>
	Types    []TypeOption
	Invalid  bool // the seat Pay refused the type of
}

// TypeOption is a ticket type offered for a seat at checkout.
type TypeOption struct {
	ID       string
	Name     string
	Note     string
	Price    string // "₹90"
	PriceRaw string // minor units (data-price)
	Selected bool
}

// Home is the listing (SPEC §20 "listing"): one date's films in the
// chosen city (or every city), each with its theatres and their showtimes,
// under a strip of dates.
type Home struct {
	Page
	// City is the chosen city, "" for every city; Cities are those with
	// shows listed, to choose from.
	City   string
	Cities []string
	// Notice says why the page shows something other than what was asked
	// (a city without shows, a date out of the strip).
	Notice string
	// Dates is the date strip; DateLabel names the date shown ("Today,
	// Wed 2 Dec").
	Dates     []DateTab
	DateLabel string
	Movies    []Movie
}

// DateTab is one date of the strip, a link to its listing.
type DateTab struct {
	Date    string // YYYY-MM-DD, ?date=
	Day     string // "Today", "Tomorrow", "Thu"
	Short   string // "3 Dec"
	URL     string
	Current bool // the date shown (aria-current="date")
	Empty   bool // no show listed on it
}

// Movie is a film's showtimes on the listing's date, by theatre.
type Movie struct {
	ID       string
	Title    string
	Rating   string
	Language string
	Runtime  string
	Theatres []TheatreShows
}

// TheatreShows are one theatre's times on the listing's date.
type TheatreShows struct {
	Theatre string
	City    string
	Shows   []ShowTime
}

// ShowTime is one entry of the listing.
type ShowTime struct {
	ID         string
	URL        string
	Time       string
	Zone       string // the theatre's zone, when it is not the server's or the page lists several
	Screen     string
	PriceRange string // "₹150–₹350"
	// Availability is data-availability: "sold-out" (no seat available
	// online), "few" (at most 10 % of its seats), else "".
	Availability string
	// OpensAt (RFC 3339) and Opens (for people, in the theatre's zone)
	// are its sales opening while it is still to come, else "".
	OpensAt, Opens string
}

// SoldOut says nothing is left to sell online: the showtime says so (its
// link still leads to the seat map, where a held seat may free again).
func (s ShowTime) SoldOut() bool { return s.Availability == "sold-out" }

// Error is what a person sees when something did not work.
type Error struct {
	Page
	Status    int
	Heading   string
	Message   string
	Next      string // what to do next
	NextURL   string
	NextLabel string
	RequestID string
}

// Booking is a booking as its owner follows it after Pay: pending until the
// provider's callback lands, then confirmed, failed or refund_due.
type Booking struct {
	Page
	ID         string
	URL        string // the booking's page
	State      string // pending, confirmed, failed, refund_due (SPEC §5)
	StatusURL  string // the fragment the page polls while pending
	PollEvery  string // how often a pending booking polls ("1s"); "" not at all
	PollSlow   bool   // pending for so long that the provider is asked (booking.StuckAfter): say so
	ETag       string // names the fragment's content, for conditional polls
	Show       Show
	Seats      string // "A1, A2"
	SeatCount  int
	Tickets    []BookingSeat // each seat with its type and price (SPEC §15)
	Total      string        // "₹360"
	Amount     int64         // minor units
	TicketCode string        // when confirmed
	QR         *QR           // the ticket code, when confirmed
	Reason     string        // why it failed or is due a refund, for people
	SeatMapURL string
	Email      string // where its mails go
	Link       string // the booking link (absolute, with its key); "" for old bookings
	PrintURL   string // its printable tickets, with the key when opened by key
	// Cancelled is set when the booking's show was cancelled and its
	// money is due back or was returned (SPEC §10): the page says so,
	// what becomes of the money, and offers OtherShows instead of the
	// cancelled show's map.
	Cancelled *Cancellation
}

// Cancellation is what a booking of a cancelled show tells its buyer.
type Cancellation struct {
	Refund     string // "refunded" (made) or "due" (coming)
	RefundedOn string // when the refund was made, in the theatre's zone
	AtCounter  bool   // sold at the box office: refunded at its counter
	OtherShows []ShowLink
}

// ShowLink is one show offered by a link: its map, its time and where.
type ShowLink struct {
	ID    string
	URL   string
	Text  string // "Sat 15 Mar, 18:30 IST · Lalbagh Cinemas, Bengaluru"
	Start string // RFC 3339
}

// BookingSeat is one seat of a booking as sold: data-seat-id,
// data-ticket-type, data-price.
type BookingSeat struct {
	ID       string
	Type     string // the type's id
	TypeName string
	Note     string
	Price    string // "₹90"
	PriceRaw string // minor units
}

// Pending reports whether the booking still waits for the provider.
func (b Booking) Pending() bool { return b.State == "pending" }

// QR is a QR code to draw as SVG, one unit per module: each run of dark
// modules in a row is one rectangle, which keeps the markup small.
type QR struct {
	Size int // modules per side, quiet zone included
	Runs []QRRun
}

// QRRun is W dark modules from (X, Y) rightwards.
type QRRun struct {
	X, Y, W int
}

// FindBooking is "find my booking": an email address and a ticket code,
// and after a search the one answer it gets.
type FindBooking struct {
	Page
	Action string
	Email  string
	Code   string
	Sent   string
}
