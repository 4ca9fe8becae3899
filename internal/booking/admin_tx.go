package booking

// AdminTx is what the admin account steps read and write in a transaction.
type AdminTx interface{}
