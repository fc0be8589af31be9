package core

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// headerFieldCases are SetResponseHeaders calls and the response header
// each leaves: pre sets what the header had before the call.
var headerFieldCases = []struct {
	name   string
	pre    func(c Context)
	fields func() []HeaderField
	want   http.Header // nil values: the header is absent
}{
	{"one field", nil,
		func() []HeaderField { return []HeaderField{NewHeaderField("X-A", "1")} },
		http.Header{"X-A": {"1"}}},
	{"name made canonical", nil,
		func() []HeaderField { return []HeaderField{NewHeaderField("x-multi-VALUE", "a", "b")} },
		http.Header{"X-Multi-Value": {"a", "b"}}},
	{"several in one call", nil,
		func() []HeaderField {
			return []HeaderField{NewHeaderField("X-A", "1"), NewHeaderField("X-B", "2"), NewHeaderField("X-C", "3")}
		},
		http.Header{"X-A": {"1"}, "X-B": {"2"}, "X-C": {"3"}}},
	{"replaces the values", func(c Context) { c.AddResponseHeader("X-A", "old"); c.AddResponseHeader("X-A", "older") },
		func() []HeaderField { return []HeaderField{NewHeaderField("X-A", "new")} },
		http.Header{"X-A": {"new"}}},
	{"no values delete", func(c Context) { c.SetResponseHeader("X-Gone", "1") },
		func() []HeaderField { return []HeaderField{NewHeaderField("X-Gone")} },
		http.Header{"X-Gone": nil}},
	{"zero field skipped", func(c Context) { c.SetResponseHeader("X-Kept", "1") },
		func() []HeaderField { return []HeaderField{{}, NewHeaderField("X-A", "1"), {}} },
		http.Header{"X-Kept": {"1"}, "X-A": {"1"}, "": nil}},
	{"empty name sets nothing", nil,
		func() []HeaderField { return []HeaderField{NewHeaderField("", "1")} },
		http.Header{"": nil}},
	{"no fields", func(c Context) { c.SetResponseHeader("X-Kept", "1") },
		func() []HeaderField { return nil },
		http.Header{"X-Kept": {"1"}}},
	{"later field wins", nil,
		func() []HeaderField { return []HeaderField{NewHeaderField("X-A", "1"), NewHeaderField("x-a", "2")} },
		http.Header{"X-A": {"2"}}},
	{"func on an absent header gets nil", nil,
		func() []HeaderField {
			return []HeaderField{NewHeaderFieldFunc("vary", func(vs []string) []string {
				if vs != nil {
					return []string{"not nil"}
				}
				return []string{"Origin"}
			})}
		},
		http.Header{"Vary": {"Origin"}}},
	{"func appends", func(c Context) { c.SetResponseHeader("Vary", "Accept-Encoding") },
		func() []HeaderField { return []HeaderField{NewHeaderFieldFunc("Vary", addToken("Origin"))} },
		http.Header{"Vary": {"Accept-Encoding", "Origin"}}},
	{"func sees the earlier fields of the call", nil,
		func() []HeaderField {
			return []HeaderField{NewHeaderField("Vary", "A"), NewHeaderFieldFunc("Vary", addToken("B")), NewHeaderFieldFunc("Vary", addToken("C"))}
		},
		http.Header{"Vary": {"A", "B", "C"}}},
	{"func returning nothing deletes", func(c Context) { c.SetResponseHeader("X-Gone", "1") },
		func() []HeaderField {
			return []HeaderField{NewHeaderFieldFunc("X-Gone", func([]string) []string { return nil })}
		},
		http.Header{"X-Gone": nil}},
	{"WithValues keeps the name", nil,
		func() []HeaderField {
			return []HeaderField{NewHeaderField("x-id", "default").WithValues("per-request")}
		},
		http.Header{"X-Id": {"per-request"}}},
	{"WithValues drops the func", func(c Context) { c.SetResponseHeader("Vary", "A") },
		func() []HeaderField { return []HeaderField{NewHeaderFieldFunc("Vary", addToken("B")).WithValues("C")} },
		http.Header{"Vary": {"C"}}},
	{"WithValues of the zero field sets nothing", nil,
		func() []HeaderField { return []HeaderField{HeaderField{}.WithValues("1")} },
		http.Header{"": nil}},
}

