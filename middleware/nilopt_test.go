package middleware

import (
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
)

// TestNilOption checks that every constructor answers a nil option with an
// error naming the middleware, never a panic.
func TestNilOption(t *testing.T) {
	tests := []struct {
		name string
		make func() (core.Handler, error)
	}{
		{"BasicAuth", func() (core.Handler, error) { return BasicAuth(WithUsers(map[string]string{"a": "b"}), nil) }},
		{"BearerAuth", func() (core.Handler, error) { return BearerAuth(nil) }},
		{"Compress", func() (core.Handler, error) { return Compress(nil) }},
		{"CORS", func() (core.Handler, error) { return CORS(nil) }},
		{"CSRF", func() (core.Handler, error) { return CSRF(nil) }},
		{"Decompress", func() (core.Handler, error) { return Decompress(nil) }},
		{"RateLimit", func() (core.Handler, error) { return RateLimit(WithRate(1, 1), nil) }},
		{"RequestID", func() (core.Handler, error) { return RequestID(nil) }},
		{"SecureHeaders", func() (core.Handler, error) { return SecureHeaders(nil) }},
		{"Timeout", func() (core.Handler, error) { return Timeout(time.Second, nil) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			h, err := tt.make()
			if err == nil || h != nil || !strings.Contains(err.Error(), "nil option") {
				t.Errorf("got %v, %v; want no handler and a nil option error", h != nil, err)
			}
		})
	}
}
