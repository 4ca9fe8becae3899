package mongo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// migrateTimeout bounds Migrate when its context has no deadline.
const migrateTimeout = 10 * time.Minute

// Migrate creates the collections and their indexes, and makes the
// one-time conversions of stored documents and indexes (conversions). It is
// idempotent and safe to run from several processes at once. Open runs it.
// Building an index on a big existing collection can outlast clientTimeout,
// so when ctx has no deadline Migrate gives itself migrateTimeout instead (a
// context deadline takes precedence over the client's timeout).
func (s *Store) Migrate(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, migrateTimeout)
		defer cancel()
	}
	for _, name := range []string{colShows, colSeats, colHolds, colPayments, colBookings, colPaymentEvents, colSessions, colAdmins, colCallbacks,
		colTheatres, colScreens, colMovies, colMigrations, colMail, colAddressGuards, colDeletedShows, colOutbound, colKeys, colOnSales, colQueue, colTicketTypes, colPriceCards, colShowPrices} {
		err := s.db.CreateCollection(ctx, name)
		if err != nil && !hasCode(err, codeNamespaceExists) {
			return fmt.Errorf("mongo: migrate: create %s: %w", name, err)
		}
	}
	for _, set := range []map[string][]mongo.IndexModel{indexes(), pruneIndexes(), queueNumberIndexes()} {
		for name, models := range set {
			if _, err := s.col(name).Indexes().CreateMany(ctx, models); err != nil {
				return fmt.Errorf("mongo: migrate: indexes of %s: %w", name, err)
			}
		}
	}
	if err := s.migrateRateLimits(ctx); err != nil {
		return err
	}
	for _, c := range conversions {
		if err := s.convertOnce(ctx, c); err != nil {
			return fmt.Errorf("mongo: migrate: %s: %w", c.name, err)
		}
	}
	// SQLite's 0039_confirmed_at, run at every start: bookings an older
	// process confirms during a rolling deploy get their sale time too.
	if err := migrateConfirmedAt(ctx, s); err != nil {
		return fmt.Errorf("mongo: migrate: confirmed_at: %w", err)
	}
	// SQLite's 0040_booking_lang, at every start for the same reason.
	if err := migrateBookingLang(ctx, s); err != nil {
		return fmt.Errorf("mongo: migrate: lang: %w", err)
	}
	return s.dropRetiredIndexes(ctx)
}

// retiredIndexes are indexes that would refuse what boxoffice writes now,
// dropped at every Migrate after the conversions rather than once: a
// process of an older release (a rolling deploy, a rollback) makes them
// again as it starts, and a conversion already recorded would never drop
// them again. payments' "hold", unique over every payment of a hold,
// refuses the payment a Pay of another choice of types inserts beside the
// one it replaces (SPEC §15); hold_live took its place. (An index that
// only became redundant, as seats' show_status_locked or shows' movie, is
// dropped once by a conversion instead: dropping it at every start would
// take its collection's exclusive lock at every start of a rolling
// deploy, and an older release that makes it again only leaves a
// redundant index behind.)
var retiredIndexes = []struct{ col, name string }{
	{colPayments, "hold"},
}

func (s *Store) dropRetiredIndexes(ctx context.Context) error {
	for _, r := range retiredIndexes {
		err := s.col(r.col).Indexes().DropOne(ctx, r.name)
		if err != nil && !hasCode(err, codeIndexNotFound) {
			return fmt.Errorf("mongo: migrate: drop %s of %s: %w", r.name, r.col, err)
		}
	}
	return nil
}

