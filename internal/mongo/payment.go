package mongo

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"boxoffice/internal/booking"
)

// paymentDoc is a payment. The payments collection has a unique index on
// hold_id: one payment per hold. A document written before the provider
// fields existed lacks them and decodes with their zero values.
type paymentDoc struct {
	ID        string `bson:"_id"`
	HoldID    string `bson:"hold_id"`
	BookingID string `bson:"booking_id"`
	Owner     string `bson:"owner"`
	Amount    int64  `bson:"amount"`
	Currency  string `bson:"currency"`
	State     string `bson:"state"`
	CreatedAt int64  `bson:"created_at"`

	CheckoutRef      string `bson:"checkout_ref"`
	CheckoutClosedAt int64  `bson:"checkout_closed_at"` // Unix ns; 0 while the checkout may be open
	ChargeRef        string `bson:"charge_ref"`
	LookedUpAt       int64  `bson:"looked_up_at"` // Unix ns; 0 until looked up

	// CheckoutAttempt numbers the checkouts Pay opened (absent in older
	// documents: 0); CheckoutExpiresAt is when the current one expires
	// (Unix ns; 0 for none).
	CheckoutAttempt   int   `bson:"checkout_attempt"`
	CheckoutExpiresAt int64 `bson:"checkout_expires_at"`
}

func toPaymentDoc(p booking.Payment) paymentDoc {
	return paymentDoc{
		ID: p.ID, HoldID: p.HoldID, BookingID: p.BookingID, Owner: p.Owner,
		Amount: int64(p.Amount), Currency: p.Currency, State: string(p.State), CreatedAt: nanos(p.CreatedAt),
		CheckoutRef: p.CheckoutRef, CheckoutClosedAt: nanos(p.CheckoutClosedAt),
		ChargeRef: p.ChargeRef, LookedUpAt: nanos(p.LookedUpAt),
		CheckoutAttempt: p.CheckoutAttempt, CheckoutExpiresAt: nanos(p.CheckoutExpiresAt),
	}
}

func (d paymentDoc) payment() booking.Payment {
	return booking.Payment{
		ID: d.ID, HoldID: d.HoldID, BookingID: d.BookingID, Owner: d.Owner,
		Amount: booking.Money(d.Amount), Currency: d.Currency,
		State: booking.PaymentState(d.State), CreatedAt: fromNanos(d.CreatedAt),
		CheckoutRef: d.CheckoutRef, CheckoutClosedAt: fromNanos(d.CheckoutClosedAt),
		ChargeRef: d.ChargeRef, LookedUpAt: fromNanos(d.LookedUpAt),
		CheckoutAttempt: d.CheckoutAttempt, CheckoutExpiresAt: fromNanos(d.CheckoutExpiresAt),
	}
}

// bookingDoc is a booking.
type bookingDoc struct {
	ID         string   `bson:"_id"`
	HoldID     string   `bson:"hold_id"`
	PaymentID  string   `bson:"payment_id"`
	Owner      string   `bson:"owner"`
	ShowID     string   `bson:"show_id"`
	SeatIDs    []string `bson:"seat_ids"`
	Amount     int64    `bson:"amount"`
	Currency   string   `bson:"currency"`
	State      string   `bson:"state"`
	TicketCode string   `bson:"ticket_code"`
	Reason     string   `bson:"reason"`
	CreatedAt  int64    `bson:"created_at"`
	UpdatedAt  int64    `bson:"updated_at"`
	RefundedAt int64    `bson:"refunded_at"` // Unix ns; 0 until refunded
	RefundedBy string   `bson:"refunded_by"`
	RefundID   string   `bson:"refund_id"`   // absent in older documents: ""
	AdmittedAt int64    `bson:"admitted_at"` // Unix ns; absent or 0 until admitted at the door
	AdmittedBy string   `bson:"admitted_by"`
	Email      string   `bson:"email"`      // absent in older documents: ""
	Key        string   `bson:"access_key"` // absent in older documents: ""
}

