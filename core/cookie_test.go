package core

import (
	"net/http"
	"strings"
	"testing"
)

// TestRequestCookieAsNetHTTP reads cookies from Cookie header lines as
// net/http's Request.Cookie does, which it no longer asks.
func TestRequestCookieAsNetHTTP(t *testing.T) {
	many := strings.Repeat("a=1; ", maxCookies) + "sid=x"
	tests := []struct {
		name  string
		lines []string
	}{
		{"sid", nil},
		{"sid", []string{"sid=abc"}},
		{"sid", []string{"a=1; sid=abc; b=2"}},
		{"sid", []string{"  sid = abc  "}},
		{"sid", []string{`sid="quoted"`}},
		{"sid", []string{`sid="`}},
		{"sid", []string{`sid=a"b`}},
		{"sid", []string{"sid=a\\b; sid=good"}},
		{"sid", []string{"sid=with space"}},
		{"sid", []string{"sid=\x01; sid=second"}},
		{"sid", []string{"sid"}},
		{"sid", []string{"sid="}},
		{"sid", []string{"a=1", "sid=second-line"}},
		{"sid", []string{"sid=first", "sid=second"}},
		{"sid", []string{";;; sid=x ;;"}},
		{"sid", []string{"SID=upper"}},
		{"bad name", []string{"bad name=x"}},
		{"", []string{"=x"}},
		{"sid", []string{many}},
		{"sid", []string{strings.Repeat("a=1; ", maxCookies-2) + "sid=x"}},
		{"s\xffd", []string{"s\xffd=x"}},
	}
	for _, tt := range tests {
		r := &http.Request{Header: http.Header{"Cookie": tt.lines}}
		want, err := r.Cookie(tt.name)
		v, ok := requestCookie(tt.lines, tt.name)
		if ok != (err == nil) || ok && v != want.Value {
			label := strings.Join(tt.lines, " | ")
			if len(label) > 60 {
				label = label[:60] + "..."
			}
			t.Errorf("%q in %q: %q %v, net/http %v %v", tt.name, label, v, ok, want, err)
		}
	}
}

// TestRequestCookieAllocatesNothing: the scan costs no allocation.
func TestRequestCookieAllocatesNothing(t *testing.T) {
	lines := []string{"a=1; b=2", `sid="abc"`}
	if a := testing.AllocsPerRun(100, func() { requestCookie(lines, "sid") }); a != 0 {
		t.Errorf("%v allocations", a)
	}
}
