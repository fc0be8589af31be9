package main

import (
	"strconv"
	"testing"
)

func TestArticles(t *testing.T) {
	eachDB(t, func(t *testing.T, c *client) {
		jake, anne := c.register("jake"), c.register("anne")

		// Create: 201, the slug from the title, tags by name, ISO times.
		r := c.must(201, "POST", "/api/articles", jake, map[string]any{"article": map[string]any{
			"title": "How to train your dragon", "description": "Ever wonder how?", "body": "Very carefully.",
			"tagList": []string{"training", "dragons", "training"}}})
		expect(t, r, map[string]any{"article.slug": "how-to-train-your-dragon", "article.title": "How to train your dragon",
			"article.description": "Ever wonder how?", "article.body": "Very carefully.", "article.tagList": []string{"dragons", "training"},
			"article.favorited": false, "article.favoritesCount": 0,
			"article.author": map[string]any{"username": "jake", "bio": "", "image": nil, "following": false}})
		for _, k := range []string{"article.createdAt", "article.updatedAt"} {
			if s := str(t, r.body, k); !isoMillis.MatchString(s) {
				t.Errorf("%s = %q, not ISO 8601 with milliseconds", k, s)
			}
		}
		// The same title again gets another slug.
		if slug := c.article(anne, "How to train your dragon"); slug != "how-to-train-your-dragon-2" {
			t.Errorf("second slug %q", slug)
		}
		expectErrors(t, c.do("POST", "/api/articles", jake, map[string]any{"article": map[string]any{"title": "t"}}), 422,
			"body is required", "description is required")
		expectErrors(t, c.do("POST", "/api/articles", "", map[string]any{"article": map[string]any{"title": "t"}}), 401, "Unauthorized")

		// One article, anonymous or not.
		r = c.must(200, "GET", "/api/articles/how-to-train-your-dragon", "", nil)
		expect(t, r, map[string]any{"article.body": "Very carefully.", "article.author.following": false})
		expectErrors(t, c.do("GET", "/api/articles/no-such-article", "", nil), 404, "article not found")

		// The list: most recent first, no bodies, the count of all.
		for i := 1; i <= 3; i++ {
			c.article(anne, "Anne's article "+strconv.Itoa(i), "anne")
		}
		r = c.must(200, "GET", "/api/articles", "", nil)
		expect(t, r, map[string]any{"articlesCount": 5, "articles.0.slug": "anne-s-article-3", "articles.4.slug": "how-to-train-your-dragon"})
		if _, has := get(r.body, "articles.0.body"); has {
			t.Error("a list shows the body")
		}
		r = c.must(200, "GET", "/api/articles?limit=2&offset=1", "", nil)
		expect(t, r, map[string]any{"articlesCount": 5, "articles.0.slug": "anne-s-article-2", "articles.1.slug": "anne-s-article-1"})
		if n := len(r.body["articles"].([]any)); n != 2 {
			t.Errorf("limit 2: %d articles", n)
		}
		r = c.must(200, "GET", "/api/articles?offset=10", "", nil)
		expect(t, r, map[string]any{"articlesCount": 5, "articles": []any{}})
		expect(t, c.must(200, "GET", "/api/articles?tag=dragons", "", nil), map[string]any{"articlesCount": 1, "articles.0.slug": "how-to-train-your-dragon"})
		expect(t, c.must(200, "GET", "/api/articles?author=anne", "", nil), map[string]any{"articlesCount": 4})
		expect(t, c.must(200, "GET", "/api/articles?author=nobody", "", nil), map[string]any{"articlesCount": 0, "articles": []any{}})
		expect(t, c.must(200, "GET", "/api/articles?tag=anne&author=jake", "", nil), map[string]any{"articlesCount": 0})
		expectErrors(t, c.do("GET", "/api/articles?limit=0", "", nil), 422, "limit must be at least 1")
		expectErrors(t, c.do("GET", "/api/articles?offset=x", "", nil), 422, "offset must be an integer")
		expectErrors(t, c.do("GET", "/api/articles", "bad-token", nil), 401, "Unauthorized")

		// The feed: the followed authors' articles; following shows in the list.
		expectErrors(t, c.do("GET", "/api/articles/feed", "", nil), 401, "Unauthorized")
		expect(t, c.must(200, "GET", "/api/articles/feed", jake, nil), map[string]any{"articlesCount": 0, "articles": []any{}})
		c.must(200, "POST", "/api/profiles/anne/follow", jake, nil)
		r = c.must(200, "GET", "/api/articles/feed?limit=1", jake, nil)
		expect(t, r, map[string]any{"articlesCount": 4, "articles.0.slug": "anne-s-article-3", "articles.0.author.following": true})
		expect(t, c.must(200, "GET", "/api/articles?author=anne", jake, nil), map[string]any{"articles.0.author.following": true})
		expect(t, c.must(200, "GET", "/api/articles?author=anne", "", nil), map[string]any{"articles.0.author.following": false})

		// Update: the author only; a new title is a new slug.
		expectErrors(t, c.do("PUT", "/api/articles/how-to-train-your-dragon", anne, map[string]any{"article": map[string]any{"body": "mine"}}), 403,
			"you are not the author of this article")
		r = c.must(200, "PUT", "/api/articles/how-to-train-your-dragon", jake, map[string]any{"article": map[string]any{"body": "With two hands"}})
		expect(t, r, map[string]any{"article.slug": "how-to-train-your-dragon", "article.body": "With two hands", "article.title": "How to train your dragon"})
		r = c.must(200, "PUT", "/api/articles/how-to-train-your-dragon", jake, map[string]any{"article": map[string]any{"title": "Did you train your dragon?"}})
		expect(t, r, map[string]any{"article.slug": "did-you-train-your-dragon", "article.body": "With two hands", "article.tagList": []string{"dragons", "training"}})
		expectErrors(t, c.do("GET", "/api/articles/how-to-train-your-dragon", "", nil), 404, "article not found")
		expectErrors(t, c.do("PUT", "/api/articles/did-you-train-your-dragon", jake, map[string]any{"article": map[string]any{"title": ""}}), 422,
			"title must be at least 1 character")
		expectErrors(t, c.do("PUT", "/api/articles/nothing-here", jake, map[string]any{"article": map[string]any{"body": "b"}}), 404, "article not found")

		// Delete: the author only, 204, then gone.
		expectErrors(t, c.do("DELETE", "/api/articles/did-you-train-your-dragon", anne, nil), 403, "you are not the author of this article")
		expectErrors(t, c.do("DELETE", "/api/articles/did-you-train-your-dragon", "", nil), 401, "Unauthorized")
		if r := c.must(204, "DELETE", "/api/articles/did-you-train-your-dragon", jake, nil); r.raw != "" {
			t.Errorf("204 with a body %q", r.raw)
		}
		expectErrors(t, c.do("GET", "/api/articles/did-you-train-your-dragon", "", nil), 404, "article not found")
		expectErrors(t, c.do("DELETE", "/api/articles/did-you-train-your-dragon", jake, nil), 404, "article not found")
	})
}

