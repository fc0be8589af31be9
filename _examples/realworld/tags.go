// Tags: GET /tags lists the tags of the existing articles, by name, and
// setTags writes an article's tags (created on first use).

package main

import (
	"context"
	"net/http"

	"github.com/vireo-go/vireo"
)

// TagsResponse is the list of tags.
type TagsResponse struct {
	Tags []string `json:"tags"`
}

func (s *server) registerTags(api *vireo.Router) {
	vireo.Get(api, "/tags", s.listTags, documented("Tags", "GetTags", "Get tags", http.StatusUnprocessableEntity)...)
}

func (s *server) listTags(ctx vireo.Context, _ struct{}) (TagsResponse, error) {
	rows, err := s.db.pool().query(ctx.Request().Context(),
		`SELECT t.name FROM tags t WHERE EXISTS (SELECT 1 FROM article_tags at WHERE at.tag_id = t.id) ORDER BY t.name`)
	if err != nil {
		return TagsResponse{}, err
	}
	defer rows.Close()
	out := TagsResponse{Tags: []string{}}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return TagsResponse{}, err
		}
		out.Tags = append(out.Tags, name)
	}
	return out, rows.Err()
}

// setTags links the article to the tags (duplicates once), creating the
// tags that do not exist yet.
func setTags(c context.Context, tx conn, article int64, names []string) error {
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		if _, err := tx.exec(c, `INSERT INTO tags (name) VALUES (?) ON CONFLICT (name) DO NOTHING`, name); err != nil {
			return err
		}
		if _, err := tx.exec(c, `INSERT INTO article_tags (article_id, tag_id) SELECT ?, id FROM tags WHERE name = ?`, article, name); err != nil {
			return err
		}
	}
	return nil
}
