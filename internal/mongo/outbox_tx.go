package mongo

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// The outboxes' reads and writes (booking.OutboxTx): the mail (SPEC §11)
// and the sandbox's callbacks (SPEC §6). A claim or an outcome is an
// update of the record's own document, so two transactions deciding on
// one record both write it, and the later one gets a WriteConflict and
// runs again on the new state; two inserts of one _id at once conflict the
// same way (the step reads the _id first, so it never inserts one its
// snapshot has).

func (t *tx) Mail(id string) (booking.Mail, error) {
	var d mailDoc
	if err := t.s.col(colMail).FindOne(t.ctx, byID(id)).Decode(&d); err != nil {
		return booking.Mail{}, noDoc(err, booking.ErrMailNotFound, "read mail")
	}
	return d.mail(), nil
}

func (t *tx) DueMail(now time.Time, limit int) ([]booking.Mail, error) {
	cur, err := t.s.col(colMail).Find(t.ctx, dueAt(now), options.Find().
		SetSort(bson.D{{Key: "next_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("read due mail: %w", err)
	}
	var docs []mailDoc
	if err := cur.All(t.ctx, &docs); err != nil {
		return nil, fmt.Errorf("read due mail: %w", err)
	}
	list := make([]booking.Mail, len(docs))
	for i, d := range docs {
		list[i] = d.mail()
	}
	return list, nil
}

func (t *tx) InsertMail(m booking.Mail) error {
	if _, err := t.s.col(colMail).InsertOne(t.ctx, toMailDoc(m)); err != nil {
		return fmt.Errorf("insert mail: %w", err)
	}
	return nil
}

func (t *tx) UpdateMail(m booking.Mail) error {
	_, err := t.s.col(colMail).UpdateOne(t.ctx, byID(m.ID), bson.D{{Key: "$set", Value: bson.D{
		{Key: "attempts", Value: m.Attempts}, {Key: "next_at", Value: nanos(m.NextAt)},
		{Key: "claimed_until", Value: nanos(m.ClaimedUntil)}, {Key: "sent_at", Value: nanos(m.SentAt)},
		{Key: "gave_up_at", Value: nanos(m.GaveUpAt)}, {Key: "last_error", Value: m.LastError},
	}}})
	if err != nil {
		return fmt.Errorf("update mail: %w", err)
	}
	return nil
}

// colOutbound is the sandbox's callback outbox: one document per payment
// whose outcome was chosen on its checkout page, its _id the payment's id.
// Index callback_due serves the deliverer's reads and claims.
const colOutbound = "callback_outbox"

// outboundDoc is an outbound callback; times are Unix ns, 0 for none.
type outboundDoc struct {
	PaymentID    string `bson:"_id"`
	EventID      string `bson:"event_id"`
	Type         string `bson:"type"`
	Body         []byte `bson:"body"`
	CreatedAt    int64  `bson:"created_at"`
	Attempts     int    `bson:"attempts"`
	NextAt       int64  `bson:"next_at"`
	ClaimedUntil int64  `bson:"claimed_until"`
	DeliveredAt  int64  `bson:"delivered_at"`
	GaveUpAt     int64  `bson:"gave_up_at"`
	LastError    string `bson:"last_error"`
}

func toOutboundDoc(c booking.OutboundCallback) outboundDoc {
	return outboundDoc{
		PaymentID: c.PaymentID, EventID: c.EventID, Type: string(c.Type), Body: c.Body, CreatedAt: nanos(c.CreatedAt),
		Attempts: c.Attempts, NextAt: nanos(c.NextAt), ClaimedUntil: nanos(c.ClaimedUntil),
		DeliveredAt: nanos(c.DeliveredAt), GaveUpAt: nanos(c.GaveUpAt), LastError: c.LastError,
	}
}

func (d outboundDoc) callback() booking.OutboundCallback {
	return booking.OutboundCallback{
		PaymentID: d.PaymentID, EventID: d.EventID, Type: booking.EventType(d.Type), Body: d.Body, CreatedAt: fromNanos(d.CreatedAt),
		Attempts: d.Attempts, NextAt: fromNanos(d.NextAt), ClaimedUntil: fromNanos(d.ClaimedUntil),
		DeliveredAt: fromNanos(d.DeliveredAt), GaveUpAt: fromNanos(d.GaveUpAt), LastError: d.LastError,
	}
}

// outboundDueAt selects what booking.OutboundCallback.Due allows at now.
func outboundDueAt(now time.Time) bson.D {
	n := nanos(now)
	return bson.D{
		{Key: "delivered_at", Value: int64(0)}, {Key: "gave_up_at", Value: int64(0)},
		{Key: "next_at", Value: bson.D{{Key: "$lte", Value: n}}},
		{Key: "claimed_until", Value: bson.D{{Key: "$lte", Value: n}}},
	}
}

func (t *tx) OutboundCallback(paymentID string) (booking.OutboundCallback, error) {
	var d outboundDoc
	if err := t.s.col(colOutbound).FindOne(t.ctx, byID(paymentID)).Decode(&d); err != nil {
		return booking.OutboundCallback{}, noDoc(err, booking.ErrCallbackNotFound, "read callback")
	}
	return d.callback(), nil
}

func (t *tx) DueCallbacks(now time.Time, limit int) ([]booking.OutboundCallback, error) {
	cur, err := t.s.col(colOutbound).Find(t.ctx, outboundDueAt(now), options.Find().
		SetSort(bson.D{{Key: "next_at", Value: 1}, {Key: "_id", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("read due callbacks: %w", err)
	}
	var docs []outboundDoc
	if err := cur.All(t.ctx, &docs); err != nil {
		return nil, fmt.Errorf("read due callbacks: %w", err)
	}
	list := make([]booking.OutboundCallback, len(docs))
	for i, d := range docs {
		list[i] = d.callback()
	}
	return list, nil
}

func (t *tx) InsertOutboundCallback(c booking.OutboundCallback) error {
	if _, err := t.s.col(colOutbound).InsertOne(t.ctx, toOutboundDoc(c)); err != nil {
		return fmt.Errorf("insert callback: %w", err)
	}
	return nil
}

func (t *tx) UpdateOutboundCallback(c booking.OutboundCallback) error {
	_, err := t.s.col(colOutbound).UpdateOne(t.ctx, byID(c.PaymentID), bson.D{{Key: "$set", Value: bson.D{
		{Key: "attempts", Value: c.Attempts}, {Key: "next_at", Value: nanos(c.NextAt)},
		{Key: "claimed_until", Value: nanos(c.ClaimedUntil)}, {Key: "delivered_at", Value: nanos(c.DeliveredAt)},
		{Key: "gave_up_at", Value: nanos(c.GaveUpAt)}, {Key: "last_error", Value: c.LastError},
	}}})
	if err != nil {
		return fmt.Errorf("update callback: %w", err)
	}
	return nil
}

// CallbacksDue reports whether any callback is due at now, with one
// indexed read.
func (s *Store) CallbacksDue(ctx context.Context, now time.Time) (bool, error) {
	return s.anyOf(ctx, colOutbound, outboundDueAt(now), "callbacks due")
}

// OutboundCallback returns a payment's callback.
func (s *Store) OutboundCallback(ctx context.Context, paymentID string) (booking.OutboundCallback, error) {
	var d outboundDoc
	if err := s.col(colOutbound).FindOne(ctx, byID(paymentID)).Decode(&d); err != nil {
		return booking.OutboundCallback{}, notFound(err, booking.ErrCallbackNotFound, "outbound callback")
	}
	return d.callback(), nil
}
