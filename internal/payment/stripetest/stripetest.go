// Package stripetest helps tests talk to stripe-mock and stand in for
// Stripe's webhooks. stripe-mock answers the API with Stripe's own fixtures
// but keeps no state and sends no events, so a test records what the
// provider asked and was answered (Recorder), builds the event Stripe would
// send from those answers (Event), and signs it as Stripe does with
// stripe-go's webhook.GenerateTestSignedPayload (Sign).
package stripetest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"
)

// WebhookSecret and SecretKey are the test's Stripe credentials.
const (
	WebhookSecret = "whsec_test_boxoffice"
	SecretKey     = "sk_test_boxoffice"
)

// Call is one API request the provider made and the answer it got.
type Call struct {
	Method, Path   string
	Form           url.Values // the request's form body
	IdempotencyKey string
	Status         int
	Response       map[string]any // the answer's JSON object
}

// Recorder is an http.RoundTripper that records every call going through
// it to the real server behind.
type Recorder struct {
	mu    sync.Mutex
	calls []Call
	stubs []stub
}

// stub is an answer Stripe would give that stripe-mock, which keeps no
// state, cannot: a session paid meanwhile, a refusal.
type stub struct {
	prefix string
	status int
	body   string
}

// StubNext answers the next call whose method and path start with prefix
// with status and the JSON body, instead of passing it on; the call is
// recorded as any other.
func (r *Recorder) StubNext(prefix string, status int, body string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stubs = append(r.stubs, stub{prefix, status, body})
}

// takeStub removes and returns the first stub for req.
func (r *Recorder) takeStub(req *http.Request) (stub, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, st := range r.stubs {
		if strings.HasPrefix(req.Method+" "+req.URL.Path, st.prefix) {
			r.stubs = append(r.stubs[:i], r.stubs[i+1:]...)
			return st, true
		}
	}
	return stub{}, false
}

// Client is an HTTP client whose calls the recorder records.
func (r *Recorder) Client() *http.Client {
	return &http.Client{Transport: r, Timeout: 20 * time.Second}
}

// RoundTrip sends req and records it with its answer.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	var res *http.Response
	if st, ok := r.takeStub(req); ok {
		res = &http.Response{
			StatusCode: st.status, Status: http.StatusText(st.status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_stub"}},
			Body:   io.NopCloser(strings.NewReader(st.body)), Request: req,
		}
	} else {
		var err error
		if res, err = http.DefaultTransport.RoundTrip(req); err != nil {
			return nil, err
		}
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(answer))
	form, _ := url.ParseQuery(string(body))
	c := Call{Method: req.Method, Path: req.URL.Path, Form: form, IdempotencyKey: req.Header.Get("Idempotency-Key"), Status: res.StatusCode}
	_ = json.Unmarshal(answer, &c.Response)
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
	return res, nil
}

// Calls returns the recorded calls whose method and path start as given
// ("POST /v1/checkout/sessions"); "" returns all.
func (r *Recorder) Calls(prefix string) []Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Call
	for _, c := range r.calls {
		if strings.HasPrefix(c.Method+" "+c.Path, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// Last is the last recorded call matching prefix; the test fails without
// one.
func (r *Recorder) Last(t testing.TB, prefix string) Call {
	t.Helper()
	calls := r.Calls(prefix)
	if len(calls) == 0 {
		t.Fatalf("no %s call was made to Stripe", prefix)
	}
	return calls[len(calls)-1]
}

// Session is the Checkout Session the last create call was answered with,
// completed with what stripe-mock leaves out or cannot know: the metadata
// and amounts sent, and the outcome a moviegoer chose (status,
// payment_status).
func (r *Recorder) Session(t testing.TB, status, paymentStatus string) map[string]any {
	t.Helper()
	c := r.Last(t, "POST /v1/checkout/sessions")
	cs := clone(c.Response)
	meta := map[string]any{}
	total := int64(0)
	for key, v := range c.Form {
		if k, ok := strings.CutPrefix(key, "metadata["); ok {
			meta[strings.TrimSuffix(k, "]")] = v[0]
		}
	}
	for i := 0; ; i++ {
		prefix := "line_items[" + itoa(i) + "]"
		amount, qty := c.Form.Get(prefix+"[price_data][unit_amount]"), c.Form.Get(prefix+"[quantity]")
		if amount == "" {
			break
		}
		total += atoi(amount) * atoi(qty)
		cs["currency"] = c.Form.Get(prefix + "[price_data][currency]")
	}
	cs["metadata"], cs["amount_total"], cs["amount_subtotal"] = meta, total, total
	cs["client_reference_id"] = c.Form.Get("client_reference_id")
	cs["status"], cs["payment_status"] = status, paymentStatus
	return cs
}

// Event is the webhook body Stripe sends for object: a fresh evt_ id, the
// API version stripe-go v85 expects unless apiVersion is given.
func Event(t testing.TB, typ string, object map[string]any, apiVersion ...string) []byte {
	t.Helper()
	v := stripe.APIVersion
	if len(apiVersion) > 0 {
		v = apiVersion[0]
	}
	body, err := json.Marshal(map[string]any{
		"id": "evt_" + randomID(), "object": "event", "api_version": v, "type": typ,
		"created": time.Now().Unix(), "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": object},
	})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// Sign is the Stripe-Signature header of body signed with secret at at.
func Sign(body []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: at}).Header
}

// Refund is the refund object of the last refund call, as a refund event
// carries it, with the status and failure reason given.
func (r *Recorder) Refund(t testing.TB, status, failureReason string) map[string]any {
	t.Helper()
	c := r.Last(t, "POST /v1/refunds")
	ref := clone(c.Response)
	meta := map[string]any{}
	for key, v := range c.Form {
		if k, ok := strings.CutPrefix(key, "metadata["); ok {
			meta[strings.TrimSuffix(k, "]")] = v[0]
		}
	}
	ref["metadata"], ref["status"] = meta, status
	if failureReason != "" {
		ref["failure_reason"] = failureReason
	}
	return ref
}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	if out == nil {
		out = map[string]any{}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

func randomID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
