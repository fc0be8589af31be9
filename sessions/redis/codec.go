// This file defines how a session is serialized into its Redis value.
//
// The default JSONCodec writes a compact, language-neutral document that
// redis-cli shows readably: {"v":[[key,value],...],"f":[[key,value],...],
// "l":lifetime-ns}. JSON has one number type, so numbers are decoded as
// int64 when they are whole and fit, else float64; the sessions typed
// getters (GetInt, GetInt64, GetFloat64...) accept both, but a plain
// Get("n").(int) does not survive the round trip. GobCodec keeps Go types
// exactly (int stays int) at the price of registering custom types with
// gob.Register and a larger, Go-only value. The expiry is not part of the
// value: the key's TTL is the expiry.

package redis

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/vireo-go/vireo/sessions"
)

// Codec turns a session's content into a Redis value and back.
type Codec interface {
	Marshal(s sessions.Snapshot) ([]byte, error)
	Unmarshal(data []byte) (sessions.Snapshot, error)
}

// JSONCodec is the default Codec. It writes a compact JSON document that
// redis-cli shows readably. JSON has one number type, so numbers come back
// as int64 when they are whole and fit, else float64: the typed getters
// (GetInt, GetInt64, GetFloat64...) accept both, but Get("n").(int) does
// not survive the round trip; use GobCodec to keep Go types exactly.
type JSONCodec struct{}

type jsonRecord struct {
	Values   [][2]any      `json:"v,omitempty"`
	Flashes  [][2]any      `json:"f,omitempty"`
	Lifetime time.Duration `json:"l,omitempty"`
}

// Marshal encodes s without its expiry.
func (JSONCodec) Marshal(s sessions.Snapshot) ([]byte, error) {
	r := jsonRecord{Lifetime: s.Lifetime}
	for _, e := range s.Values {
		r.Values = append(r.Values, [2]any{e.Key, e.Value})
	}
	for _, e := range s.Flashes {
		r.Flashes = append(r.Flashes, [2]any{e.Key, e.Value})
	}
	return json.Marshal(r)
}

// Unmarshal decodes what Marshal wrote.
func (JSONCodec) Unmarshal(data []byte) (sessions.Snapshot, error) {
	var r jsonRecord
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return sessions.Snapshot{}, err
	}
	s := sessions.Snapshot{Lifetime: r.Lifetime}
	var err error
	if s.Values, err = decodeEntries(r.Values); err != nil {
		return s, err
	}
	s.Flashes, err = decodeEntries(r.Flashes)
	return s, err
}

func decodeEntries(raw [][2]any) ([]sessions.Entry, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	out := make([]sessions.Entry, 0, len(raw))
	for _, kv := range raw {
		key, ok := kv[0].(string)
		if !ok {
			return nil, fmt.Errorf("session key %v is not a string", kv[0])
		}
		out = append(out, sessions.Entry{Key: key, Value: plainNumbers(kv[1])})
	}
	return out, nil
}

// plainNumbers replaces json.Number values, at any depth, with int64 when
// whole and in range, else float64.
func plainNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return string(x)
	case []any:
		for i := range x {
			x[i] = plainNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = plainNumbers(x[k])
		}
	}
	return v
}

// GobCodec keeps Go types exactly. Values of custom types must be
// registered with gob.Register before they are stored.
type GobCodec struct{}

type gobRecord struct {
	Values   []sessions.Entry
	Flashes  []sessions.Entry
	Lifetime time.Duration
}

// Marshal encodes s without its expiry.
func (GobCodec) Marshal(s sessions.Snapshot) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(gobRecord{Values: s.Values, Flashes: s.Flashes, Lifetime: s.Lifetime})
	return b.Bytes(), err
}

// Unmarshal decodes what Marshal wrote.
func (GobCodec) Unmarshal(data []byte) (sessions.Snapshot, error) {
	var r gobRecord
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&r); err != nil {
		return sessions.Snapshot{}, err
	}
	return sessions.Snapshot{Values: r.Values, Flashes: r.Flashes, Lifetime: r.Lifetime}, nil
}

// errCorrupt wraps a value the codec cannot read.
var errCorrupt = errors.New("sessions/redis: undecodable session value")
