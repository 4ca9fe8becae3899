package web_test

import (
	"testing"

	"boxoffice/internal/testkit"
)

// TestPayRecordsItsProvider: Pay stores the name of the provider it pays
// through with the new payment (SPEC §15, §17: the sales report's method of
// an online booking), so that no reader has to guess it from the process's
// configuration, which may change while the payment stays.
func TestPayRecordsItsProvider(t *testing.T) {
	t.Run("sandbox", func(t *testing.T) {
		p := newApp(t).client().mustPay("A1")
		if p.Provider != "sandbox" {
			t.Errorf("payment provider %q, want sandbox", p.Provider)
		}
	})
	t.Run("stripe", func(t *testing.T) {
		a := newStripeApp(t, testkit.StripeMock(t))
		_, p := a.pay("A1")
		if p.Provider != "stripe" {
			t.Errorf("payment provider %q, want stripe", p.Provider)
		}
	})
}
