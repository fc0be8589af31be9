// This file holds the body rules of the plaintext, json, db, queries and
// updates types, as TechEmpower's verifier grades them: keys compared
// without case, extra keys and extra bytes a warning, a missing key or a
// value of the wrong kind a failure. Numbers are decoded as json.Number so
// that an id of 1.5 or "7" is caught as not an integer.
package tfb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

func checkPlaintext(r *response) []Problem {
	if len(r.body) == 0 {
		return []Problem{{Fail, "body", r.url, "empty response"}}
	}
	want := []byte("hello, world!")
	if !bytes.Contains(bytes.ToLower(r.body), want) {
		return []Problem{{Fail, "body", r.url, fmt.Sprintf("%q does not contain 'Hello, World!'", clip(r.body))}}
	}
	if extra := len(r.body) - len(want); extra > 0 {
		return []Problem{{Warn, "body", r.url, fmt.Sprintf("%d bytes more than required", extra)}}
	}
	return nil
}

// decode parses a JSON body keeping numbers as json.Number.
func decode(r *response) (any, []Problem) {
	if len(r.body) == 0 {
		return nil, []Problem{{Fail, "body", r.url, "empty response"}}
	}
	d := json.NewDecoder(bytes.NewReader(r.body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, []Problem{{Fail, "JSON", r.url, "invalid JSON: " + err.Error()}}
	}
	if d.More() {
		return nil, []Problem{{Fail, "JSON", r.url, "invalid JSON: data after the value"}}
	}
	return v, nil
}

func checkHelloWorld(r *response) []Problem {
	v, ps := decode(r)
	if ps != nil {
		return ps
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return []Problem{{Fail, "JSON", r.url, "not a JSON object"}}
	}
	lower := map[string]string{}
	for k, val := range obj {
		s, ok := val.(string)
		if !ok {
			return []Problem{{Fail, "JSON", r.url, fmt.Sprintf("key %q is not a string", k)}}
		}
		lower[strings.ToLower(k)] = strings.ToLower(s)
	}
	msg, ok := lower["message"]
	if !ok {
		return []Problem{{Fail, "JSON", r.url, "missing required key 'message'"}}
	}
	if msg != "hello, world!" {
		return []Problem{{Fail, "JSON", r.url, fmt.Sprintf("message %q, want 'hello, world!'", msg)}}
	}
	if len(lower) > 1 {
		return []Problem{{Warn, "JSON", r.url, fmt.Sprintf("%d keys besides 'message'", len(lower)-1)}}
	}
	return nil
}

func checkWorldObject(r *response) []Problem {
	v, ps := decode(r)
	if ps != nil {
		return ps
	}
	// An array of one object passes with a warning, as theirs.
	if list, ok := v.([]any); ok {
		ps = append(ps, Problem{Warn, "JSON", r.url, "a JSON array, expected an object"})
		if len(list) == 0 {
			return append(ps, Problem{Fail, "JSON", r.url, "an empty array"})
		}
		v = list[0]
	}
	return append(ps, worldObject(v, r.url, Fail)...)
}

// worldObject checks one {"id":…,"randomNumber":…} object.
func worldObject(v any, url, severity string) []Problem {
	obj, ok := v.(map[string]any)
	if !ok {
		return []Problem{{severity, "JSON", url, fmt.Sprintf("expected a JSON object, got %.20v", v)}}
	}
	lower := map[string]any{}
	for k, val := range obj {
		lower[strings.ToLower(k)] = val
	}
	var ps []Problem
	for _, k := range []string{"id", "randomnumber"} {
		if _, ok := lower[k]; !ok {
			ps = append(ps, Problem{severity, "JSON", url, "missing required key " + k})
		}
	}
	if ps != nil {
		return ps
	}
	if len(lower) > 2 {
		ps = append(ps, Problem{Warn, "JSON", url, "extra keys in the World object"})
	}
	id, err := integer(lower["id"])
	switch {
	case err != nil:
		ps = append(ps, Problem{severity, "JSON", url, "id " + err.Error()})
	case id < 1 || id > 10000:
		ps = append(ps, Problem{Warn, "JSON", url, fmt.Sprintf("id %d not in 1..10000", id)})
	}
	rn, err := integer(lower["randomnumber"])
	switch {
	case err != nil:
		ps = append(ps, Problem{severity, "JSON", url, "randomNumber " + err.Error()})
	case rn > 10000:
		ps = append(ps, Problem{Warn, "JSON", url, fmt.Sprintf("randomNumber %d over 10000", rn)})
	}
	return ps
}

func integer(v any) (int64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("is %T, not an integer", v)
	}
	i, err := n.Int64()
	if err != nil {
		return 0, fmt.Errorf("%s is not an integer", n)
	}
	return i, nil
}

// checkWorldList checks a JSON array of want World objects; at most five
// bad objects are reported, as theirs.
func checkWorldList(r *response, want int, severity string) []Problem {
	v, ps := decode(r)
	if ps != nil {
		return ps
	}
	list, ok := v.([]any)
	if !ok {
		return append([]Problem{{severity, "JSON", r.url, "top-level JSON is an object, not an array"}}, worldObject(v, r.url, severity)...)
	}
	if len(list) != want {
		ps = append(ps, Problem{severity, "row count", r.url, fmt.Sprintf("%d objects, want %d", len(list), want)})
	}
	bad := 0
	for _, o := range list {
		if bad == 5 {
			break
		}
		if f := worldObject(o, r.url, severity); f != nil {
			ps = append(ps, f...)
			bad++
		}
	}
	return ps
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}