func TestFavorites(t *testing.T) {
	eachDB(t, func(t *testing.T, c *client) {
		jake, anne := c.register("jake"), c.register("anne")
		slug := c.article(jake, "Dragons")
		c.article(jake, "Not a favorite")
		r := c.must(200, "POST", "/api/articles/"+slug+"/favorite", anne, nil)
		expect(t, r, map[string]any{"article.favorited": true, "article.favoritesCount": 1, "article.body": "the body of Dragons"})
		c.must(200, "POST", "/api/articles/"+slug+"/favorite", anne, nil) // twice is once
		c.must(200, "POST", "/api/articles/"+slug+"/favorite", jake, nil)
		expect(t, c.must(200, "GET", "/api/articles/"+slug, "", nil), map[string]any{"article.favorited": false, "article.favoritesCount": 2})
		expect(t, c.must(200, "GET", "/api/articles/"+slug, anne, nil), map[string]any{"article.favorited": true})
		r = c.must(200, "GET", "/api/articles?favorited=anne", anne, nil)
		expect(t, r, map[string]any{"articlesCount": 1, "articles.0.slug": slug, "articles.0.favorited": true, "articles.0.favoritesCount": 2})
		expect(t, c.must(200, "GET", "/api/articles?favorited=anne", "", nil), map[string]any{"articles.0.favorited": false})
		r = c.must(200, "DELETE", "/api/articles/"+slug+"/favorite", anne, nil)
		expect(t, r, map[string]any{"article.favorited": false, "article.favoritesCount": 1})
		expect(t, c.must(200, "GET", "/api/articles?favorited=anne", "", nil), map[string]any{"articlesCount": 0})
		expectErrors(t, c.do("POST", "/api/articles/"+slug+"/favorite", "", nil), 401, "Unauthorized")
		expectErrors(t, c.do("POST", "/api/articles/nope/favorite", anne, nil), 404, "article not found")
		expectErrors(t, c.do("DELETE", "/api/articles/nope/favorite", anne, nil), 404, "article not found")
	})
}
