package main

import (
	"testing"
	"time"
)

func TestUsers(t *testing.T) {
	eachDB(t, func(t *testing.T, c *client) {
		// Registration: 201 with the user and a token.
		r := c.must(201, "POST", "/api/users", "", userBody("jake@jake.jake", "jake", "jakejake"))
		expect(t, r, map[string]any{"user.email": "jake@jake.jake", "user.username": "jake", "user.bio": "", "user.image": nil})
		token := str(t, r.body, "user.token")

		// Validation and taken names: 422 in RealWorld's format.
		expectErrors(t, c.do("POST", "/api/users", "", userBody("jake@jake.jake", "jake", "jakejake")), 422,
			"email has already been taken", "username has already been taken")
		expectErrors(t, c.do("POST", "/api/users", "", map[string]any{"user": map[string]any{}}), 422,
			"email is required", "password is required", "username is required")
		expectErrors(t, c.do("POST", "/api/users", "", userBody("not-an-email", "x", "short")), 422,
			"email must be a valid email address", "password must be at least 8 characters")
		expectErrors(t, c.do("POST", "/api/users", "", map[string]any{"user": "nope"}), 400,
			"JSON field user: expected main.NewUser, got string")

		// Login.
		r = c.must(200, "POST", "/api/users/login", "", map[string]any{"user": map[string]any{"email": "jake@jake.jake", "password": "jakejake"}})
		expect(t, r, map[string]any{"user.email": "jake@jake.jake", "user.username": "jake"})
		if str(t, r.body, "user.token") == "" {
			t.Error("login gave no token")
		}
		for _, creds := range []map[string]any{
			{"email": "jake@jake.jake", "password": "wrong-password"},
			{"email": "nobody@jake.jake", "password": "jakejake"},
		} {
			expectErrors(t, c.do("POST", "/api/users/login", "", map[string]any{"user": creds}), 401, "email or password is invalid")
		}
		expectErrors(t, c.do("POST", "/api/users/login", "", map[string]any{"user": map[string]any{"email": "jake@jake.jake"}}), 422,
			"password is required")

		// The current user needs a valid token.
		r = c.do("GET", "/api/user", "", nil)
		expectErrors(t, r, 401, "Unauthorized")
		if got := r.header.Get("WWW-Authenticate"); got != `Token realm="conduit"` {
			t.Errorf("challenge %q", got)
		}
		expectErrors(t, c.do("GET", "/api/user", "not.a.jwt", nil), 401, "Unauthorized")
		other := newTokens([]byte("another key of thirty-two bytes!!"))
		forged, _ := other.issue(1)
		expectErrors(t, c.do("GET", "/api/user", forged, nil), 401, "Unauthorized")
		r = c.must(200, "GET", "/api/user", token, nil)
		expect(t, r, map[string]any{"user.email": "jake@jake.jake", "user.username": "jake", "user.token": token})

		// Update: some fields, the others kept; a new password logs in.
		r = c.must(200, "PUT", "/api/user", token, map[string]any{"user": map[string]any{
			"email": "jake@conduit.dev", "bio": "I like to skateboard", "image": "https://i.stack.imgur.com/xHWG8.jpg", "password": "new-password"}})
		expect(t, r, map[string]any{"user.email": "jake@conduit.dev", "user.username": "jake", "user.bio": "I like to skateboard",
			"user.image": "https://i.stack.imgur.com/xHWG8.jpg", "user.token": token})
		c.must(200, "POST", "/api/users/login", "", map[string]any{"user": map[string]any{"email": "jake@conduit.dev", "password": "new-password"}})
		c.register("anne")
		expectErrors(t, c.do("PUT", "/api/user", token, map[string]any{"user": map[string]any{"username": "anne"}}), 422,
			"username has already been taken")
		expectErrors(t, c.do("PUT", "/api/user", token, map[string]any{"user": map[string]any{"email": ""}}), 422,
			"email must be a valid email address")
		expectErrors(t, c.do("PUT", "/api/user", "", map[string]any{"user": map[string]any{"bio": "x"}}), 401, "Unauthorized")
		r = c.must(200, "PUT", "/api/user", token, map[string]any{"user": map[string]any{"image": ""}})
		expect(t, r, map[string]any{"user.image": nil, "user.bio": "I like to skateboard"})
	})
}

func TestErrorsOfTheFramework(t *testing.T) {
	c := newClient(t, "")
	expectErrors(t, c.do("GET", "/api/nowhere", "", nil), 404, "Not Found")
	r := c.do("PATCH", "/api/user", "", nil)
	expectErrors(t, r, 405, "Method Not Allowed")
	if r.header.Get("Allow") == "" {
		t.Error("405 without Allow")
	}
}

func TestTokens(t *testing.T) {
	tk := newTokens([]byte("a key of thirty-two bytes or more"))
	s, err := tk.issue(42)
	if err != nil {
		t.Fatal(err)
	}
	if id, err := tk.verify(s); err != nil || id != 42 {
		t.Fatalf("verify: %d %v", id, err)
	}
	later := tk.now().Add(tokenLifetime + 1e9)
	tk.now = func() time.Time { return later }
	if _, err := tk.verify(s); err == nil {
		t.Error("an expired token verified")
	}
}