func addToken(token string) func([]string) []string {
	return func(vs []string) []string { return append(vs, token) }
}

// TestSetResponseHeaders runs headerFieldCases through a handler and
// checks the response header the client gets.
func TestSetResponseHeaders(t *testing.T) {
	for _, tc := range headerFieldCases {
		t.Run(tc.name, func(t *testing.T) {
			app := quietApp()
			app.Get("/", func(c Context) {
				if tc.pre != nil {
					tc.pre(c)
				}
				c.SetResponseHeaders(tc.fields()...)
				c.WriteString("ok")
			})
			w := httptest.NewRecorder()
			app.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
			h := w.Result().Header
			for name, want := range tc.want {
				got, ok := h[name]
				if want == nil && ok || !slices.Equal(got, want) {
					t.Errorf("%q: %q (present %v), want %q", name, got, ok, want)
				}
			}
		})
	}
}

// TestHeaderFieldShared: the values of a field go into every response
// without a copy, and an append to them (AddResponseHeader) copies instead
// of writing into the shared slice.
func TestHeaderFieldShared(t *testing.T) {
	backing := make([]string, 1, 4) // capacity beyond the length: NewHeaderField cuts it
	backing[0] = "shared"
	f := NewHeaderField("X-Shared", backing...)
	perRequest := NewHeaderField("X-Id").WithValues(backing...)
	app := quietApp()
	app.Get("/", func(c Context) {
		c.SetResponseHeaders(f, perRequest)
		c.AddResponseHeader("X-Shared", "added")
		c.AddResponseHeader("X-Id", "added")
	})
	for range 2 {
		w := httptest.NewRecorder()
		app.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		if got := w.Result().Header["X-Shared"]; !slices.Equal(got, []string{"shared", "added"}) {
			t.Errorf("X-Shared %q", got)
		}
	}
	if got := backing[:2]; got[1] != "" {
		t.Errorf("the shared values were appended to in place: %q", got)
	}
}

// TestSetResponseHeadersAllocs: setting fields built beforehand, or given
// values built beforehand with WithValues, allocates nothing, the variadic
// list included.
func TestSetResponseHeadersAllocs(t *testing.T) {
	a, b := NewHeaderField("X-A", "1"), NewHeaderField("X-B", "2")
	three := []string{"3"}
	vary := NewHeaderFieldFunc("Vary", func(vs []string) []string { return vs })
	h := http.Header{}
	s := &state{}
	s.out = headerOnly(h)
	c := s.handle()
	if n := testing.AllocsPerRun(100, func() { c.SetResponseHeaders(a, b, HeaderField{}, vary, a.WithValues(three...)) }); n != 0 {
		t.Errorf("SetResponseHeaders allocated %v times", n)
	}
	if got := h["X-A"]; !slices.Equal(got, []string{"3"}) {
		t.Errorf("X-A %q", got)
	}
}

// headerOnly is a ResponseWriter of which only the header is used.
type headerOnly http.Header

func (h headerOnly) Header() http.Header       { return http.Header(h) }
func (headerOnly) Write(p []byte) (int, error) { return len(p), nil }
func (headerOnly) WriteHeader(int)             {}

func TestNewHeaderFieldFuncNil(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewHeaderFieldFunc(name, nil) did not panic")
		}
	}()
	NewHeaderFieldFunc("Vary", nil)
}

// BenchmarkCanonicalKey is the per-call cost of a canonical name in
// SetResponseHeader, AddResponseHeader and the net/http engine's request
// header reads, which a HeaderField pays once.
func BenchmarkCanonicalKey(b *testing.B) {
	for _, name := range []string{"Vary", "X-Request-Id", "Access-Control-Request-Method"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				benchKey = canonicalKey(name)
			}
		})
	}
}

var benchKey string