func toBookingDoc(b booking.Booking) bookingDoc {
	return bookingDoc{
		ID: b.ID, HoldID: b.HoldID, PaymentID: b.PaymentID, Owner: b.Owner,
		ShowID: b.ShowID, SeatIDs: b.SeatIDs, Amount: int64(b.Amount), Currency: b.Currency,
		State: string(b.State), TicketCode: b.TicketCode, Reason: b.Reason,
		CreatedAt: nanos(b.CreatedAt), UpdatedAt: nanos(b.UpdatedAt),
		RefundedAt: nanos(b.RefundedAt), RefundedBy: b.RefundedBy, RefundID: b.RefundID,
		AdmittedAt: nanos(b.AdmittedAt), AdmittedBy: b.AdmittedBy, Email: b.Email, Key: b.Key,
	}
}

func (d bookingDoc) booking() booking.Booking {
	return booking.Booking{
		ID: d.ID, HoldID: d.HoldID, PaymentID: d.PaymentID, Owner: d.Owner,
		ShowID: d.ShowID, SeatIDs: d.SeatIDs, Amount: booking.Money(d.Amount), Currency: d.Currency,
		State: booking.BookingState(d.State), TicketCode: d.TicketCode, Reason: d.Reason,
		CreatedAt: fromNanos(d.CreatedAt), UpdatedAt: fromNanos(d.UpdatedAt),
		RefundedAt: fromNanos(d.RefundedAt), RefundedBy: d.RefundedBy, RefundID: d.RefundID,
		AdmittedAt: fromNanos(d.AdmittedAt), AdmittedBy: d.AdmittedBy, Email: d.Email, Key: d.Key,
	}
}

// eventDoc records a provider event that took effect. Its _id is the
// provider's event id, so the _id index is what makes each event count once.
type eventDoc struct {
	ID         string `bson:"_id"`
	PaymentID  string `bson:"payment_id"`
	Type       string `bson:"type"`
	Effect     string `bson:"effect"`
	Reason     string `bson:"reason"`
	ReceivedAt int64  `bson:"received_at"`
}

// Payment returns a payment by id.
func (s *Store) Payment(ctx context.Context, paymentID string) (booking.Payment, error) {
	var d paymentDoc
	if err := s.col(colPayments).FindOne(ctx, byID(paymentID)).Decode(&d); err != nil {
		return booking.Payment{}, notFound(err, booking.ErrPaymentNotFound, "payment")
	}
	return d.payment(), nil
}

// Booking returns a booking by id.
func (s *Store) Booking(ctx context.Context, bookingID string) (booking.Booking, error) {
	var d bookingDoc
	if err := s.col(colBookings).FindOne(ctx, byID(bookingID)).Decode(&d); err != nil {
		return booking.Booking{}, notFound(err, booking.ErrBookingNotFound, "booking")
	}
	return d.booking(), nil
}

// paymentStart is what one attempt of StartPayment returns.
type paymentStart struct {
	payment booking.Payment
	booking booking.Booking
}

