package main

import (
	"strconv"
	"testing"
)

func TestComments(t *testing.T) {
	eachDB(t, func(t *testing.T, c *client) {
		jake, anne := c.register("jake"), c.register("anne")
		slug := c.article(jake, "Dragons")
		r := c.must(200, "POST", "/api/articles/"+slug+"/comments", anne, map[string]any{"comment": map[string]any{"body": "Thank you so much!"}})
		expect(t, r, map[string]any{"comment.body": "Thank you so much!",
			"comment.author": map[string]any{"username": "anne", "bio": "", "image": nil, "following": false}})
		id, ok := get(r.body, "comment.id")
		if !ok {
			t.Fatal("no comment id")
		}
		first := strconv.Itoa(int(id.(float64)))
		for _, k := range []string{"comment.createdAt", "comment.updatedAt"} {
			if s := str(t, r.body, k); !isoMillis.MatchString(s) {
				t.Errorf("%s = %q", k, s)
			}
		}
		c.must(200, "POST", "/api/articles/"+slug+"/comments", jake, map[string]any{"comment": map[string]any{"body": "You're welcome"}})
		expectErrors(t, c.do("POST", "/api/articles/"+slug+"/comments", jake, map[string]any{"comment": map[string]any{"body": ""}}), 422, "body is required")
		expectErrors(t, c.do("POST", "/api/articles/"+slug+"/comments", "", map[string]any{"comment": map[string]any{"body": "x"}}), 401, "Unauthorized")
		expectErrors(t, c.do("POST", "/api/articles/nope/comments", jake, map[string]any{"comment": map[string]any{"body": "x"}}), 404, "article not found")

		// The list, oldest first; following is the viewer's.
		c.must(200, "POST", "/api/profiles/anne/follow", jake, nil)
		r = c.must(200, "GET", "/api/articles/"+slug+"/comments", "", nil)
		expect(t, r, map[string]any{"comments.0.body": "Thank you so much!", "comments.1.body": "You're welcome", "comments.0.author.following": false})
		expect(t, c.must(200, "GET", "/api/articles/"+slug+"/comments", jake, nil), map[string]any{"comments.0.author.following": true})
		expectErrors(t, c.do("GET", "/api/articles/nope/comments", "", nil), 404, "article not found")

		// Delete: the author only.
		expectErrors(t, c.do("DELETE", "/api/articles/"+slug+"/comments/"+first, jake, nil), 403, "you are not the author of this comment")
		expectErrors(t, c.do("DELETE", "/api/articles/"+slug+"/comments/"+first, "", nil), 401, "Unauthorized")
		expectErrors(t, c.do("DELETE", "/api/articles/"+slug+"/comments/999", anne, nil), 404, "comment not found")
		expectErrors(t, c.do("DELETE", "/api/articles/"+slug+"/comments/x", anne, nil), 404, "Not Found")
		other := c.article(anne, "Other")
		expectErrors(t, c.do("DELETE", "/api/articles/"+other+"/comments/"+first, anne, nil), 404, "comment not found")
		c.must(204, "DELETE", "/api/articles/"+slug+"/comments/"+first, anne, nil)
		r = c.must(200, "GET", "/api/articles/"+slug+"/comments", "", nil)
		if n := len(r.body["comments"].([]any)); n != 1 {
			t.Errorf("%d comments after the delete", n)
		}
		// Deleting the article deletes its comments.
		c.must(204, "DELETE", "/api/articles/"+slug, jake, nil)
		var n int
		if err := c.db.pool().row(t.Context(), `SELECT COUNT(*) FROM comments`).Scan(&n); err != nil || n != 0 {
			t.Errorf("%d comments left (%v)", n, err)
		}
	})
}

func TestTags(t *testing.T) {
	eachDB(t, func(t *testing.T, c *client) {
		expect(t, c.must(200, "GET", "/api/tags", "", nil), map[string]any{"tags": []string{}})
		jake := c.register("jake")
		c.article(jake, "One", "training", "dragons")
		gone := c.article(jake, "Two", "zebras", "dragons")
		expect(t, c.must(200, "GET", "/api/tags", "", nil), map[string]any{"tags": []string{"dragons", "training", "zebras"}})
		c.must(204, "DELETE", "/api/articles/"+gone, jake, nil)
		expect(t, c.must(200, "GET", "/api/tags", "", nil), map[string]any{"tags": []string{"dragons", "training"}})
	})
}

func TestMigrationsRunOnce(t *testing.T) {
	eachDB(t, func(t *testing.T, c *client) {
		n, err := c.db.migrate(t.Context())
		if err != nil || n != 0 {
			t.Errorf("second migrate: %d applied, %v", n, err)
		}
	})
}
