// This file converts stored values for the typed getters.
//
// A value does not always come back with the type it was stored with: a
// remote Database that serializes with JSON returns every number as
// float64 (or json.Number), and a form value may have been stored as a
// string. The conversions accept every integer and float type, json.Number
// and decimal strings, and refuse anything lossy (a fraction or an
// out-of-range number asked for as an int), returning the default instead.

package sessions

import (
	"encoding/json"
	"math"
	"strconv"
)

// toInt64 converts v to an int64 without loss.
func toInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint:
		return uintToInt64(uint64(x))
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		return uintToInt64(x)
	case float32:
		return floatToInt64(float64(x))
	case float64:
		return floatToInt64(x)
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n, true
		}
		if f, err := x.Float64(); err == nil {
			return floatToInt64(f)
		}
	case string:
		if n, err := strconv.ParseInt(x, 10, 64); err == nil {
			return n, true
		}
	}
	return 0, false
}

func uintToInt64(u uint64) (int64, bool) {
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// floatToInt64 accepts only whole numbers inside the int64 range.
func floatToInt64(f float64) (int64, bool) {
	// -2^63 is exact in float64; 2^63 is the first value out of range.
	if f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return 0, false
	}
	return int64(f), true
}

// toFloat64 converts v to a float64.
func toFloat64(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	if n, ok := toInt64(v); ok {
		return float64(n), true
	}
	return 0, false
}

// toBool converts v to a bool; strings use strconv.ParseBool.
func toBool(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		b, err := strconv.ParseBool(x)
		return b, err == nil
	}
	return false, false
}

// toString converts v to a string; []byte is copied into one. Numbers are
// not strings: GetString of a number returns the default, whichever store
// the session came from.
func toString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), true
	}
	return "", false
}