// indexes are the indexes of each collection. There is deliberately no TTL
// index on seats: a lapsed lock is decided at read time (SPEC §1).
func indexes() map[string][]mongo.IndexModel {
	idx := func(name string, keys bson.D) mongo.IndexModel {
		return mongo.IndexModel{Keys: keys, Options: options.Index().SetName(name)}
	}
	unique := func(m mongo.IndexModel) mongo.IndexModel {
		m.Options.SetUnique(true)
		return m
	}
	return map[string][]mongo.IndexModel{
		colShows: {
			idx("starts_at", bson.D{{Key: "starts_at", Value: 1}, {Key: "_id", Value: 1}}),
			// The admin's overview filtered by theatre.
			idx("theatre_starts_at", bson.D{{Key: "theatre.id", Value: 1}, {Key: "starts_at", Value: 1}}),
			// Saving a movie or a screen updates the copies its shows
			// carry; deleting one asks whether a show uses it. (A
			// theatre's shows are found by theatre_starts_at, a movie's
			// by film_theatre_starts_at.)
			idx("screen", bson.D{{Key: "screen_id", Value: 1}}),
			// The film report reads every show of a movie at a theatre
			// through a week's end. It replaces "movie" {movie.id}, its
			// prefix (conversion 0034_drop_shows_movie).
			idx(showsFilmIndex, bson.D{{Key: "movie.id", Value: 1}, {Key: "theatre.id", Value: 1}, {Key: "starts_at", Value: 1}}),
		},
		// A theatre's cards, by name; a type a show copied stays.
		colPriceCards: {
			idx("theatre_name", bson.D{{Key: "theatre_id", Value: 1}, {Key: "name", Value: 1}}),
		},
		colShowPrices: {
			idx("theatre_type", bson.D{{Key: "theatre_id", Value: 1}, {Key: "types.id", Value: 1}}),
		},
		colOnSales: {
			// The open on-sales (each process reads them every 2 s), and
			// pruning the closed.
			idx("closes_at", bson.D{{Key: "closes_at", Value: 1}}),
			// The open on-sales covering a show (a creation's check).
			idx("shows_closes_at", bson.D{{Key: "shows", Value: 1}, {Key: "closes_at", Value: 1}}),
		},
		colScreens: {
			// A theatre's screens, listed by name without a sort in memory.
			idx("theatre_name", bson.D{{Key: "theatre_id", Value: 1}, {Key: "name", Value: 1}, {Key: "_id", Value: 1}}),
		},
		colSeats: {
			// The seat key: every seat operation filters by it.
			unique(idx("show_seat", bson.D{{Key: "show_id", Value: 1}, {Key: "seat_id", Value: 1}})),
			// Releasing a hold finds the seats it still locks.
			idx("show_hold", bson.D{{Key: "show_id", Value: 1}, {Key: "hold_id", Value: 1}}),
			// Seat maps are read in map order (mapOrder, seat_id breaking
			// ties) without an in-memory sort, also for the very large shows
			// `boxoffice seed` makes. It replaces show_grid, which lacked
			// seat_id (conversion 0013_retire_show_grid).
			idx(showGridSeatIndex, bson.D{
				{Key: "show_id", Value: 1}, {Key: "grid_row", Value: 1}, {Key: "grid_col", Value: 1}, {Key: "seat_id", Value: 1},
			}),
			// Occupancy and the admin's overview count a show's seats from
			// this index alone, and the listing's seats left available
			// online: it holds every field they read (occupancyFacet,
			// seatsLeft). Holds and releases rewrite its entries, one per
			// seat they touch, as they do show_hold's. It replaces
			// show_status_locked, which lacked the reserve.
			idx(showStatusIndex, bson.D{
				{Key: "show_id", Value: 1}, {Key: "status", Value: 1}, {Key: "locked_at", Value: 1}, {Key: "reserve", Value: 1},
			}),
		},
		colHolds: {
			// At most one active hold per session and show (SPEC §2), also
			// when two holds of one session race: they touch different
			// seats, so only this index makes them collide.
			mongo.IndexModel{
				Keys: bson.D{{Key: "show_id", Value: 1}, {Key: "owner", Value: 1}, {Key: "state", Value: 1}},
				Options: options.Index().SetName("show_owner_active").SetUnique(true).
					SetPartialFilterExpression(bson.D{{Key: "state", Value: string(booking.HoldActive)}}),
			},
			// An address's holds of a show that may still lock seats
			// (HOLD_SEATS_PER_ADDRESS).
			mongo.IndexModel{
				Keys: bson.D{{Key: "show_id", Value: 1}, {Key: "address", Value: 1}, {Key: "created_at", Value: 1}},
				Options: options.Index().SetName("show_address_live").
					SetPartialFilterExpression(bson.D{{Key: "state", Value: string(booking.HoldActive)}}),
			},
		},
		colPayments: {
			// One live payment per hold: a second would pay twice for one
			// seat. A payment a repeated Pay replaced (SPEC §15: another
			// choice of types) has replaced_at set and leaves it, so the
			// new one can be inserted in the same transaction.
			// (0029_payment_replacement drops the older "hold", unique
			// over every payment, and gives older documents replaced_at 0.)
			mongo.IndexModel{
				Keys: bson.D{{Key: "hold_id", Value: 1}},
				Options: options.Index().SetName("hold_live").SetUnique(true).
					SetPartialFilterExpression(bson.D{{Key: "replaced_at", Value: int64(0)}}),
			},
			// PendingPayments reads a hold's payments, replaced ones too.
			idx("hold_state", bson.D{{Key: "hold_id", Value: 1}, {Key: "state", Value: 1}}),
			// EndedCheckouts reads the open checkouts oldest first, without
			// a sort in memory. Partial (openCheckout says which filter
			// operators it may use), so that it holds only those: settled
			// payments and closed checkouts leave it.
			mongo.IndexModel{
				Keys: bson.D{{Key: "created_at", Value: 1}, {Key: "_id", Value: 1}},
				Options: options.Index().SetName(openCheckoutsIndex).
					SetPartialFilterExpression(openCheckout()),
			},
		},
		colBookings: {
			idx("hold", bson.D{{Key: "hold_id", Value: 1}}),
			// No two bookings share a ticket code: a collision of the 40
			// random bits fails the settlement with a duplicate key, which
			// settle translates to booking.ErrTicketCodeTaken. Partial:
			// bookings without a code store "".
			mongo.IndexModel{
				Keys: bson.D{{Key: "ticket_code", Value: 1}},
				Options: options.Index().SetName(ticketCodeIndex).SetUnique(true).
					SetPartialFilterExpression(bson.D{{Key: "ticket_code", Value: bson.D{
						{Key: "$type", Value: "string"}, {Key: "$gt", Value: ""},
					}}}),
			},
			// The admin's overview sums a show's bookings; its page lists them.
			idx("show_state", bson.D{{Key: "show_id", Value: 1}, {Key: "state", Value: 1}}),
			// A cash-up reads a day's box-office sales and refunds
			// (BoxOfficeBookings).
			idx("channel_created", bson.D{{Key: "channel", Value: 1}, {Key: "created_at", Value: 1}}),
			idx("channel_refunded", bson.D{{Key: "channel", Value: 1}, {Key: "refunded_at", Value: 1}}),
			// The site's refund queue lists refund_due bookings of every
			// show, the longest waiting first (RefundQueue, which hints it).
			mongo.IndexModel{
				Keys: bson.D{{Key: "updated_at", Value: 1}, {Key: "_id", Value: 1}},
				Options: options.Index().SetName(refundDueIndex).
					SetPartialFilterExpression(bson.D{{Key: "state", Value: string(booking.BookingRefundDue)}}),
			},
			// The sales report reads the bookings confirmed, and those
			// refunded, in a range of instants (SalesBookings).
			idx(bookingsConfirmedIndex, bson.D{{Key: "confirmed_at", Value: 1}}),
			idx(bookingsRefundedIndex, bson.D{{Key: "refunded_at", Value: 1}}),
			// Migrate finds the bookings stored without a language
			// (migrateBookingLang) at every start.
			idx(bookingsLangIndex, bson.D{{Key: "lang", Value: 1}}),
			// The counter finds a customer's bookings by email, case
			// ignored, the newest first (BookingsByEmail, which queries
			// with the same collation).
			mongo.IndexModel{
				Keys:    bson.D{{Key: "email", Value: 1}, {Key: "created_at", Value: -1}, {Key: "_id", Value: -1}},
				Options: options.Index().SetName(emailIndex).SetCollation(emailCollation),
			},
			// The film report sums each show's confirmed bookings from
			// this index alone (filmBookingsPipeline).
			idx(bookingsReportIndex, bson.D{
				{Key: "show_id", Value: 1}, {Key: "state", Value: 1},
				{Key: "report.admissions", Value: 1}, {Key: "report.comps", Value: 1},
				{Key: "report.gross", Value: 1}, {Key: "report.tax", Value: 1},
			}),
		},
		colAdmins: {
			unique(idx("email", bson.D{{Key: "email", Value: 1}})),
		},
		colMail: {
			// The sender's reads and claims: what is still to send, by
			// when it is due.
			mongo.IndexModel{
				Keys: bson.D{{Key: "next_at", Value: 1}, {Key: "_id", Value: 1}},
				Options: options.Index().SetName("mail_due").SetPartialFilterExpression(bson.D{
					{Key: "sent_at", Value: int64(0)}, {Key: "gave_up_at", Value: int64(0)},
				}),
			},
		},
		colOutbound: {
			// The sandbox deliverer's reads and claims: what is still to
			// deliver, by when it is due.
			mongo.IndexModel{
				Keys: bson.D{{Key: "next_at", Value: 1}, {Key: "_id", Value: 1}},
				Options: options.Index().SetName("callback_due").SetPartialFilterExpression(bson.D{
					{Key: "delivered_at", Value: int64(0)}, {Key: "gave_up_at", Value: int64(0)},
				}),
			},
		},
		colCallbacks: {
			idx("payment_received", bson.D{{Key: "payment_id", Value: 1}, {Key: "received_at", Value: 1}}),
		},
		colSessions: {
			// The TTL monitor deletes expired sessions (about once a
			// minute); Find ignores them in the meantime.
			mongo.IndexModel{
				Keys:    bson.D{{Key: "expiry", Value: 1}},
				Options: options.Index().SetName("expiry_ttl").SetExpireAfterSeconds(0),
			},
		},
	}
}

