package booking

import (
	"context"
	"time"
)

// Transactor is the transaction-scoped port of the store (golang/pkgsite's
// database.Transact): a step of SPEC §2 reads what its rule needs with
// small Tx reads, calls the domain's decision, and writes the outcome
// with small Tx writes, all inside Atomically. Each step is written once,
// here in the domain; an adapter makes the transaction atomic its own way
// (BEGIN IMMEDIATE in SQLite, WithTransaction in MongoDB) and translates
// the reads and writes. It never orders a step or decides.
type Transactor interface {
	// Atomically runs step in one transaction: all of its writes happen
	// or none does, also when several processes share the database. The
	// store reads clock once per transaction (SQLite: once it holds the
	// write lock; MongoDB: before the first attempt) and gives the step
	// that instant as Tx.Now, the same on every run. step may run more
	// than once (MongoDB runs it again after a transient error), so it
	// does nothing but Tx calls: it reads no clock and mints no id. An
	// error step returns rolls the transaction back and is returned as
	// it is; the store's own errors come wrapped with the adapter's name.
	Atomically(ctx context.Context, clock func() time.Time, step func(Tx) error) error
}

// Tx is one transaction as a step sees it. Reads see the transaction's
// own writes. Not-found reads answer the domain's sentinels
// (ErrShowNotFound, ErrHoldNotFound, …).
type Tx interface {
	// Now is the transaction's instant: what the step decides at.
	Now() time.Time
	// Serialize makes two transactions that serialise on the same key
	// never both commit: one of them conflicts and runs again after the
	// other. A step calls it where it decides on records it only reads
	// (a row's neighbours for the gap rule, an address's holds, an
	// owner's previous hold that may not exist yet), since MongoDB's
	// snapshot isolation conflicts only on records both write. It is a
	// guard document written in MongoDB, and nothing in SQLite, whose
	// one writer at a time already serialises every step.
	Serialize(key string) error

	HoldTx
	PaymentTx
	DoorTx
	ShowTx
	AdminTx
	OutboxTx
	CatalogTx
	OnSaleTx
	QueueTx
	TypesTx
	ReserveTx
	CounterTx
}
