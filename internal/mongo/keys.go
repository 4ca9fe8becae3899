package mongo

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
)

// colKeys holds the secret keys every process shares, one document a key,
// named by its _id.
const colKeys = "keys"

type keyDoc struct {
	Name  string `bson:"_id"`
	Value []byte `bson:"value"`
}

// SigningKey returns the key stored under name, storing fresh first when
// there is none: every process gets the same key, however many start at
// once. The upsert's filter is the _id alone, so the server retries an
// upsert that lost a race on the unique _id index instead of failing with
// a duplicate key; a duplicate key that still reaches us means the key now
// exists, and it is read.
func (s *Store) SigningKey(ctx context.Context, name string, fresh []byte) ([]byte, error) {
	if len(fresh) == 0 {
		return nil, errors.New("mongo: signing key: no fresh key to store")
	}
	// At majority, whatever the URI says: a key acknowledged to one
	// process is then the key every process finds, also after a failover.
	col := s.db.Collection(colKeys, options.Collection().SetWriteConcern(writeconcern.Majority()))
	var doc keyDoc
	err := col.FindOneAndUpdate(ctx, bson.D{{Key: "_id", Value: name}},
		bson.D{{Key: "$setOnInsert", Value: bson.D{{Key: "value", Value: fresh}}}},
		options.FindOneAndUpdate().SetUpsert(true).SetReturnDocument(options.After),
	).Decode(&doc)
	if mongo.IsDuplicateKeyError(err) {
		// Read at majority: a key read at "local" during a failover could
		// be one that is then rolled back.
		majority := s.db.Collection(colKeys, options.Collection().SetReadConcern(readconcern.Majority()))
		err = majority.FindOne(ctx, bson.D{{Key: "_id", Value: name}}).Decode(&doc)
	}
	if err != nil {
		return nil, fmt.Errorf("mongo: signing key: %w", err)
	}
	if len(doc.Value) == 0 {
		return nil, fmt.Errorf("mongo: signing key %q is stored empty", name)
	}
	return doc.Value, nil
}