// StartPayment creates a pending payment and booking for owner's hold, or
// returns the hold's pending payment when Pay was pressed before, as long as
// the show, read in the same transaction, is on sale
// (booking.Show.CheckOnSale). The hold document records the payment id in
// the same transaction, so two concurrent Pay presses conflict on it and the
// retried one finds the first one's payment instead of creating a second.
func (s *Store) StartPayment(ctx context.Context, holdID, owner string, ids booking.PaymentStart, m booking.Moment) (booking.Payment, booking.Booking, error) {
	out, err := inTx(ctx, s, func(ctx context.Context) (paymentStart, error) {
		hd, err := findHold(ctx, s.col(colHolds), byID(holdID))
		if err != nil {
			return paymentStart{}, noDoc(err, booking.ErrHoldNotFound, "read hold")
		}
		h := hd.hold()
		if err := h.CheckOwner(owner); err != nil {
			return paymentStart{}, err
		}
		// The show first: a cancelled show or closed sales is why,
		// whatever became of the hold meanwhile.
		if _, err := s.showOnSale(ctx, h.ShowID, m); err != nil {
			return paymentStart{}, err
		}
		if err := h.CheckPayable(m); err != nil {
			return paymentStart{}, err
		}
		if hd.PaymentID != "" {
			p, b, err := s.readPayment(ctx, hd.PaymentID)
			if err != nil {
				return paymentStart{}, err
			}
			if p.State == booking.PaymentPending {
				if ids.Email == "" || ids.Email == b.Email {
					return paymentStart{p, b}, nil
				}
				nb := b
				nb.Email = ids.Email
				if err := s.saveBooking(ctx, b, nb); err != nil {
					return paymentStart{}, err
				}
				return paymentStart{p, nb}, nil
			}
		}
		p, b := booking.NewPayment(h, ids, m.Now)
		res, err := s.col(colHolds).UpdateOne(ctx,
			bson.D{{Key: "_id", Value: h.ID}, {Key: "payment_id", Value: hd.PaymentID}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "payment_id", Value: p.ID}}}})
		if err != nil {
			return paymentStart{}, fmt.Errorf("link payment to hold: %w", err)
		}
		if res.MatchedCount != 1 {
			return paymentStart{}, fmt.Errorf("hold %s changed within its own snapshot", h.ID)
		}
		if _, err := s.col(colPayments).InsertOne(ctx, toPaymentDoc(p)); err != nil {
			return paymentStart{}, fmt.Errorf("insert payment: %w", err)
		}
		if _, err := s.col(colBookings).InsertOne(ctx, toBookingDoc(b)); err != nil {
			return paymentStart{}, fmt.Errorf("insert booking: %w", err)
		}
		return paymentStart{p, b}, nil
	})
	if err != nil {
		return booking.Payment{}, booking.Booking{}, wrap("start payment", err)
	}
	return out.payment, out.booking, nil
}

// readPayment reads a payment and its booking.
func (s *Store) readPayment(ctx context.Context, paymentID string) (booking.Payment, booking.Booking, error) {
	var pd paymentDoc
	if err := s.col(colPayments).FindOne(ctx, byID(paymentID)).Decode(&pd); err != nil {
		return booking.Payment{}, booking.Booking{}, noDoc(err, booking.ErrPaymentNotFound, "read payment")
	}
	var bd bookingDoc
	if err := s.col(colBookings).FindOne(ctx, byID(pd.BookingID)).Decode(&bd); err != nil {
		// A payment without its booking is a broken invariant, not a
		// person's mistake: no sentinel.
		return booking.Payment{}, booking.Booking{}, fmt.Errorf("read booking of payment %s: %w", paymentID, err)
	}
	return pd.payment(), bd.booking(), nil
}

// errDuplicateEvent leaves the transaction's callback when the event id is
// already recorded, seen by a read or, when the first delivery committed
// after this transaction's snapshot, by the insert's duplicate key; the
// transaction is aborted and nothing changes.
var errDuplicateEvent = errors.New("payment event already recorded")

// SettlePayment applies a verified provider event once. In one transaction
// it reads the payment, its hold, the hold's show and seats, lets
// booking.DecideSettlement decide, records the event id with the effect, and
// writes the effect. The event's _id makes a repeated event fail on insert
// (a duplicate key, told apart with mongo.IsDuplicateKeyError), which aborts
// the transaction: a duplicate changes nothing and is answered with the
// payment and booking as they are. A ticket code that another booking has
// aborts it too, and is answered with booking.ErrTicketCodeTaken.
func (s *Store) SettlePayment(ctx context.Context, ev booking.PaymentEvent, ticketCode string, m booking.Moment) (booking.Settlement, error) {
	if ev.ID == "" {
		return booking.Settlement{}, booking.Errorf(booking.EINVALID, "The payment event has no id.")
	}
	st, err := inTx(ctx, s, func(ctx context.Context) (booking.Settlement, error) {
		return s.settle(ctx, ev, ticketCode, m)
	})
	if errors.Is(err, errDuplicateEvent) {
		return s.duplicate(ctx, ev)
	}
	if err != nil {
		return booking.Settlement{}, wrap("settle payment", err)
	}
	return st, nil
}