// Names of the indexes that queries rely on (tests check the plans).
const (
	bookingsReportIndex    = "show_state_report"
	bookingsConfirmedIndex = "confirmed_at"
	bookingsRefundedIndex  = "refunded_at"
	bookingsLangIndex      = "lang"
	showsFilmIndex         = "film_theatre_starts_at"
	showGridSeatIndex      = "show_grid_seat"
	showStatusIndex        = "show_status_locked_reserve"
)

// colMigrations records the one-time conversions Migrate has made, one
// document per conversion, its _id the conversion's name.
const colMigrations = "migrations"

// conversion is a one-time change of stored documents. Its run must be
// idempotent: processes starting at once may all run it before one of them
// records it done.
type conversion struct {
	name string
	run  func(ctx context.Context, s *Store) error
}

// conversions are run by Migrate, in order, each until it is recorded,
// after the indexes are made.
var conversions = []conversion{
	// show_grid {show_id, grid_row, grid_col} had no tie-break for seats in
	// one grid place; show_grid_seat, made before this runs, has it and
	// serves every query show_grid served, so show_grid is only a cost to
	// every seat insert. An index of that name with other keys would make
	// creating it fail, hence the new name.
	{name: "0013_retire_show_grid", run: func(ctx context.Context, s *Store) error {
		err := s.col(colSeats).Indexes().DropOne(ctx, "show_grid")
		if hasCode(err, codeIndexNotFound) {
			return nil // a database made after show_grid was retired
		}
		return err
	}},
	// SQLite's 0007_provider_refs: a booking marked refunded while
	// refunded was no state of its own (refund_due with refunded_at)
	// becomes refunded. Booking.RefundFailed clears refunded_at as it goes
	// back to refund_due, so no booking written since matches.
	{name: "0007_refunded_state", run: func(ctx context.Context, s *Store) error {
		_, err := s.col(colBookings).UpdateMany(ctx,
			bson.D{
				{Key: "state", Value: string(booking.BookingRefundDue)},
				{Key: "refunded_at", Value: bson.D{{Key: "$gt", Value: 0}}},
			},
			bson.D{{Key: "$set", Value: bson.D{{Key: "state", Value: string(booking.BookingRefunded)}}}})
		return err
	}},
	// Queue positions are numbered and stored (SQLite's
	// 0025_queue_positions): see convertQueuePositions.
	{name: "0025_queue_positions", run: convertQueuePositions},
	// SQLite's 0026_theatre_currency: a theatre gets the currency of its
	// shows (of its latest one), or INR when it has none. Idempotent: a
	// theatre that has a currency is left as it is.
	{name: "0026_theatre_currency", run: migrateTheatreCurrency},
	// SQLite's 0029_seat_tickets: each booking stored without tickets gets
	// the type standard for every seat at the price its seat carries.
	// Idempotent: a booking that has tickets is left as it is.
	{name: "0029_seat_tickets", run: migrateBookingTickets},
	// SQLite's 0032_box_office: every booking stored before the box
	// office was sold online. Idempotent: a booking with a channel is
	// left as it is.
	{name: "0032_box_office", run: func(ctx context.Context, s *Store) error {
		_, err := s.col(colBookings).UpdateMany(ctx,
			bson.D{{Key: "channel", Value: bson.D{{Key: "$exists", Value: false}}}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "channel", Value: string(booking.ChannelOnline)}}}})
		return err
	}},
	// SQLite's 0029_seat_tickets adds payments.replaced_at: a payment
	// stored before has none, and counts as not replaced (0), so that it
	// is in hold_live. The index "hold", unique over every payment of a
	// hold, would refuse the payment that replaces one: it guards the
	// older payments until this has run, and dropRetiredIndexes drops it
	// after the conversions.
	{name: "0029_payment_replacement", run: func(ctx context.Context, s *Store) error {
		_, err := s.col(colPayments).UpdateMany(ctx,
			bson.D{{Key: "replaced_at", Value: bson.D{{Key: "$exists", Value: false}}}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "replaced_at", Value: int64(0)}}}})
		return err
	}},
	// SQLite's 0031_reserves: show_status_locked_reserve, which holds the
	// seat's reserve that counting seats available online reads, replaces
	// show_status_locked (its keys are a prefix of the new one's). Dropped
	// once: a process of an older release that makes it again as it starts
	// only leaves a redundant index behind.
	{name: "0031_retire_show_status_locked", run: func(ctx context.Context, s *Store) error {
		err := s.col(colSeats).Indexes().DropOne(ctx, "show_status_locked")
		if hasCode(err, codeIndexNotFound) {
			return nil // a database made after show_status_locked was retired
		}
		return err
	}},
	// SQLite's 0034_reports: each booking gets its sums as the film
	// report counts them (report). Idempotent: one that has them is left
	// as it is.
	{name: "0034_booking_report", run: migrateBookingReport},
	// SQLite's 0034_reports drops shows_movie: shows' "movie" {movie.id}
	// is a prefix of film_theatre_starts_at, made before this runs, which
	// serves what it served, so it is only a cost to every show written.
	// Dropped once, as 0031_retire_show_status_locked.
	{name: "0034_drop_shows_movie", run: func(ctx context.Context, s *Store) error {
		err := s.col(colShows).Indexes().DropOne(ctx, "movie")
		if hasCode(err, codeIndexNotFound) {
			return nil // a database made after movie was retired
		}
		return err
	}},
	// SQLite's 0038_payment_provider: see migratePaymentProvider.
	{name: "0038_payment_provider", run: migratePaymentProvider},
	// SQLite's 0041_reason_codes: see migrateReasonCodes.
	{name: "0041_reason_codes", run: migrateReasonCodes},
}

