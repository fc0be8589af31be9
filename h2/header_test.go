package h2

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"testing"
)

// TestHeaderSnapshot: the header a response carries is the map as it was
// when the final status was written, and a 103 carries its Link fields;
// the own path answers as net/http's HTTP/2 does. (The own path sent the
// map as it was at its first flush, so X-After and a changed X-Before went
// out, and its 103s had no fields.)
func TestHeaderSnapshot(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/after", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Before", "1")
		io.WriteString(w, "body")
		w.Header().Set("X-Before", "changed")
		w.Header().Set("X-After", "1")
	})
	mux.HandleFunc("/explicit", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Before", "1")
		w.WriteHeader(http.StatusAccepted)
		w.Header().Set("X-After", "1")
		w.Header()["Content-Type"] = nil // too late to suppress the sniffed type
		io.WriteString(w, "<html>")
	})
	mux.HandleFunc("/hints", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", "</a.css>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Add("Link", "</b.js>; rel=preload")
		w.WriteHeader(http.StatusEarlyHints)
		io.WriteString(w, "page")
	})
	type answer struct {
		status            int
		before, after, ct string
		links             []string
		hints             [][]string
		body              string
	}
	get := func(t *testing.T, ts *httptest.Server, path string) answer {
		t.Helper()
		var a answer
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req = req.WithContext(withGot1xx(req.Context(), func(code int, h textproto.MIMEHeader) {
			if code == http.StatusEarlyHints {
				a.hints = append(a.hints, h["Link"])
			}
		}))
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.ProtoMajor != 2 {
			t.Fatalf("%s: %s, want HTTP/2", path, res.Proto)
		}
		b, _ := io.ReadAll(res.Body)
		a.status, a.body = res.StatusCode, string(b)
		a.before, a.after, a.ct = res.Header.Get("X-Before"), res.Header.Get("X-After"), res.Header.Get("Content-Type")
		a.links = res.Header["Link"]
		return a
	}
	std := startServer(t, mux, false)
	own := startServer(t, mux, true)
	for _, path := range []string{"/after", "/explicit", "/hints"} {
		want, got := get(t, std, path), get(t, own, path)
		if want.after != "" || (path == "/after" && want.before != "1") {
			t.Fatalf("%s: net/http's own answer changed: %+v", path, want)
		}
		if !equalAnswer(got, want, func(a answer) []any {
			return []any{a.status, a.before, a.after, a.ct, a.body, len(a.links), len(a.hints)}
		}) {
			t.Errorf("%s: own path %+v, net/http %+v", path, got, want)
		}
		for i := range want.hints {
			if i >= len(got.hints) || len(got.hints[i]) != len(want.hints[i]) {
				t.Errorf("%s: 103 #%d: own path Links %q, net/http %q", path, i+1, got.hints, want.hints)
				break
			}
		}
	}
}

func equalAnswer[T any](a, b T, key func(T) []any) bool {
	ka, kb := key(a), key(b)
	for i := range ka {
		if ka[i] != kb[i] {
			return false
		}
	}
	return true
}

func withGot1xx(ctx context.Context, fn func(int, textproto.MIMEHeader)) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
			fn(code, h)
			return nil
		},
	})
}