// settle is one attempt of SettlePayment, run inside a transaction.
func (s *Store) settle(ctx context.Context, ev booking.PaymentEvent, ticketCode string, m booking.Moment) (booking.Settlement, error) {
	// A repeat is answered before anything else is checked, as the first
	// delivery was: the provider retries what it sent.
	err := s.col(colPaymentEvents).FindOne(ctx, byID(ev.ID)).Err()
	switch {
	case err == nil:
		return booking.Settlement{}, errDuplicateEvent
	case !errors.Is(err, mongo.ErrNoDocuments):
		return booking.Settlement{}, fmt.Errorf("read event: %w", err)
	}
	p, b, err := s.readPayment(ctx, ev.PaymentID)
	if err != nil {
		return booking.Settlement{}, err
	}
	if err := booking.CheckEvent(p, ev); err != nil {
		return booking.Settlement{}, err
	}
	hd, err := findHold(ctx, s.col(colHolds), byID(p.HoldID))
	if err != nil {
		return booking.Settlement{}, fmt.Errorf("read hold %s of payment %s: %w", p.HoldID, p.ID, err)
	}
	h := hd.hold()
	var sd showDoc
	if err := s.col(colShows).FindOne(ctx, byID(h.ShowID)).Decode(&sd); err != nil {
		// A hold of a show that does not exist is a broken invariant:
		// no sentinel.
		return booking.Settlement{}, fmt.Errorf("read show %s of payment %s: %w", h.ShowID, p.ID, err)
	}
	seats, err := seatsOf(ctx, s.col(colSeats), h.ShowID, h.SeatIDs)
	if err != nil {
		return booking.Settlement{}, fmt.Errorf("read seats: %w", err)
	}
	st := booking.DecideSettlement(p, ev, sd.show(), h, seats, m)

	// A checkout that ended while its hold was live decided nothing for
	// good: the same event (a lookup's, asked again) is decided afresh
	// once the hold has ended, so its id is not recorded.
	if st.Effect != booking.EffectCheckoutEnded {
		_, err = s.col(colPaymentEvents).InsertOne(ctx, eventDoc{
			ID: ev.ID, PaymentID: p.ID, Type: string(ev.Type),
			Effect: string(st.Effect), Reason: st.Reason, ReceivedAt: nanos(m.Now),
		})
		if mongo.IsDuplicateKeyError(err) {
			return booking.Settlement{}, errDuplicateEvent
		}
		if err != nil {
			return booking.Settlement{}, fmt.Errorf("record event: %w", err)
		}
	}

	switch st.Effect {
	case booking.EffectBooked:
		if err := s.bookSeats(ctx, h, b.ID, m); err != nil {
			return booking.Settlement{}, err
		}
	case booking.EffectRefundDue, booking.EffectReleased:
		if err := s.releaseSeats(ctx, h); err != nil {
			return booking.Settlement{}, err
		}
	}
	if _, err := s.moveHold(ctx, h, booking.HoldStateAfter(h, st.Effect)); err != nil {
		return booking.Settlement{}, err
	}
	if st.Effect == booking.EffectCheckoutEnded && p.CheckoutClosedAt.IsZero() {
		// The checkout expired while its hold is live: it leaves
		// open_checkouts, and Pay opens another.
		if _, err := s.col(colPayments).UpdateOne(ctx, byID(p.ID),
			bson.D{{Key: "$set", Value: bson.D{{Key: "checkout_closed_at", Value: nanos(m.Now)}}}}); err != nil {
			return booking.Settlement{}, fmt.Errorf("close checkout: %w", err)
		}
		p.CheckoutClosedAt = m.Now
	}
	if next := booking.PaymentStateAfter(p, ev, st.Effect); next != p.State {
		set := bson.D{{Key: "state", Value: string(next)}}
		if next == booking.PaymentSucceeded && ev.ChargeRef != "" {
			// The money taken, which a refund will name.
			p.ChargeRef = ev.ChargeRef
			set = append(set, bson.E{Key: "charge_ref", Value: p.ChargeRef})
		}
		if _, err := s.col(colPayments).UpdateOne(ctx, byID(p.ID), bson.D{{Key: "$set", Value: set}}); err != nil {
			return booking.Settlement{}, fmt.Errorf("update payment: %w", err)
		}
		p.State = next
	}
	if st.Effect != booking.EffectIgnored {
		nb := st.Apply(b, ticketCode, m.Now)
		if err := s.saveBooking(ctx, b, nb); err != nil {
			return booking.Settlement{}, err
		}
		b = nb
	}
	st.Payment, st.Booking = p, b
	return st, nil
}