// migrateReasonCodes turns the English reasons stored on bookings and
// payment events before reason codes into their codes (SPEC §19:
// booking.LegacyReason, as SQLite's 0041_reason_codes); a reason already
// a code, and text that is no known reason, stay as they are. It reads
// only the reasons and writes in unordered bulk batches (bulkUpdates),
// each update only while the document still has the old text, so a run
// cut short is finished by the next. A reason a process of an older
// release stores after it ran is English again, and is read through
// booking.LegacyReason.
func migrateReasonCodes(ctx context.Context, s *Store) error {
	for _, name := range []string{colBookings, colPaymentEvents} {
		cur, err := s.col(name).Find(ctx,
			bson.D{{Key: "reason", Value: bson.D{{Key: "$gt", Value: ""}}}},
			options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}, {Key: "reason", Value: 1}}))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		updates := bulkUpdates{ctx: ctx, col: s.col(name)}
		for cur.Next(ctx) {
			var d struct {
				ID     string `bson:"_id"`
				Reason string `bson:"reason"`
			}
			if err := cur.Decode(&d); err != nil {
				cur.Close(ctx)
				return fmt.Errorf("%s: %w", name, err)
			}
			if _, coded := booking.ParseReason(d.Reason); coded {
				continue
			}
			code, ok := booking.LegacyReason(d.Reason)
			if !ok {
				continue
			}
			if err := updates.add(append(byID(d.ID), bson.E{Key: "reason", Value: d.Reason}),
				bson.D{{Key: "$set", Value: bson.D{{Key: "reason", Value: code}}}}); err != nil {
				cur.Close(ctx)
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		err = cur.Err()
		cur.Close(ctx)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := updates.flush(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// migratePaymentProvider gives each online payment stored without a
// provider (SPEC §15, existing data) its own: stripe where its checkout
// ref is a Stripe Checkout Session's id (cs_…), else sandbox, which
// records none. Stripe's first, so that the second takes the rest.
// Idempotent: a payment with a provider is left as it is. A payment a
// process of an older release stores after it ran has none again, and
// is the configured provider's (booking.Payment.Provider).
func migratePaymentProvider(ctx context.Context, s *Store) error {
	noProvider := bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: "provider", Value: bson.D{{Key: "$exists", Value: false}}}},
		bson.D{{Key: "provider", Value: ""}},
	}}}
	set := func(provider string) bson.D {
		return bson.D{{Key: "$set", Value: bson.D{{Key: "provider", Value: provider}}}}
	}
	stripe := append(bson.D{{Key: "checkout_ref", Value: bson.Regex{Pattern: "^cs_"}}}, noProvider...)
	if _, err := s.col(colPayments).UpdateMany(ctx, stripe, set("stripe")); err != nil {
		return fmt.Errorf("payments of Checkout Sessions: %w", err)
	}
	// A payment still pending without a checkout ref keeps none: a Stripe
	// one gets its session's id only after it is stored, so it cannot be
	// told from a sandbox one yet, and none is the configured provider's.
	told := append(bson.D{{Key: "$nor", Value: bson.A{bson.D{
		{Key: "state", Value: string(booking.PaymentPending)},
		{Key: "checkout_ref", Value: bson.D{{Key: "$in", Value: bson.A{"", nil}}}},
	}}}}, noProvider...)
	if _, err := s.col(colPayments).UpdateMany(ctx, told, set("sandbox")); err != nil {
		return fmt.Errorf("the other payments: %w", err)
	}
	return nil
}

