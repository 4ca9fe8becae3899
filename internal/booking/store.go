package booking

import (
	"context"
	"time"
)

// Store is the port every storage adapter implements. Each method that
// changes more than one record is one atomic step: all of it happens or none
// of it does, also when several boxoffice processes share the database. The
// adapters decide by calling this package's rules (DecideHold,
// DecideSettlement, …) inside their transaction; the seat rule is the one
// rule they also express in their queries, and the conformance suite in
// storetest proves both agree.
//
// Not-found conditions are reported with this package's sentinels
// (ErrShowNotFound, ErrHoldNotFound, …), never as zero values.
type Store interface {
	// Transactor runs the atomic steps written once in this package
	// (HoldSeatsStep, ReleaseHoldStep, ExtendHoldStep, CreateShowStep,
	// DeleteShowStep, CancelShowSteps, AdmitTicketStep, CreateAdminStep,
	// UpdateAdminStep, DeleteAdminStep, …).
	Transactor

	// CountShows counts all shows, past ones too (an empty database gets the
	// demo catalog).
	CountShows(ctx context.Context) (int, error)
	// UpcomingShows lists up to limit shows starting at or after from, soonest
	// first, with seats left: those available online at m.
	UpcomingShows(ctx context.Context, from time.Time, limit int, m Moment) ([]ShowSummary, error)
	// Show returns one show.
	Show(ctx context.Context, showID string) (Show, error)
	// Seats returns the seats of a show in map order (by GridRow, GridCol, then seat id) as
	// stored: status is what was written, the caller applies the seat rule.
	Seats(ctx context.Context, showID string) ([]Seat, error)
	// ShowSeats reads at one moment what a seat map shows: show showID,
	// its seats as Seats returns them, and owner's active hold for it as
	// ActiveHold finds it (nil when there is none, or owner is ""). The
	// three come from one read transaction or snapshot, so that they agree:
	// a write committed while they are read changes all of them or none.
	ShowSeats(ctx context.Context, showID, owner string) (ShowSeats, error)
	// AvailableSeatIDs lists, in map order, the seats of a show that the
	// store's own query finds available online at m (the seat rule and no
	// reserve: SeatIsAvailableOnline).
	AvailableSeatIDs(ctx context.Context, showID string, m Moment) ([]string, error)
	// Occupancy counts a show's seats at m in the database.
	Occupancy(ctx context.Context, showID string, m Moment) (Occupancy, error)

	// Hold returns a hold by id, whoever owns it.
	Hold(ctx context.Context, holdID string) (Hold, error)
	// ActiveHold returns owner's active hold for a show. One that has
	// expired may be returned, or, once another session has taken every
	// seat it had, not found.
	ActiveHold(ctx context.Context, showID, owner string) (Hold, error)
	// Payment returns a payment by id.
	Payment(ctx context.Context, paymentID string) (Payment, error)
	// PendingTickets are the tickets of hold holdID's latest pending
	// payment that was not replaced (SPEC §15: the choice checkout shows
	// first), with a read only; none when it has none.
	PendingTickets(ctx context.Context, holdID string) ([]SeatTicket, error)
	// CheckoutReader: the candidates of EndedCheckouts.
	CheckoutReader
	// Booking returns a booking by id.
	Booking(ctx context.Context, bookingID string) (Booking, error)
	// BookingByTicketCode returns the booking with a normalized ticket code
	// (see NormalizeTicketCode).
	BookingByTicketCode(ctx context.Context, code string) (Booking, error)

	// SigningKey returns the secret key stored under name, storing fresh
	// first when there is none: every process on the database gets the
	// same key, however many start at once.
	SigningKey(ctx context.Context, name string, fresh []byte) ([]byte, error)

	// Ping reports whether the database answers.
	Ping(ctx context.Context) error
	Close() error

	AdminStore
	CatalogStore
	TypesStore
	MailStore
	CallbackOutboxStore
	PruneStore
	OnSaleStore
	CounterStore
	FilmReportReader
	SalesReportReader
}

// ShowSeats is a show with its seats and a viewer's hold, read at one
// moment (Store.ShowSeats).
type ShowSeats struct {
	Show  Show
	Seats []Seat
	Hold  *Hold // the viewer's active hold, possibly expired; nil for none
}

// OnSaleStore is the on-sales and their queues (SPEC §18) as read outside
// a step, and the queue's join, which is one insert and no step.
type OnSaleStore interface {
	// OnSale returns one on-sale with its shows and segments.
	OnSale(ctx context.Context, id string) (OnSale, error)
	// ListOnSales lists every on-sale, the latest opening first.
	ListOnSales(ctx context.Context) ([]OnSale, error)
	// OpenOnSales lists the on-sales open at now (ClosesAt after it),
	// with their shows and segments, in one query.
	OpenOnSales(ctx context.Context, now time.Time) ([]OnSale, error)
	// JoinQueue stores e, one row and nothing else.
	JoinQueue(ctx context.Context, e QueueEntry) error
	// QueuePosition is the position, from 0, that NumberQueueStep gave
	// the entry joinID of on-sale onSaleID's queue: one point read; false
	// while it has none yet (or there is no such entry).
	QueuePosition(ctx context.Context, onSaleID, joinID string) (int, bool, error)
	// CountQueue counts the entries of an on-sale's queue.
	CountQueue(ctx context.Context, onSaleID string) (int, error)
}