// ticketCodeIndex is the unique index on bookings' ticket codes.
const ticketCodeIndex = "ticket_code"

// isTicketCodeTaken reports a duplicate key in the ticket code index, told
// by the key pattern the server reports with the write error, not by its
// message.
func isTicketCodeTaken(err error) bool {
	if !mongo.IsDuplicateKeyError(err) {
		return false
	}
	var raws []bson.Raw
	var we mongo.WriteException
	if errors.As(err, &we) {
		for _, e := range we.WriteErrors {
			raws = append(raws, e.Raw)
		}
	}
	var ce mongo.CommandError
	if errors.As(err, &ce) {
		raws = append(raws, ce.Raw)
	}
	for _, raw := range raws {
		if kp, ok := raw.Lookup("keyPattern").DocumentOK(); ok {
			if _, err := kp.LookupErr("ticket_code"); err == nil {
				return true
			}
		}
	}
	return false
}

// bookSeats books the hold's seats, each on condition that it is still
// locked by the hold or free by the seat rule: what DecideSettlement checked,
// now enforced by the write. Fewer matches than seats means the two
// disagree, and the returned error aborts the transaction: never two
// bookings for one seat.
func (s *Store) bookSeats(ctx context.Context, h booking.Hold, bookingID string, m booking.Moment) error {
	res, err := s.col(colSeats).UpdateMany(ctx,
		bson.D{
			{Key: "show_id", Value: h.ShowID},
			{Key: "seat_id", Value: bson.D{{Key: "$in", Value: h.SeatIDs}}},
			seatRule(m, h.ID),
		},
		bson.D{{Key: "$set", Value: bson.D{
			{Key: "status", Value: string(booking.SeatBooked)},
			{Key: "booking_id", Value: bookingID},
			{Key: "hold_id", Value: ""},
			{Key: "locked_at", Value: int64(0)},
		}}})
	if err != nil {
		return fmt.Errorf("book seats: %w", err)
	}
	if res.MatchedCount != int64(len(h.SeatIDs)) {
		return fmt.Errorf("book seats: seat rule filter matched %d of %d seats that booking.DecideSettlement found bookable",
			res.MatchedCount, len(h.SeatIDs))
	}
	return nil
}

// duplicate answers a repeated event: what the first delivery did, and the
// payment and booking as they are now.
func (s *Store) duplicate(ctx context.Context, ev booking.PaymentEvent) (booking.Settlement, error) {
	var e eventDoc
	if err := s.col(colPaymentEvents).FindOne(ctx, byID(ev.ID)).Decode(&e); err != nil {
		return booking.Settlement{}, fmt.Errorf("mongo: settle payment: read recorded event: %w", err)
	}
	p, b, err := s.readPayment(ctx, e.PaymentID)
	if err != nil {
		return booking.Settlement{}, wrap("settle payment", err)
	}
	return booking.Settlement{
		Effect: booking.Effect(e.Effect), Reason: e.Reason, Duplicate: true,
		Payment: p, Booking: b,
	}, nil
}

