package booking

import (
	"context"
	"time"
)

// AdmitTicketStep is the door's admit (SPEC §11), one atomic step: it
// reads the booking with the normalized ticket code and its show, Admit
// decides at the transaction's instant (d.Now is replaced by it), and an
// admission is written. Of two doors scanning one ticket at once, in any
// processes, one admits it and the other answers CheckinAlready: both
// write the booking, so in MongoDB one conflicts and runs again. An
// unknown code is ErrBookingNotFound. An admission changes no booking
// state, so it sends no mail.
func AdmitTicketStep(ctx context.Context, st Transactor, clock func() time.Time, code string, d DoorCheck, by string) (Checkin, error) {
	if code == "" {
		return Checkin{}, ErrBookingNotFound
	}
	var out Checkin
	err := st.Atomically(ctx, clock, func(tx Tx) error {
		d := d
		d.Now = tx.Now()
		b, err := tx.BookingByTicket(code)
		if err != nil {
			return err
		}
		sh, err := tx.ShowByID(b.ShowID)
		if err != nil {
			return err
		}
		c, changed := Admit(b, sh, d, by)
		if changed {
			// Cancelling the show serialises here too
			// (MarkShowCancelledStep): the door admits nobody after.
			if err := tx.Serialize("door:" + b.ShowID); err != nil {
				return err
			}
			if err := tx.SetBookingAdmitted(c.Booking); err != nil {
				return err
			}
		}
		out = c
		return nil
	})
	return out, err
}
