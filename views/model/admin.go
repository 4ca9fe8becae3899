package model

import "boxoffice/internal/booking"

// AdminPage is what every admin page needs: the page, and who is signed in
// with the form that signs them out.
type AdminPage struct {
	Page
	Email        string
	LogoutAction string
	Admin        bool // the account is an admin, not staff: the bar links every admin page
}

// AdminLogin is the sign-in form.
type AdminLogin struct {
	Page
	Action string
	Email  string // as typed, kept after a failure
	Notice *Notice
}

// AdminOverview is GET /admin: every show the filter selects with its
// occupancy.
type AdminOverview struct {
	AdminPage
	Heading   string // which shows: "Today's and upcoming shows"
	Date      string // the date filter, YYYY-MM-DD, "" for all dates
	TheatreID string
	Theatres  []AdminTheatre
	When      []Option // today and upcoming, past, all
	Groups    []AdminTheatreGroup
	Page      int    // from 1
	PrevURL   string // the page before, "" on the first
	NextURL   string // the page after, "" on the last
}

// AdminTheatreGroup is one theatre's shows on a page of the overview.
type AdminTheatreGroup struct {
	ID    string
	Name  string
	Label string // name, city
	Shows []AdminShowRow
}

// AdminTheatre is an option of the theatre filter.
type AdminTheatre struct {
	ID       string
	Label    string
	Selected bool
}

// AdminShowRow is one show of the overview.
type AdminShowRow struct {
	Show       Show
	URL        string // its admin page
	Counts     AdminCounts
	Revenue    string
	RefundsDue int
}

// AdminCounts are a show's seats by the seat rule, and the occupancy bar's
// geometry: widths in a 100-unit-wide SVG, as attribute values (no inline
// style: the CSP forbids it).
type AdminCounts struct {
	// Available is available online; Reserved is house or blocked and
	// not booked (SPEC §16): Booked+Held+Available+Reserved = Total.
	Total, Booked, Held, Available int
	Reserved                       int
	Percent                        int
	BookedWidth, HeldX, HeldWidth  string
	Label                          string // "62% full: 300 booked, 10 held of 500"
	// OffSale, on a cancelled show only, counts its seats no longer for
	// sale and not booked: Booked+Held+Available+Reserved+OffSale = Total.
	OffSale   int
	Cancelled bool
}

// CancelledSales is what a cancelled show had sold, and where each
// booking's money stands (SPEC §10).
type CancelledSales struct {
	Seats, Bookings  int // sold before the cancellation
	Due, Refunded    int // bookings
	AdmittedBookings int
}

// AdminShow is GET /admin/shows/{showID}.
type AdminShow struct {
	AdminPage
	Show   Show
	Counts AdminCounts
	TTL    string
	// Map is the show's seats as the moviegoer's map draws them, in
	// admin mode.
	Map         SeatMap
	Bookings    []AdminBooking
	RefundQueue []AdminBooking
	Callbacks   []AdminCallback
	CSVURL      string
	Notice      *Notice
	// CancelURL is where "Cancel this show" posts; empty once cancelled.
	CancelURL string
	// Confirmed counts the bookings a cancellation would refund.
	Confirmed int
	// Door counts the seats admitted at the door, of those booked.
	Door booking.DoorCount
	// Opening is the show's sales opening and the form that sets it.
	Opening SalesOpening
	// Prices is the show's price table and the form that edits it.
	Prices *AdminShowPrices
	// ReserveAction is where the seat map's form posts a reserve (SPEC
	// §16); Conflicts are the seats a refused reserve named.
	ReserveAction string
	Conflicts     []string
	// Cutoff is the show's online cut-off and its form.
	Cutoff OnlineCutoff
	// Sold is, on a cancelled show, what it had sold; nil otherwise.
	Sold *CancelledSales
}

// OnlineCutoff is a show's online cut-off on its admin page (SPEC §16).
type OnlineCutoff struct {
	Seats  int  // 0: none
	Closed bool // online sales have stopped at it now
	Action string
	Field  Field
}

// SalesOpening is a show's sales opening on its admin page (SPEC §10).
type SalesOpening struct {
	At      string // RFC 3339, "" for none
	Text    string // when, in the theatre's zone, for people
	Pending bool   // it is still to come: nothing is sold online before it
	// Action is where the form posts; "" when the admin cannot set it
	// here (a cancelled show, or one an open on-sale covers).
	Action string
	Field  Field  // the datetime-local input, in the theatre's zone
	Zone   string // the zone the input is read in
	// OnSale and OnSaleURL name the open on-sale that sets the opening.
	OnSale, OnSaleURL string
}

