package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFootprintUsage checks that `bench footprint` is a subcommand with its
// own flags and refuses the settings it cannot use before building anything.
func TestFootprintUsage(t *testing.T) {
	tests := []struct {
		args     []string
		wantCode int
		wantErr  string
	}{
		{[]string{"footprint", "-n", "1000", "simple"}, 1, "timed"},
		{[]string{"footprint", "-profile", "constrained", "simple"}, 1, "default profile"},
		{[]string{"footprint", "-starts", "-2", "simple"}, 1, "negative"},
		{[]string{"footprint", "-rate", "-1", "simple"}, 1, "negative"},
		{[]string{"footprint", "-starts", "many"}, 2, "invalid value"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(tt.args, &out, &errOut); code != tt.wantCode || !strings.Contains(errOut.String(), tt.wantErr) {
				t.Errorf("code %d, stderr %q; want %d and %q", code, errOut.String(), tt.wantCode, tt.wantErr)
			}
		})
	}
}