// PruneStore deletes history older than RETENTION (SPEC §12): expired
// sessions, ended holds nothing refers to, callback records, payment events,
// sent or given-up mail, and on-sales closed before the cutoff with their
// queues. Anything a payment or booking refers to stays,
// and event ids stay at least RETENTION, so that a late duplicate is still
// recognised.
type PruneStore interface {
	// Prune deletes up to limit rows (documents) of history from before
	// before, in steps small enough to hold the database's write lock for
	// a few milliseconds at most, and returns how many it deleted; callers
	// repeat while it deletes limit.
	Prune(ctx context.Context, before time.Time, limit int) (int, error)
}

// MailStore is the outbox (SPEC §11). Every step that changes a booking's
// state also queues the Mail that MailFor says the change sends, in the
// same transaction (QueueMailIn); the outbox's steps (QueueMailStep,
// ClaimMailStep, MailSentStep, MailFailedStep) send it. These are its
// reads outside a step.
type MailStore interface {
	// MailDue reports whether any mail is due at now (Mail.Due), with a
	// read only, so that an idle outbox costs no write.
	MailDue(ctx context.Context, now time.Time) (bool, error)
	// Mail returns one mail.
	Mail(ctx context.Context, id string) (Mail, error)
}

// CallbackOutboxStore is the sandbox's callback outbox (SPEC §6) as read
// outside a step; QueueCallbackStep, ClaimCallbacksStep and
// CallbackAttemptedStep write it.
type CallbackOutboxStore interface {
	// CallbacksDue reports whether any callback is due at now
	// (OutboundCallback.Due), with a read only.
	CallbacksDue(ctx context.Context, now time.Time) (bool, error)
	// OutboundCallback returns payment paymentID's callback: the outcome
	// chosen on its sandbox checkout page; ErrCallbackNotFound when none
	// was.
	OutboundCallback(ctx context.Context, paymentID string) (OutboundCallback, error)
}

// CatalogStore is what admins manage a cinema with (SPEC §10), as read
// outside a step: theatres, their screens and seat layouts, movies. Saving
// and deleting them are steps (SaveTheatreStep, DeleteTheatreStep, …, in
// catalog_step.go).
type CatalogStore interface {
	// Theatre returns one theatre.
	Theatre(ctx context.Context, id string) (Theatre, error)
	// ListTheatres lists the theatres, by name.
	ListTheatres(ctx context.Context) ([]Theatre, error)

	// Screen returns one screen.
	Screen(ctx context.Context, id string) (Screen, error)
	// ListScreens lists a theatre's screens, by name.
	ListScreens(ctx context.Context, theatreID string) ([]Screen, error)

	// Movie returns one movie.
	Movie(ctx context.Context, id string) (Movie, error)
	// ListMovies lists the movies, by title.
	ListMovies(ctx context.Context) ([]Movie, error)
}

// TypesStore is ticket types, price cards and shows' price tables (SPEC
// §15) as read outside a step, for the admin pages; each read is of one
// snapshot. Saving them are steps (tickettype_step.go).
type TypesStore interface {
	// TicketTypes are the theatre's stored types in order; none is an
	// empty list (TypesOf makes it the implicit standard).
	TicketTypes(ctx context.Context, theatreID string) ([]TicketType, error)
	// PriceCards are the theatre's price cards, by name, with their cells.
	PriceCards(ctx context.Context, theatreID string) ([]PriceCard, error)
	// PriceCard is one card with its cells: ErrPriceCardNotFound.
	PriceCard(ctx context.Context, id string) (PriceCard, error)
	// ShowPricing is the show's seats in map order, its stored price
	// table (empty when it has none) and its theatre's types, read at one
	// moment: ErrShowNotFound.
	ShowPricing(ctx context.Context, showID string) (seats []Seat, stored ShowPrices, theatreTypes []TicketType, err error)
	// SeatPricing is what prices the show's seats seatIDs outside a step
	// (the checkout, the provider's line items, the box office's sale
	// form): those of them the show has, in map order, each with its id,
	// place (GridRow, GridCol), category and price only, and the show's
	// stored price table (empty when it has none), read at one moment
	// without reading the show's other seats: ErrShowNotFound.
	SeatPricing(ctx context.Context, showID string, seatIDs []string) (seats []Seat, stored ShowPrices, err error)
}