// unconfirmedSales matches the bookings whose sale time is not known: no
// confirmed_at (stored before 0039, or by a process of an older release
// since), or confirmed_at 0 with a ticket code, which only confirmation
// gives (a booking a newer process inserted pending and an older one
// confirmed).
func unconfirmedSales() bson.D {
	return bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: "confirmed_at", Value: bson.D{{Key: "$exists", Value: false}}}},
		bson.D{{Key: "confirmed_at", Value: int64(0)}, {Key: "ticket_code", Value: bson.D{{Key: "$gt", Value: ""}}}},
	}}}
}

// migrateConfirmedAt gives each booking unconfirmedSales matches the
// instant it became confirmed, as SQLite's 0039_confirmed_at does: a sale
// at the counter its creation; an online booking the received_at of the
// first event that booked it (payment_events, effect booked, by
// payment_id: read in one pass, since the events have no index by
// payment); one whose event was pruned but that has a ticket code its
// creation; any other 0 (never confirmed). It writes in unordered bulk
// batches, each update only while the booking still matches, so a run
// cut short is finished by the next. Migrate runs it at every start
// (unlike a conversion), after a cheap look that finds nothing to do once
// every process runs this release.
func migrateConfirmedAt(ctx context.Context, s *Store) error {
	err := s.col(colBookings).FindOne(ctx, unconfirmedSales(),
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil
	} else if err != nil {
		return err
	}
	booked := map[string]int64{}
	events, err := s.col(colPaymentEvents).Aggregate(ctx, mongo.Pipeline{
		{{Key: "$match", Value: bson.D{{Key: "effect", Value: string(booking.EffectBooked)}}}},
		{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$payment_id"}, {Key: "at", Value: bson.D{{Key: "$min", Value: "$received_at"}}}}}},
	}, options.Aggregate().SetAllowDiskUse(true))
	if err != nil {
		return err
	}
	var firsts []struct {
		PaymentID string `bson:"_id"`
		At        int64  `bson:"at"`
	}
	if err := events.All(ctx, &firsts); err != nil {
		return err
	}
	for _, f := range firsts {
		booked[f.PaymentID] = f.At
	}
	cur, err := s.col(colBookings).Find(ctx, unconfirmedSales(), options.Find().SetProjection(bson.D{
		{Key: "_id", Value: 1}, {Key: "payment_id", Value: 1}, {Key: "channel", Value: 1},
		{Key: "ticket_code", Value: 1}, {Key: "created_at", Value: 1},
	}))
	if err != nil {
		return err
	}
	defer cur.Close(ctx)
	updates := bulkUpdates{ctx: ctx, col: s.col(colBookings)}
	for cur.Next(ctx) {
		var d struct {
			ID         string `bson:"_id"`
			PaymentID  string `bson:"payment_id"`
			Channel    string `bson:"channel"`
			TicketCode string `bson:"ticket_code"`
			CreatedAt  int64  `bson:"created_at"`
		}
		if err := cur.Decode(&d); err != nil {
			return err
		}
		at, ok := booked[d.PaymentID]
		switch {
		case d.Channel == string(booking.ChannelBoxOffice):
			at = d.CreatedAt
		case ok:
		case d.TicketCode != "":
			at = d.CreatedAt
		}
		// Never confirmed: at is 0, which says so once (the booking then
		// no longer matches unconfirmedSales).
		if err := updates.add(append(byID(d.ID), unconfirmedSales()...),
			bson.D{{Key: "$set", Value: bson.D{{Key: "confirmed_at", Value: at}}}}); err != nil {
			return err
		}
	}
	if err := cur.Err(); err != nil {
		return err
	}
	return updates.flush()
}

// noLang matches the bookings stored without a language: before
// languages, or since by a process of an older release (no field), or
// with "" (an insert that named none). A null or missing field and ""
// are both points of the lang index.
func noLang() bson.D {
	return bson.D{{Key: "lang", Value: bson.D{{Key: "$in", Value: bson.A{nil, ""}}}}}
}

// migrateBookingLang gives each booking noLang matches the store's
// DEFAULT_LANG (SPEC §15, existing data), as SQLite's Migrate does after
// 0040_booking_lang. Migrate runs it at every start, after a look through
// the lang index that finds nothing to do once every process runs this
// release; each update still matches noLang, so a booking whose Pay set
// its language meanwhile keeps it.
func migrateBookingLang(ctx context.Context, s *Store) error {
	err := s.col(colBookings).FindOne(ctx, noLang(),
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}}).SetHint(bookingsLangIndex)).Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil
	} else if err != nil {
		return err
	}
	lang := s.lang
	if lang == "" {
		lang = "en"
	}
	_, err = s.col(colBookings).UpdateMany(ctx, noLang(),
		bson.D{{Key: "$set", Value: bson.D{{Key: "lang", Value: lang}}}},
		options.UpdateMany().SetHint(bookingsLangIndex))
	return err
}

