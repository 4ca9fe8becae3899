package booking

// DoorTx is what the door's admit step reads and writes in a transaction.
type DoorTx interface{}
