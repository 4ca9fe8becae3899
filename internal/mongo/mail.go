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

// colMail is the outbox: one document per mail, its _id the mail's id.
// Index mail_due serves the sender's reads and claims.
const colMail = "mail"

// mailDoc is a mail; times are Unix ns, 0 for none.
type mailDoc struct {
	ID           string `bson:"_id"`
	Kind         string `bson:"kind"`
	BookingID    string `bson:"booking_id"`
	To           string `bson:"to"`
	CreatedAt    int64  `bson:"created_at"`
	Attempts     int    `bson:"attempts"`
	NextAt       int64  `bson:"next_at"`
	ClaimedUntil int64  `bson:"claimed_until"`
	SentAt       int64  `bson:"sent_at"`
	GaveUpAt     int64  `bson:"gave_up_at"`
	LastError    string `bson:"last_error"`
}

func toMailDoc(m booking.Mail) mailDoc {
	return mailDoc{
		ID: m.ID, Kind: string(m.Kind), BookingID: m.BookingID, To: m.To, CreatedAt: nanos(m.CreatedAt),
		Attempts: m.Attempts, NextAt: nanos(m.NextAt), ClaimedUntil: nanos(m.ClaimedUntil),
		SentAt: nanos(m.SentAt), GaveUpAt: nanos(m.GaveUpAt), LastError: m.LastError,
	}
}

func (d mailDoc) mail() booking.Mail {
	return booking.Mail{
		ID: d.ID, Kind: booking.MailKind(d.Kind), BookingID: d.BookingID, To: d.To, CreatedAt: fromNanos(d.CreatedAt),
		Attempts: d.Attempts, NextAt: fromNanos(d.NextAt), ClaimedUntil: fromNanos(d.ClaimedUntil),
		SentAt: fromNanos(d.SentAt), GaveUpAt: fromNanos(d.GaveUpAt), LastError: d.LastError,
	}
}

// dueAt selects what booking.Mail.Due allows at now.
func dueAt(now time.Time) bson.D {
	n := nanos(now)
	return bson.D{
		{Key: "sent_at", Value: int64(0)}, {Key: "gave_up_at", Value: int64(0)},
		{Key: "next_at", Value: bson.D{{Key: "$lte", Value: n}}},
		{Key: "claimed_until", Value: bson.D{{Key: "$lte", Value: n}}},
	}
}

// MailDue reports whether any mail is due at now, with one indexed read.
func (s *Store) MailDue(ctx context.Context, now time.Time) (bool, error) {
	return s.anyOf(ctx, colMail, dueAt(now), "mail due")
}

// anyOf reports whether a document of col matches filter, reading one _id.
func (s *Store) anyOf(ctx context.Context, col string, filter bson.D, op string) (bool, error) {
	err := s.col(col).FindOne(ctx, filter, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	switch {
	case errors.Is(err, mongo.ErrNoDocuments):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("mongo: %s: %w", op, err)
	}
	return true, nil
}

// Mail returns one mail.
func (s *Store) Mail(ctx context.Context, id string) (booking.Mail, error) {
	var d mailDoc
	if err := s.col(colMail).FindOne(ctx, byID(id)).Decode(&d); err != nil {
		return booking.Mail{}, notFound(err, booking.ErrMailNotFound, "mail")
	}
	return d.mail(), nil
}
