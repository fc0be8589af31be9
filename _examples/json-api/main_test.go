// Tests of the JSON API over HTTP against the real application: a CRUD
// sequence whose steps depend on each other, run in order, then
// concurrent creates under the race detector.
package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestCRUD(t *testing.T) {
	srv := httptest.NewServer(newApp(newStore(Album{Title: "Blue Train", Artist: "John Coltrane", Year: 1958})))
	defer srv.Close()

	tests := []struct {
		name, method, path, body string
		wantStatus               int
		wantBody                 string // exact JSON (compared after compacting), "" for an empty body
		wantHeader               map[string]string
	}{
		{name: "list seed", method: "GET", path: "/albums",
			wantStatus: 200, wantBody: `[{"id":1,"title":"Blue Train","artist":"John Coltrane","year":1958}]`},
		{name: "create", method: "POST", path: "/albums", body: `{"title":" Jeru ","artist":"Gerry Mulligan","year":1962}`,
			wantStatus: 201, wantBody: `{"id":2,"title":"Jeru","artist":"Gerry Mulligan","year":1962}`,
			wantHeader: map[string]string{"Location": "/albums/2", "Content-Type": "application/json; charset=utf-8"}},
		{name: "read created", method: "GET", path: "/albums/2",
			wantStatus: 200, wantBody: `{"id":2,"title":"Jeru","artist":"Gerry Mulligan","year":1962}`},
		{name: "validation errors", method: "POST", path: "/albums", body: `{"title":"  ","year":1800}`,
			wantStatus: 400, wantBody: `{"error":"validation failed","fields":{"artist":"is required","title":"is required","year":"must be between 1900 and ` + strconv.Itoa(maxYear()) + `"}}`},
		{name: "malformed JSON", method: "POST", path: "/albums", body: `{"title":`,
			wantStatus: 400, wantBody: `{"error":"Bad Request","message":"malformed JSON: unexpected end of body"}`},
		{name: "wrong type", method: "POST", path: "/albums", body: `{"title":"X","artist":"Y","year":"1999"}`,
			wantStatus: 400, wantBody: `{"error":"Bad Request","message":"JSON field year: expected int, got string"}`},
		{name: "empty body", method: "POST", path: "/albums",
			wantStatus: 400, wantBody: `{"error":"Bad Request","message":"empty request body, JSON expected"}`},
		{name: "too large", method: "POST", path: "/albums", body: `{"title":"` + strings.Repeat("x", bodyLimit) + `"}`,
			wantStatus: 413, wantBody: `{"error":"Request Entity Too Large","message":"request body larger than 65536 bytes"}`},
		{name: "replace", method: "PUT", path: "/albums/2", body: `{"title":"Jeru (remaster)","artist":"Gerry Mulligan","year":1962}`,
			wantStatus: 200, wantBody: `{"id":2,"title":"Jeru (remaster)","artist":"Gerry Mulligan","year":1962}`},
		{name: "replace missing", method: "PUT", path: "/albums/99", body: `{"title":"A","artist":"B","year":2000}`,
			wantStatus: 404, wantBody: `{"error":"Not Found","message":"album 99 not found"}`},
		{name: "delete", method: "DELETE", path: "/albums/1", wantStatus: 204},
		{name: "read deleted", method: "GET", path: "/albums/1",
			wantStatus: 404, wantBody: `{"error":"Not Found","message":"album 1 not found"}`},
		{name: "delete again", method: "DELETE", path: "/albums/1", wantStatus: 404},
		{name: "list after", method: "GET", path: "/albums",
			wantStatus: 200, wantBody: `[{"id":2,"title":"Jeru (remaster)","artist":"Gerry Mulligan","year":1962}]`},
		{name: "id not an int", method: "GET", path: "/albums/abc", wantStatus: 404, wantBody: `{"error":"Not Found"}`},
		{name: "method not allowed", method: "PATCH", path: "/albums/2", wantStatus: 405, wantBody: `{"error":"Method Not Allowed"}`,
			wantHeader: map[string]string{"Allow": "DELETE, GET, HEAD, OPTIONS, PUT"}},
	}
	for _, tt := range tests {
		// Subtests run in order and share the store: each step relies on
		// the ones before it.
		t.Run(tt.name, func(t *testing.T) {
			res, got := send(t, tt.method, srv.URL+tt.path, "application/json", tt.body)
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %q)", res.StatusCode, tt.wantStatus, got)
			}
			if tt.wantBody != "" && !sameJSON(t, got, tt.wantBody) {
				t.Errorf("body = %s, want %s", got, tt.wantBody)
			}
			if tt.wantStatus >= 400 && !json.Valid(got) {
				t.Errorf("error body is not JSON: %q", got)
			}
			for k, v := range tt.wantHeader {
				if h := res.Header.Get(k); h != v {
					t.Errorf("header %s = %q, want %q", k, h, v)
				}
			}
		})
	}
}

// TestConcurrentCreates creates albums from many goroutines at once; with
// -race it checks the store's locking, and it checks that IDs are unique.
func TestConcurrentCreates(t *testing.T) {
	srv := httptest.NewServer(newApp(newStore()))
	defer srv.Close()
	const n = 50
	var wg sync.WaitGroup
	ids := make(chan int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := http.Post(srv.URL+"/albums", "application/json",
				strings.NewReader(`{"title":"T","artist":"A","year":2000}`))
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			var a Album
			if err := json.NewDecoder(res.Body).Decode(&a); err != nil || res.StatusCode != 201 {
				t.Errorf("status %d, decode error %v", res.StatusCode, err)
				return
			}
			ids <- a.ID
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[int]bool{}
	for id := range ids {
		if seen[id] {
			t.Errorf("id %d given twice", id)
		}
		seen[id] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct ids, want %d", len(seen), n)
	}
}

// TestContentType checks what the package documentation says about the
// request's Content-Type: the curl commands' application/json is accepted,
// the form type that curl -d sends by default is refused with 415.
func TestContentType(t *testing.T) {
	srv := httptest.NewServer(newApp(newStore()))
	defer srv.Close()
	tests := []struct {
		contentType string
		wantStatus  int
	}{
		{"application/json", 201},
		{"application/json; charset=utf-8", 201},
		{"application/x-www-form-urlencoded", 415}, // curl -d without -H
		{"", 415},
	}
	for _, tt := range tests {
		t.Run(tt.contentType, func(t *testing.T) {
			res, got := send(t, "POST", srv.URL+"/albums", tt.contentType,
				`{"title":"Kind of Blue","artist":"Miles Davis","year":1959}`)
			if res.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %q)", res.StatusCode, tt.wantStatus, got)
			}
			if tt.wantStatus == 415 && !strings.Contains(string(got), "application/json") {
				t.Errorf("415 body %q does not name the expected type", got)
			}
		})
	}
}

// send makes one request with body (none when "") and the given
// Content-Type (no header when ""), and returns the response with its body
// read and closed.
func send(t *testing.T, method, url, contentType, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body == "" {
		req.Body = http.NoBody
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, got
}

func sameJSON(t *testing.T, got []byte, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		return false
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation %s: %v", want, err)
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	return string(gb) == string(wb)
}