// AdminStore is the part of the store port the admin pages use: accounts,
// the occupancy overview, refunds and the callback log. Every Store has it,
// so both adapters are held to it by the same conformance suite.
type AdminStore interface {
	// ListAdmins lists the accounts by email.
	ListAdmins(ctx context.Context) ([]Admin, error)
	// AdminByEmail returns the admin with a normalized email.
	AdminByEmail(ctx context.Context, email string) (Admin, error)
	// AdminByID returns the admin with id.
	AdminByID(ctx context.Context, id string) (Admin, error)

	// ListOccupancy lists the shows f selects, soonest first (latest first
	// with f.Newest), f.Offset skipped and at most f.Limit, each with its
	// seats counted by the seat rule at m, its revenue and refunds due, all
	// computed by the database in one query: no seat is loaded into Go.
	ListOccupancy(ctx context.Context, f ShowFilter, m Moment) ([]ShowOccupancy, error)
	// Theatres lists the theatres that have shows, by name.
	Theatres(ctx context.Context) ([]Theatre, error)
	// ShowBookings lists a show's bookings, oldest first, in every state.
	ShowBookings(ctx context.Context, showID string) ([]Booking, error)
	// RefundQueue lists the refund_due bookings of every show, the one
	// waiting longest first (updated_at, then id), offset skipped and at
	// most limit of them (0: all), by an index on refund_due bookings
	// alone.
	RefundQueue(ctx context.Context, limit, offset int) ([]Booking, error)

	// RecordCallback stores one received payment callback.
	RecordCallback(ctx context.Context, r CallbackRecord) error
	// Callbacks lists the records q selects, oldest first.
	Callbacks(ctx context.Context, q CallbackQuery) ([]CallbackRecord, error)
}

// PaymentStart is what a new payment and its booking get: fresh ids, the
// key of the booking's link, and the address its tickets are mailed to.
type PaymentStart struct {
	PaymentID string
	BookingID string
	Key       string // see NewBookingKey
	Email     string // validated by ValidateEmail
	// Types is the buyer's choice of ticket types (SPEC §15).
	Types TypeChoice
	// Provider is the name of the provider the payment is made through
	// (Payments.Name), recorded with it: a payment keeps it however the
	// process is configured later.
	Provider string
	// Lang is the language of the Pay (SPEC §19), kept on the booking.
	Lang string
}

// NewPayment builds the pending payment and booking for hold h, selling
// its seats as tickets (PriceTickets): their sum is the amount; the
// payment is ids.Provider's.
func NewPayment(h Hold, ids PaymentStart, tickets []SeatTicket, now time.Time) (Payment, Booking) {
	amount := TicketsAmount(tickets)
	p := Payment{
		ID: ids.PaymentID, HoldID: h.ID, BookingID: ids.BookingID, Owner: h.Owner,
		Amount: amount, Currency: h.Currency, State: PaymentPending, CreatedAt: now, Tickets: tickets,
		Provider: ids.Provider,
	}
	b := Booking{
		ID: ids.BookingID, HoldID: h.ID, PaymentID: ids.PaymentID, Owner: h.Owner,
		ShowID: h.ShowID, SeatIDs: h.SeatIDs, Amount: amount, Currency: h.Currency,
		State: BookingPending, CreatedAt: now, UpdatedAt: now, Email: ids.Email, Key: ids.Key, Tickets: tickets,
		Channel: ChannelOnline, Lang: ids.Lang,
	}
	return p, b
}

// Apply returns b as it is after settlement s, at now.
func (s Settlement) Apply(b Booking, ticketCode string, now time.Time) Booking {
	switch s.Effect {
	case EffectBooked:
		// A booking failed as replaced (its payment's success arrived
		// late, SPEC §15) is confirmed without the reason it failed with.
		b.State, b.TicketCode, b.Reason, b.ConfirmedAt = BookingConfirmed, ticketCode, "", now
	case EffectRefundDue:
		b.State, b.Reason = BookingRefundDue, s.Reason
	case EffectReleased:
		b.State, b.Reason = BookingFailed, s.Reason
	default:
		return b
	}
	b.UpdatedAt = now
	return b
}

// PaymentStateAfter is the payment's state once ev has been applied with
// effect e.
func PaymentStateAfter(p Payment, ev PaymentEvent, e Effect) PaymentState {
	if e == EffectIgnored || e == EffectCheckoutEnded {
		return p.State
	}
	if ev.Type == EventPaymentSucceeded {
		return PaymentSucceeded
	}
	return PaymentFailed
}

// HoldStateAfter is the hold's state once a payment event had effect e.
func HoldStateAfter(h Hold, e Effect) HoldState {
	switch e {
	case EffectBooked, EffectRefundDue:
		return HoldCompleted
	case EffectReleased:
		if h.State == HoldActive {
			return HoldReleased
		}
	}
	return h.State
}
