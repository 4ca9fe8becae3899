package storetest

import (
	"bytes"
	"context"
	"sync"
	"testing"
)

var keyTests = []test{
	{"MadeOnce", testSigningKeyMadeOnce},
	{"ManyAtOnce", testSigningKeyManyAtOnce},
}

// testSigningKeyMadeOnce: the first call stores its fresh key, later ones
// get it back whatever they offer; another name has its own key.
func testSigningKeyMadeOnce(t *testing.T, s store) {
	ctx := context.Background()
	first, err := s.SigningKey(ctx, "web", []byte("first-key-0123456789abcdef012345"))
	if err != nil {
		t.Fatalf("SigningKey: %v", err)
	}
	if string(first) != "first-key-0123456789abcdef012345" {
		t.Fatalf("first SigningKey = %q, want the fresh key it was given", first)
	}
	again, err := s.SigningKey(ctx, "web", []byte("second-key-0123456789abcdef01234"))
	if err != nil {
		t.Fatalf("SigningKey again: %v", err)
	}
	if !bytes.Equal(again, first) {
		t.Errorf("second SigningKey = %q, want the stored %q", again, first)
	}
	other, err := s.SigningKey(ctx, "other", []byte("other-key"))
	if err != nil {
		t.Fatalf("SigningKey(other): %v", err)
	}
	if string(other) != "other-key" {
		t.Errorf("SigningKey(other) = %q, want its own fresh key", other)
	}
}

// testSigningKeyManyAtOnce: processes starting together all get the same
// key, one of those offered.
func testSigningKeyManyAtOnce(t *testing.T, s store) {
	const n = 8
	keys := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			keys[i], errs[i] = s.SigningKey(context.Background(), "web", []byte{byte('a' + i), 1, 2, 3})
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("SigningKey %d: %v", i, errs[i])
		}
		if !bytes.Equal(keys[i], keys[0]) {
			t.Fatalf("SigningKey %d = %x, but %x for the first", i, keys[i], keys[0])
		}
	}
	if len(keys[0]) != 4 || keys[0][0] < 'a' || keys[0][0] >= 'a'+n {
		t.Errorf("the key %x is none of those offered", keys[0])
	}
}
