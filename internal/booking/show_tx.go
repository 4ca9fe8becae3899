package booking

// ShowTx is what the show steps (create, delete, cancel in steps) read and write in a transaction.
type ShowTx interface{}