// AdminBooking is a booking as an admin sees it.
type AdminBooking struct {
	ID           string
	Short        string
	State        string
	Seats        string
	Tickets      []BookingSeat // each seat with its type and price (SPEC §15)
	Total        string
	TicketCode   string
	Created      string
	Reason       string
	PaymentID    string
	PaymentURL   string
	Owner        string // visitor id prefix
	RefundPaid   string // "12 Mar 10:04 by ops@example.com", when refunded
	Admitted     string // "12 Mar 18:02 by door@example.com", once admitted at the door
	RefundAction string // POST target of the refund button, when still due
	RefundLabel  string // its words: "Refund through Stripe"
	// RefundedElsewhereAction records a refund made outside boxoffice.
	RefundedElsewhereAction string
	// CounterRefundURL is the box office's page of a box-office booking
	// still due a refund: it is refunded at the counter (SPEC §16).
	CounterRefundURL string
}

// AdminRefunds is the site's refund queue: a page of every show's
// refund_due bookings, the longest waiting first.
type AdminRefunds struct {
	AdminPage
	Notice  *Notice
	Items   []AdminRefundItem
	Page    int
	PrevURL string
	NextURL string
}

// AdminRefundItem is one booking of the refund queue with its show.
type AdminRefundItem struct {
	AdminBooking
	Show    Show
	ShowURL string
	Since   string // when it became due (its last change), in words
	Channel string // online or box_office
}

// AdminCallback is one received payment callback.
type AdminCallback struct {
	At         string
	Signature  string
	EventID    string
	EventType  string
	PaymentID  string
	PaymentURL string
	Status     int
	Outcome    string
	Duplicate  bool
	Reason     string
}

// AdminPayment is GET /admin/payments/{paymentID}: the payment, its booking
// and every callback that named it, with a one-line answer on top.
type AdminPayment struct {
	AdminPage
	PaymentID string
	Found     bool
	State     string
	Total     string
	Created   string
	// CheckoutRef and ChargeRef are the provider's ids of the checkout and
	// of the money taken, to find them in its dashboard.
	CheckoutRef string
	ChargeRef   string
	Verdict     string // what happened, in one sentence
	Show        *Show
	ShowURL     string
	Booking     *AdminBooking
	Callbacks   []AdminCallback
}

// AdminAccounts lists the accounts with a form to add one.
type AdminAccounts struct {
	AdminPage
	Notice   *Notice
	Accounts []AdminAccountRow
	New      AccountForm
}

// AdminAccountRow is one account in the list.
type AdminAccountRow struct {
	Email, Role, RoleLabel, URL, Since string
	You                                bool // the account signed in here
}

// AccountForm adds or changes an account: an email (new accounts only), a
// password (optional when changing), a role.
type AccountForm struct {
	Action   string
	Email    Field // Name "" when the account exists
	Password Field
	Role     Field
	Roles    []Option
	Submit   string
}

// AdminAccount is one account's page: change its role or password, or
// delete it.
type AdminAccount struct {
	AdminPage
	Notice       *Notice
	Email        string
	You          bool
	Form         AccountForm
	DeleteAction string // "" for the account signed in here
}

// Door is the check-in page: which show is being admitted, the code form,
// and the answer about the last code.
type Door struct {
	AdminPage
	Shows  []Option // the shows the door admits to now, and "any show"
	ShowID string   // the chosen show, "" for any
	// ShowNote warns that the chosen show is not at the door now (it was
	// chosen by its address): its tickets are admitted without a warning.
	ShowNote string
	Code     string // as typed, kept after a refusal
	CodeErr  string
	Result   *DoorResult
	Count    booking.DoorCount // seats of the chosen show admitted, of those booked
	Counted  bool              // a show is chosen, so Count is its
}

// DoorResult is the answer about one ticket code: SPEC §11's data-checkin.
type DoorResult struct {
	Checkin    string // valid, admitted, already, refused
	Reason     string // data-reason when refused
	AdmittedAt string // RFC 3339 with milliseconds, when already
	Code       string
	Headline   string
	Detail     string
	Show       string        // the ticket's show, in words
	Seats      string        // how many seats, in words ("2 seats:")
	SeatIDs    []string      // data-seat-id each
	Tickets    []BookingSeat // the seats with their types, in SeatIDs' order
	// DoorCheck says that a seat's type asks staff to check the holder
	// (data-door-check="true", on an admitted or valid answer), and
	// DoorCheckText what to check: the types and their notes.
	DoorCheck     bool
	DoorCheckText string
	// AdmitForm offers Admit: for a looked-up valid ticket, and (with
	// Confirm, confirm=1) for one refused not_today. It posts AdmitShow,
	// the show the answer was checked against ("" for any).
	AdmitForm bool
	AdmitShow string
	Confirm   bool
	// ConfirmText says what "Admit anyway" does, next to it.
	ConfirmText string
}

// Tone is the colour class of the answer: go, stop or look again.
func (r DoorResult) Tone() string {
	switch r.Checkin {
	case "admitted", "valid":
		return "door-go"
	case "already":
		return "door-again"
	}
	return "door-stop"
}
