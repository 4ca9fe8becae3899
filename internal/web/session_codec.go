package web

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/alexedwards/scs/v2"
)

// sessionCodec stores a session whose values are all strings (every
// session this package writes: visitor, CSRF token, admin) as
// length-prefixed bytes, and anything else as scs's gob. Every request with
// a cookie decodes its session, and gob decoding builds its type
// description afresh each time, which this codec spares every request:
// measured on the hold route by ../shared/bench/sidebyside.sh
// (docs/PERFORMANCE.md, "The session codec"). Sessions saved in scs's gob
// still decode.
type sessionCodec struct{}

// errSessionData marks a stored session that cannot be decoded: the
// middleware then starts a new session instead of failing every request
// of that cookie until it expires.
var errSessionData = errors.New("web: undecodable session data")

// stringSessionMagic starts a session in this codec's own format. A gob
// stream never starts with a zero byte (it starts with a message length,
// which is never zero), so the two formats cannot be confused.
const stringSessionMagic = "\x00bs1"

func (sessionCodec) Encode(deadline time.Time, values map[string]any) ([]byte, error) {
	size := len(stringSessionMagic) + 16 + binary.MaxVarintLen64
	for k, v := range values {
		s, ok := v.(string)
		if !ok {
			return scs.GobCodec{}.Encode(deadline, values)
		}
		size += len(k) + len(s) + 2*binary.MaxVarintLen64
	}
	d, err := deadline.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, size)
	b = append(b, stringSessionMagic...)
	b = appendBytes(b, d)
	b = binary.AppendUvarint(b, uint64(len(values)))
	for k, v := range values {
		b = appendBytes(b, []byte(k))
		b = appendBytes(b, []byte(v.(string)))
	}
	return b, nil
}

func (sessionCodec) Decode(b []byte) (time.Time, map[string]any, error) {
	rest, ok := bytes.CutPrefix(b, []byte(stringSessionMagic))
	if !ok {
		deadline, values, err := scs.GobCodec{}.Decode(b)
		if err != nil {
			return time.Time{}, nil, fmt.Errorf("%w: %w", errSessionData, err)
		}
		return deadline, values, nil
	}
	r := sessionReader{rest: rest}
	var deadline time.Time
	if err := deadline.UnmarshalBinary(r.bytes()); err != nil && r.err == nil {
		r.err = err
	}
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.rest)/2) { // each pair takes at least two bytes
		r.err = errors.New("too many values")
	}
	values := make(map[string]any, min(n, 16))
	for i := uint64(0); i < n && r.err == nil; i++ {
		k := string(r.bytes())
		v := string(r.bytes())
		if _, dup := values[k]; dup && r.err == nil {
			r.err = fmt.Errorf("key %q twice", k)
		}
		values[k] = v
	}
	if r.err == nil && len(r.rest) > 0 {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		return time.Time{}, nil, fmt.Errorf("%w: %w", errSessionData, r.err)
	}
	return deadline, values, nil
}

func appendBytes(b, s []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// sessionReader reads sessionCodec's fields; after the first error every
// read returns nothing and the error stays.
type sessionReader struct {
	rest []byte
	err  error
}

func (r *sessionReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.rest)
	if n <= 0 {
		r.err = errors.New("bad length")
		return 0
	}
	r.rest = r.rest[n:]
	return v
}

func (r *sessionReader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.rest)) {
		r.err = errors.New("truncated")
		return nil
	}
	s := r.rest[:n:n]
	r.rest = r.rest[n:]
	return s
}
