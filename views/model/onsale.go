package model

// Queue is the waiting room of an on-sale (SPEC §18): GET /queue/{id}.
type Queue struct {
	Page
	Live QueueLive
}

// QueueLive is the queue page's live region, which refreshes itself.
type QueueLive struct {
	OnSaleID string
	Name     string
	// State is data-queue-state: before, open, waiting, admitted, closed.
	State string
	// Position is data-position (from 0) when HasPosition.
	Position    int
	HasPosition bool
	Ahead       int
	// ETASeconds is data-eta-seconds when HasETA (none while paused).
	ETASeconds int
	HasETA     bool
	ETAText    string // "about 3 minutes"
	Paused     bool
	OpensAt    string // T0 for people, in the shows' zone
	OpensAtISO string // RFC 3339
	GateOpens  string // when the queue opens, for people
	// JoinAction is the Join form's action, with CSRFToken.
	JoinAction string
	CSRFToken  string
	Rejoin     bool // the visitor's pass lifetime passed: join again at the back
	// Counting: waiting after T0 for the place to be counted (the joins
	// before it may still be on their way), in a few seconds.
	Counting bool
	Shows    []QueueShow
	// RefreshURL is what the region asks for again after RefreshDelay
	// seconds (20 with jitter); "" when it need not.
	RefreshURL   string
	RefreshDelay int
	Notice       *Notice
}

// QueueShow is a show an admitted visitor may go on to.
type QueueShow struct {
	ID, Title, When, Theatre, URL string
}

// AdminOnSales is GET /admin/onsales: the on-sales and the form that
// creates one.
type AdminOnSales struct {
	AdminPage
	OnSales []AdminOnSaleRow
	Form    OnSaleForm
	Notice  *Notice
}

// AdminOnSaleRow is one on-sale of the list.
type AdminOnSaleRow struct {
	ID, Name, URL, OpensAt, ClosesAt, State string
	Shows                                   int
}

// OnSaleForm is the form of a new on-sale.
type OnSaleForm struct {
	Action                      string
	Name, OpensAt, ClosesAt     Field
	Rate, PassTTL               Field
	Movies                      []Option
	Shows                       []Option
	MovieErr, ShowErr, ZoneNote string
}

// AdminOnSale is GET /admin/onsales/{id}.
type AdminOnSale struct {
	AdminPage
	ID, Name, State, OpensAt, ClosesAt, PassTTL string
	QueueURL                                    string
	Rate                                        int
	Paused                                      bool
	Admitted, Joined                            int
	Shows                                       []QueueShow
	Segments                                    []AdminSegment
	Notice                                      *Notice
	PauseAction, ResumeAction, RateAction       string
	CloseAction, ExtendAction                   string
	RateField, ExtendField                      Field
	Closed                                      bool
}

// AdminSegment is one stretch of an on-sale's admission.
type AdminSegment struct {
	From, Rate string
	Paused     bool
}