// migrateBookingTickets gives each booking stored without tickets the type
// standard for each of its seats, in its seat order, at its seat's price
// (SPEC §15, existing data).
func migrateBookingTickets(ctx context.Context, s *Store) error {
	noTickets := bson.D{{Key: "tickets", Value: bson.D{{Key: "$exists", Value: false}}}}
	cur, err := s.col(colBookings).Find(ctx, noTickets,
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}, {Key: "show_id", Value: 1}, {Key: "seat_ids", Value: 1}}))
	if err != nil {
		return err
	}
	defer cur.Close(ctx)
	for cur.Next(ctx) {
		var b struct {
			ID      string   `bson:"_id"`
			ShowID  string   `bson:"show_id"`
			SeatIDs []string `bson:"seat_ids"`
		}
		if err := cur.Decode(&b); err != nil {
			return err
		}
		keys := make(bson.A, len(b.SeatIDs))
		for i, id := range b.SeatIDs {
			keys[i] = seatKey(b.ShowID, id)
		}
		sc, err := s.col(colSeats).Find(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: keys}}}})
		if err != nil {
			return err
		}
		var seats []seatDoc
		if err := sc.All(ctx, &seats); err != nil {
			return err
		}
		byID := make(map[string]seatDoc, len(seats))
		for _, st := range seats {
			byID[st.SeatID] = st
		}
		var tickets []ticketDoc
		for _, id := range b.SeatIDs {
			if st, ok := byID[id]; ok {
				tickets = append(tickets, ticketDoc{SeatID: id, Category: st.Category, Type: booking.StandardTypeID, Price: st.Price})
			}
		}
		if len(tickets) == 0 {
			continue
		}
		filter := append(bson.D{{Key: "_id", Value: b.ID}}, noTickets...)
		if _, err := s.col(colBookings).UpdateOne(ctx, filter,
			bson.D{{Key: "$set", Value: bson.D{{Key: "tickets", Value: tickets}}}}); err != nil {
			return err
		}
	}
	return cur.Err()
}

