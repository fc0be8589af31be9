package core

import (
	"strconv"
	"testing"
)

// strconvAccepts is the definition the numeric constraints follow: what
// strconv parses in base 10 into the type's size.
func strconvAccepts(t paramType, s string) bool {
	var err error
	switch t {
	case typeInt:
		_, err = strconv.ParseInt(s, 10, strconv.IntSize)
	case typeUint:
		_, err = strconv.ParseUint(s, 10, strconv.IntSize)
	case typeInt64:
		_, err = strconv.ParseInt(s, 10, 64)
	case typeUint64:
		_, err = strconv.ParseUint(s, 10, 64)
	}
	return err == nil
}

var numericTypes = []paramType{typeInt, typeUint, typeInt64, typeUint64}

// TestNumericMatch checks the numeric constraints at their edges against
// strconv: the short form decided byte by byte and the long one left to
// strconv must answer as strconv does.
func TestNumericMatch(t *testing.T) {
	for _, s := range []string{
		"", "0", "7", "-", "+", "-0", "+1", "-1", "00042", "1_000", "0x1f", "1e3", " 1", "1 ", "١",
		"123456789", "1234567890", "-2147483648", "2147483648", "4294967295", "4294967296",
		"999999999999999999", "-999999999999999999", "+999999999999999999",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "000000000000000000001",
	} {
		for _, typ := range numericTypes {
			if got, want := typ.match(s), strconvAccepts(typ, s); got != want {
				t.Errorf("type %d: match(%q) = %v, strconv says %v", typ, s, got, want)
			}
		}
	}
}

// FuzzNumericMatch compares the numeric constraints with strconv on any
// segment.
func FuzzNumericMatch(f *testing.F) {
	for _, s := range []string{"42", "-7", "+3", "9223372036854775808", "x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, typ := range numericTypes {
			if got, want := typ.match(s), strconvAccepts(typ, s); got != want {
				t.Fatalf("type %d: match(%q) = %v, strconv says %v", typ, s, got, want)
			}
		}
	})
}