// refundFailedType is the type recorded with a refund event in
// payment_events, whose _id makes each provider event count once whatever
// it is about.
const refundFailedType = "refund.failed"

// SettleRefund applies a verified refund event once. In one transaction it
// checks whether the event id was seen, reads the booking, lets
// booking.DecideRefundFailed decide, records the event id with the effect
// and writes the booking. As in SettlePayment, a repeat seen by the read
// or, when the first delivery committed after this transaction's snapshot,
// by the insert's duplicate key aborts the transaction and is answered with
// what the first delivery did.
func (s *Store) SettleRefund(ctx context.Context, ev booking.RefundEvent, m booking.Moment) (booking.RefundSettlement, error) {
	if ev.ID == "" {
		return booking.RefundSettlement{}, booking.Errorf(booking.EINVALID, "The refund event has no id.")
	}
	st, err := inTx(ctx, s, func(ctx context.Context) (booking.RefundSettlement, error) {
		return s.settleRefund(ctx, ev, m)
	})
	if errors.Is(err, errDuplicateEvent) {
		return s.duplicateRefund(ctx, ev)
	}
	if err != nil {
		return booking.RefundSettlement{}, wrap("settle refund", err)
	}
	return st, nil
}

// settleRefund is one attempt of SettleRefund, run inside a transaction.
func (s *Store) settleRefund(ctx context.Context, ev booking.RefundEvent, m booking.Moment) (booking.RefundSettlement, error) {
	err := s.col(colPaymentEvents).FindOne(ctx, byID(ev.ID)).Err()
	switch {
	case err == nil:
		return booking.RefundSettlement{}, errDuplicateEvent
	case !errors.Is(err, mongo.ErrNoDocuments):
		return booking.RefundSettlement{}, fmt.Errorf("read event: %w", err)
	}
	var d bookingDoc
	if err := s.col(colBookings).FindOne(ctx, byID(ev.BookingID)).Decode(&d); err != nil {
		return booking.RefundSettlement{}, noDoc(err, booking.ErrBookingNotFound, "read booking")
	}
	st, b := booking.DecideRefundFailed(d.booking(), ev, m.Now)

	_, err = s.col(colPaymentEvents).InsertOne(ctx, eventDoc{
		ID: ev.ID, PaymentID: b.PaymentID, Type: refundFailedType,
		Effect: string(st.Effect), Reason: st.Reason, ReceivedAt: nanos(m.Now),
	})
	if mongo.IsDuplicateKeyError(err) {
		return booking.RefundSettlement{}, errDuplicateEvent
	}
	if err != nil {
		return booking.RefundSettlement{}, fmt.Errorf("record event: %w", err)
	}
	if st.Effect != booking.EffectIgnored {
		if err := s.saveBooking(ctx, d.booking(), b); err != nil {
			return booking.RefundSettlement{}, err
		}
	}
	return st, nil
}

// duplicateRefund answers a repeated refund event: what the first delivery
// did, and the booking as it is now.
func (s *Store) duplicateRefund(ctx context.Context, ev booking.RefundEvent) (booking.RefundSettlement, error) {
	var e eventDoc
	if err := s.col(colPaymentEvents).FindOne(ctx, byID(ev.ID)).Decode(&e); err != nil {
		return booking.RefundSettlement{}, fmt.Errorf("mongo: settle refund: read recorded event: %w", err)
	}
	_, b, err := s.readPayment(ctx, e.PaymentID)
	if err != nil {
		return booking.RefundSettlement{}, wrap("settle refund", err)
	}
	return booking.RefundSettlement{
		Effect: booking.Effect(e.Effect), Reason: e.Reason, Duplicate: true, Booking: b,
	}, nil
}