// reportConversionBatch is how many bookings' reports one bulk write of
// migrateBookingReport sends.
const reportConversionBatch = 1000

// migrateBookingReport gives each booking stored without report its sums
// (booking.Booking.Sums), from its tickets or, without them, its amount,
// reading only those fields and writing unordered batches of
// reportConversionBatch updates, so that a large collection takes a few
// round trips per thousand bookings rather than one majority write each
// (migrateTimeout). Idempotent, also when interrupted: each update applies
// only while the booking still has no report.
func migrateBookingReport(ctx context.Context, s *Store) error {
	cur, err := s.col(colBookings).Find(ctx, noReport(),
		options.Find().SetProjection(bson.D{{Key: "seat_ids", Value: 1}, {Key: "amount", Value: 1}, {Key: "tickets", Value: 1}}))
	if err != nil {
		return err
	}
	defer cur.Close(ctx)
	updates := bulkUpdates{ctx: ctx, col: s.col(colBookings)}
	for cur.Next(ctx) {
		var d bookingDoc
		if err := cur.Decode(&d); err != nil {
			return err
		}
		if err := updates.add(append(byID(d.ID), noReport()...),
			bson.D{{Key: "$set", Value: bson.D{{Key: "report", Value: toReportDoc(d.booking().Sums())}}}}); err != nil {
			return err
		}
	}
	if err := cur.Err(); err != nil {
		return err
	}
	return updates.flush()
}

