// Comments: GET /articles/{slug}/comments (authentication optional: the
// authors' "following" is the viewer's), POST to add one (200 with the
// comment, as the spec says), DELETE /articles/{slug}/comments/{id} by its
// author only (403 otherwise, 404 for a comment not on that article).

package main

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"github.com/vireo-go/vireo"
)

// Comment is a comment on an article.
type Comment struct {
	ID        int64     `json:"id"`
	CreatedAt Timestamp `json:"createdAt"`
	UpdatedAt Timestamp `json:"updatedAt"`
	Body      string    `json:"body"`
	Author    Profile   `json:"author"`
}

// CommentResponse wraps a Comment.
type CommentResponse struct {
	Comment Comment `json:"comment"`
}

// CommentsResponse lists comments.
type CommentsResponse struct {
	Comments []Comment `json:"comments"`
}

// NewComment is the body of a new comment.
type NewComment struct {
	Body string `json:"body" validate:"required,max=65536"`
}

type newCommentInput struct {
	Slug    string     `path:"slug" doc:"Slug of the article that you want to create a comment for"`
	Comment NewComment `json:"comment"`
}

type commentInput struct {
	Slug string `path:"slug" doc:"Slug of the article that you want to delete a comment for"`
	ID   int64  `path:"id" doc:"ID of the comment you want to delete"`
}

func (s *server) registerComments(authed, optional *vireo.Router) {
	vireo.Get(optional, "/articles/{slug}/comments", s.listComments,
		documented("Comments", "GetArticleComments", "Get comments for an article", http.StatusUnauthorized, http.StatusNotFound)...)
	vireo.Post(authed, "/articles/{slug}/comments", s.addComment,
		append(documented("Comments", "CreateArticleComment", "Create a comment for an article", http.StatusUnauthorized, http.StatusNotFound, http.StatusUnprocessableEntity), vireo.Status(http.StatusOK))...)
	vireo.Delete(authed, "/articles/{slug}/comments/{id:int}", s.deleteComment,
		documented("Comments", "DeleteArticleComment", "Delete a comment for an article", http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound)...)
}

func (s *server) articleID(c context.Context, slug string) (int64, error) {
	var id int64
	err := s.db.pool().row(c, `SELECT id FROM articles WHERE slug = ?`, slug).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, errNotFound("article")
	}
	return id, err
}

// comments loads the comments of the article (or the one comment id when
// it is not 0), oldest first.
func (s *server) comments(c context.Context, article, id, viewer int64) ([]Comment, error) {
	query := `SELECT c.id, c.created_at, c.updated_at, c.body, u.username, u.bio, u.image,
		EXISTS (SELECT 1 FROM follows f WHERE f.followee_id = c.author_id AND f.follower_id = ?)
		FROM comments c JOIN users u ON u.id = c.author_id WHERE c.article_id = ?`
	args := []any{viewer, article}
	if id != 0 {
		query += ` AND c.id = ?`
		args = append(args, id)
	}
	rows, err := s.db.pool().query(c, query+` ORDER BY c.created_at, c.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Comment{}
	for rows.Next() {
		var cm Comment
		if err := rows.Scan(&cm.ID, &cm.CreatedAt, &cm.UpdatedAt, &cm.Body,
			&cm.Author.Username, &cm.Author.Bio, &cm.Author.Image, &cm.Author.Following); err != nil {
			return nil, err
		}
		out = append(out, cm)
	}
	return out, rows.Err()
}

func (s *server) listComments(ctx vireo.Context, in slugInput) (CommentsResponse, error) {
	c := ctx.Request().Context()
	article, err := s.articleID(c, in.Slug)
	if err != nil {
		return CommentsResponse{}, err
	}
	cs, err := s.comments(c, article, 0, viewer(ctx))
	return CommentsResponse{cs}, err
}

func (s *server) addComment(ctx vireo.Context, in newCommentInput) (CommentResponse, error) {
	c := ctx.Request().Context()
	me := viewer(ctx)
	article, err := s.articleID(c, in.Slug)
	if err != nil {
		return CommentResponse{}, err
	}
	t := now()
	var id int64
	if err := s.db.pool().row(c, `INSERT INTO comments (article_id, author_id, body, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?) RETURNING id`, article, me, in.Comment.Body, t, t).Scan(&id); err != nil {
		return CommentResponse{}, err
	}
	cs, err := s.comments(c, article, id, me)
	if err == nil && len(cs) == 0 {
		err = errNotFound("comment") // the article was deleted meanwhile
	}
	if err != nil {
		return CommentResponse{}, err
	}
	return CommentResponse{cs[0]}, nil
}

func (s *server) deleteComment(ctx vireo.Context, in commentInput) (vireo.NoContent, error) {
	c := ctx.Request().Context()
	article, err := s.articleID(c, in.Slug)
	if err != nil {
		return vireo.NoContent{}, err
	}
	var author int64
	err = s.db.pool().row(c, `SELECT author_id FROM comments WHERE id = ? AND article_id = ?`, in.ID, article).Scan(&author)
	if errors.Is(err, sql.ErrNoRows) {
		return vireo.NoContent{}, errNotFound("comment")
	}
	if err != nil {
		return vireo.NoContent{}, err
	}
	if author != viewer(ctx) {
		return vireo.NoContent{}, errForbidden("comment")
	}
	_, err = s.db.pool().exec(c, `DELETE FROM comments WHERE id = ?`, in.ID)
	return vireo.NoContent{}, err
}
