package main

import "testing"

func TestProfiles(t *testing.T) {
	eachDB(t, func(t *testing.T, c *client) {
		jake := c.register("jake")
		c.register("celeb")
		c.must(200, "PUT", "/api/user", jake, map[string]any{"user": map[string]any{"bio": "I work at statefarm"}})
		want := map[string]any{"username": "jake", "bio": "I work at statefarm", "image": nil, "following": false}
		expect(t, c.must(200, "GET", "/api/profiles/jake", "", nil), map[string]any{"profile": want})
		expectErrors(t, c.do("GET", "/api/profiles/nobody", "", nil), 404, "profile not found")
		expectErrors(t, c.do("GET", "/api/profiles/celeb", "bad", nil), 401, "Unauthorized")

		// A body on follow (the official suite sends one) is ignored.
		r := c.must(200, "POST", "/api/profiles/celeb/follow", jake, map[string]any{"user": map[string]any{"email": "jake@example.com"}})
		expect(t, r, map[string]any{"profile.username": "celeb", "profile.following": true})
		c.must(200, "POST", "/api/profiles/celeb/follow", jake, nil) // twice is once
		expect(t, c.must(200, "GET", "/api/profiles/celeb", jake, nil), map[string]any{"profile.following": true})
		expect(t, c.must(200, "GET", "/api/profiles/celeb", "", nil), map[string]any{"profile.following": false})
		expect(t, c.must(200, "DELETE", "/api/profiles/celeb/follow", jake, nil), map[string]any{"profile.following": false})
		expect(t, c.must(200, "GET", "/api/profiles/celeb", jake, nil), map[string]any{"profile.following": false})

		expectErrors(t, c.do("POST", "/api/profiles/celeb/follow", "", nil), 401, "Unauthorized")
		expectErrors(t, c.do("DELETE", "/api/profiles/celeb/follow", "", nil), 401, "Unauthorized")
		expectErrors(t, c.do("POST", "/api/profiles/nobody/follow", jake, nil), 404, "profile not found")
		expectErrors(t, c.do("POST", "/api/profiles/jake/follow", jake, nil), 422, "username is you: you cannot follow yourself")
	})
}