// bulkUpdates sends a conversion's one-document updates to col in
// unordered bulk writes of reportConversionBatch, rather than a round trip
// each: add queues one and sends a full batch, flush sends the rest. Each
// update's filter keeps it idempotent, so a run cut short is finished by
// the next.
type bulkUpdates struct {
	ctx    context.Context
	col    *mongo.Collection
	models []mongo.WriteModel
}

func (b *bulkUpdates) add(filter, update bson.D) error {
	b.models = append(b.models, mongo.NewUpdateOneModel().SetFilter(filter).SetUpdate(update))
	if len(b.models) < reportConversionBatch {
		return nil
	}
	return b.flush()
}

func (b *bulkUpdates) flush() error {
	if len(b.models) == 0 {
		return nil
	}
	_, err := b.col.BulkWrite(b.ctx, b.models, options.BulkWrite().SetOrdered(false))
	b.models = nil // a bulk write error keeps its models
	return err
}

// migrateTheatreCurrency sets the currency of each theatre stored without
// one from its latest show (the theatre.id index), INR when it has none.
func migrateTheatreCurrency(ctx context.Context, s *Store) error {
	noCurrency := bson.D{{Key: "$or", Value: bson.A{
		bson.D{{Key: "currency", Value: bson.D{{Key: "$exists", Value: false}}}},
		bson.D{{Key: "currency", Value: ""}},
	}}}
	cur, err := s.col(colTheatres).Find(ctx, noCurrency, options.Find().SetProjection(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return err
	}
	var theatres []struct {
		ID string `bson:"_id"`
	}
	if err := cur.All(ctx, &theatres); err != nil {
		return err
	}
	for _, th := range theatres {
		currency := "INR"
		var show struct {
			Currency string `bson:"currency"`
		}
		err := s.col(colShows).FindOne(ctx,
			bson.D{{Key: "theatre.id", Value: th.ID}, {Key: "currency", Value: bson.D{{Key: "$ne", Value: ""}}}},
			options.FindOne().SetSort(bson.D{{Key: "starts_at", Value: -1}}).SetProjection(bson.D{{Key: "currency", Value: 1}}),
		).Decode(&show)
		switch {
		case err == nil:
			currency = show.Currency
		case !errors.Is(err, mongo.ErrNoDocuments):
			return err
		}
		// Only while it still has none: a save meanwhile wins.
		filter := append(bson.D{{Key: "_id", Value: th.ID}}, noCurrency...)
		if _, err := s.col(colTheatres).UpdateOne(ctx, filter,
			bson.D{{Key: "$set", Value: bson.D{{Key: "currency", Value: currency}}}}); err != nil {
			return err
		}
	}
	return nil
}

// convertOnce runs c unless it is recorded in migrations, then records it,
// so that a conversion that scans a collection does not do so again at
// every start.
func (s *Store) convertOnce(ctx context.Context, c conversion) error {
	err := s.col(colMigrations).FindOne(ctx, byID(c.name)).Err()
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, mongo.ErrNoDocuments):
		return err
	}
	if err := c.run(ctx, s); err != nil {
		return err
	}
	_, err = s.col(colMigrations).InsertOne(ctx, bson.D{
		{Key: "_id", Value: c.name}, {Key: "done_at", Value: nanos(time.Now())},
	})
	if mongo.IsDuplicateKeyError(err) {
		return nil // another process made it too
	}
	return err
}
