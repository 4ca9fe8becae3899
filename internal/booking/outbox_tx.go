package booking

// OutboxTx is what the outboxes' steps (mail, the sandbox's callbacks) read and write in a transaction.
type OutboxTx interface{}
