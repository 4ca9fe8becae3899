package booking

// PaymentTx is what the payment steps (start a payment, its checkout attempts, settle an event, refunds) read and write in a transaction.
type PaymentTx interface{}
