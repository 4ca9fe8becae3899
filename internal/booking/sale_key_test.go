package booking

import "testing"

// TestSaleKeysAreTheCancellations: whatever the hold, the key a settlement
// serialises on is one of those a cancellation of its show writes, and
// holds spread over them.
func TestSaleKeysAreTheCancellations(t *testing.T) {
	written := map[string]bool{}
	for shard := range saleShards {
		written[saleShardKey("s1", shard)] = true
	}
	used := map[string]bool{}
	for range 2000 {
		k := saleKey("s1", NewID())
		if !written[k] {
			t.Fatalf("a settlement serialises on %q, which cancelling s1 never writes", k)
		}
		used[k] = true
	}
	if len(used) != saleShards {
		t.Errorf("2000 holds used %d of the %d keys", len(used), saleShards)
	}
	if saleKey("s1", "h1") == saleKey("s2", "h1") {
		t.Error("two shows share a key")
	}
}
