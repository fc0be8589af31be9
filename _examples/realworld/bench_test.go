package main

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
)

// benchClient is an application on SQLite in memory with 20 articles of
// two tags each by one author.
func benchClient(b *testing.B) *client {
	c := newClient(b, "")
	tok := c.register("author")
	for i := 0; i < 20; i++ {
		c.article(tok, fmt.Sprintf("Article %d", i), "go", fmt.Sprintf("tag%d", i))
	}
	return c
}

// BenchmarkListArticles is GET /api/articles answering 20 articles with
// their authors and tags (go test -bench ListArticles -benchmem).
func BenchmarkListArticles(b *testing.B) {
	c := benchClient(b)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		c.app.ServeHTTP(rec, httptest.NewRequest("GET", "/api/articles", nil))
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkLogin is POST /api/users/login (bcrypt at the default cost).
func BenchmarkLogin(b *testing.B) {
	c := benchClient(b)
	body := `{"user":{"email":"author@example.com","password":"author-password"}}`
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/api/users/login", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		c.app.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body)
		}
	}
}
