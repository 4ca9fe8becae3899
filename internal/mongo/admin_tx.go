package mongo

import (
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"boxoffice/internal/booking"
)

// The admin account steps' reads and writes (booking.AdminTx).

func (t *tx) AdminAccount(id string) (booking.Admin, error) {
	var d adminDoc
	if err := t.s.col(colAdmins).FindOne(t.ctx, byID(id)).Decode(&d); err != nil {
		return booking.Admin{}, noDoc(err, booking.ErrAdminNotFound, "read admin")
	}
	return d.admin(), nil
}

func (t *tx) AdminEmailTaken(email string) (bool, error) {
	err := t.s.col(colAdmins).FindOne(t.ctx, bson.D{{Key: "email", Value: email}},
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, mongo.ErrNoDocuments):
		return false, nil
	default:
		return false, fmt.Errorf("read admin by email: %w", err)
	}
}

func (t *tx) CountAdmins() (int, error) {
	n, err := t.s.col(colAdmins).CountDocuments(t.ctx, isAdminRole)
	if err != nil {
		return 0, fmt.Errorf("count admins: %w", err)
	}
	return int(n), nil
}

// InsertAdmin inserts under the unique email index: a concurrent insert
// of the same email in another transaction is a WriteConflict, and the
// step runs again and finds the email taken.
func (t *tx) InsertAdmin(a booking.Admin) error {
	_, err := t.s.col(colAdmins).InsertOne(t.ctx, adminDoc{
		ID: a.ID, Email: a.Email, PasswordHash: a.PasswordHash, Role: string(a.Role), SessionVersion: a.SessionVersion,
		CreatedAt: nanos(a.CreatedAt), UpdatedAt: nanos(a.UpdatedAt),
	})
	if err != nil {
		return fmt.Errorf("insert admin: %w", err)
	}
	return nil
}

func (t *tx) SetAdmin(a booking.Admin) error {
	_, err := t.s.col(colAdmins).UpdateOne(t.ctx, byID(a.ID), bson.D{{Key: "$set", Value: bson.D{
		{Key: "password_hash", Value: a.PasswordHash},
		{Key: "role", Value: string(a.Role)},
		{Key: "session_version", Value: a.SessionVersion},
		{Key: "updated_at", Value: nanos(a.UpdatedAt)},
	}}})
	if err != nil {
		return fmt.Errorf("update admin: %w", err)
	}
	return nil
}

func (t *tx) DeleteAdminAccount(id string) error {
	if _, err := t.s.col(colAdmins).DeleteOne(t.ctx, byID(id)); err != nil {
		return fmt.Errorf("delete admin: %w", err)
	}
	return nil
}
