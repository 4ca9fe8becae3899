package mongo

import (
	"errors"
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// TestIsTicketCodeTaken checks the translation of a duplicate key without a
// server: by the error code and the key pattern, never the message.
func TestIsTicketCodeTaken(t *testing.T) {
	writeErr := func(code int, keyPattern bson.D) error {
		raw, err := bson.Marshal(bson.D{{Key: "index", Value: 0}, {Key: "code", Value: code}, {Key: "keyPattern", Value: keyPattern}})
		if err != nil {
			t.Fatal(err)
		}
		// The message names the ticket index in every case: it must not matter.
		msg := "E11000 duplicate key error collection: boxoffice.bookings index: " + ticketCodeIndex
		return fmt.Errorf("update booking: %w", mongo.WriteException{
			WriteErrors: mongo.WriteErrors{{Code: code, Message: msg, Raw: raw}},
		})
	}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"ticket code index", writeErr(11000, bson.D{{Key: "ticket_code", Value: 1}}), true},
		{"another unique index", writeErr(11000, bson.D{{Key: "hold_id", Value: 1}}), false},
		{"not a duplicate key", writeErr(112, bson.D{{Key: "ticket_code", Value: 1}}), false},
		{"no key pattern", writeErr(11000, nil), false},
		{"not a server error", errors.New("ticket_code"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isTicketCodeTaken(tt.err); got != tt.want {
				t.Errorf("isTicketCodeTaken(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
