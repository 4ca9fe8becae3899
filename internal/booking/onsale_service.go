package booking

import (
	"context"
	"crypto/rand"
	"time"
)

// The on-sale (SPEC §18) as the web layer uses it: the admin's steps, and
// the queue's reads and its join.

// CreateOnSale stores a new on-sale made from r, with a fresh id and key.
func (s *Service) CreateOnSale(ctx context.Context, r OnSaleRequest) (OnSale, error) {
	r.ID = s.newID()
	r.Key = make([]byte, 32)
	_, _ = rand.Read(r.Key) // crypto/rand.Read never fails on supported platforms
	return CreateOnSaleStep(ctx, s.store, s.clock.Now, r)
}

// PauseOnSale pauses admission from now.
func (s *Service) PauseOnSale(ctx context.Context, id string) (OnSale, error) {
	return PauseOnSaleStep(ctx, s.store, s.clock.Now, id)
}

// ResumeOnSale resumes admission.
func (s *Service) ResumeOnSale(ctx context.Context, id string) (OnSale, error) {
	return ResumeOnSaleStep(ctx, s.store, s.clock.Now, id)
}

// SetOnSaleRate changes the admission rate from now.
func (s *Service) SetOnSaleRate(ctx context.Context, id string, rate int) (OnSale, error) {
	return SetOnSaleRateStep(ctx, s.store, s.clock.Now, id, rate)
}

// CloseOnSale ends the on-sale now.
func (s *Service) CloseOnSale(ctx context.Context, id string) (OnSale, error) {
	return CloseOnSaleStep(ctx, s.store, s.clock.Now, id)
}

// ExtendOnSale moves the on-sale's closing later.
func (s *Service) ExtendOnSale(ctx context.Context, id string, closesAt time.Time) (OnSale, error) {
	return ExtendOnSaleStep(ctx, s.store, s.clock.Now, id, closesAt)
}

// OnSale returns one on-sale.
func (s *Service) OnSale(ctx context.Context, id string) (OnSale, error) {
	return s.store.OnSale(ctx, id)
}

// ListOnSales lists every on-sale, the latest opening first.
func (s *Service) ListOnSales(ctx context.Context) ([]OnSale, error) { return s.store.ListOnSales(ctx) }

// OpenOnSales lists the on-sales open at now.
func (s *Service) OpenOnSales(ctx context.Context, now time.Time) ([]OnSale, error) {
	return s.store.OpenOnSales(ctx, now)
}

// JoinQueue puts a visitor in o's queue at the service's clock: one row.
// A closed on-sale takes no one (ErrQueueClosed).
func (s *Service) JoinQueue(ctx context.Context, o OnSale) (QueueEntry, error) {
	now := s.clock.Now()
	if o.Closed(now) {
		return QueueEntry{}, ErrQueueClosed
	}
	e := NewQueueEntry(o, s.newID(), now)
	if err := s.store.JoinQueue(ctx, e); err != nil {
		return QueueEntry{}, err
	}
	return e, nil
}

// QueuePosition is e's position in its queue, from 0: its entry's
// number, one point read. An entry not numbered yet has the queue
// numbered on (NumberQueueStep), a batch at a time, until it is or
// QueueNumberSteps steps have run; false when it still has none (before
// SettlingMargin after T0, or a queue too far behind), and the visitor
// waits without a position until their next request. One request of this
// process numbers a queue at a time: the others wait for it and read
// again, so that a crowd asking at once runs the steps its places need,
// not one each, nor write conflicts with each other.
func (s *Service) QueuePosition(ctx context.Context, e QueueEntry) (int, bool, error) {
	p, ok, err := s.store.QueuePosition(ctx, e.OnSaleID, e.JoinID)
	if err != nil || ok {
		return p, ok, err
	}
	release, err := s.queues.enter(ctx, e.OnSaleID)
	if err != nil {
		return 0, false, err
	}
	defer release()
	for i := 0; ; i++ {
		p, ok, err := s.store.QueuePosition(ctx, e.OnSaleID, e.JoinID)
		if err != nil || ok || i == QueueNumberSteps {
			return p, ok, err
		}
		n, err := NumberQueueStep(ctx, s.store, s.clock.Now, e.OnSaleID, QueueNumberBatch)
		if err != nil {
			return 0, false, err
		}
		if n == 0 {
			return 0, false, nil
		}
	}
}

// CountQueue counts an on-sale's queue.
func (s *Service) CountQueue(ctx context.Context, id string) (int, error) {
	return s.store.CountQueue(ctx, id)
}

// PassKey returns the key the on-sales' passes and join cookies are
// signed with, made by the first process to ask and kept in the store
// under its own name, so that any process checks what another signed.
func (s *Service) PassKey(ctx context.Context) ([]byte, error) {
	fresh := make([]byte, 32)
	_, _ = rand.Read(fresh)
	return s.store.SigningKey(ctx, "pass", fresh)
}

// SetSalesOpening sets a show's sales opening to at (zero: none).
func (s *Service) SetSalesOpening(ctx context.Context, showID string, at time.Time) (Show, error) {
	return SetSalesOpeningStep(ctx, s.store, s.clock.Now, showID, at)
}
