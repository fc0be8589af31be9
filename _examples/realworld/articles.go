// Articles: the list with its filters, the feed, one article, creation,
// update, deletion, and favorites.
//
// Every read goes through one query builder (articleQuery): the articles
// joined with their authors, the favorites count, and two EXISTS for what
// the viewer sees (favorited, following; viewer 0 is anonymous and matches
// nothing), ordered most recent first with the id breaking ties, and a
// second query for the tags of the whole page (ordered by name), so a page
// of 20 costs two queries plus the count, not one per article. Lists leave
// the body out, as the spec has done since 2024. Slugs are the title in
// lower-case words joined by '-', with -2, -3, ... when taken; changing
// the title changes the slug. Only the author may update or delete (403).

package main

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/vireo-go/vireo"
)

// Timestamp is a time as the spec shows it: ISO 8601 in UTC with
// milliseconds ("2016-02-18T03:22:56.637Z"), stored as Unix milliseconds.
type Timestamp int64

// MarshalText formats the time.
func (t Timestamp) MarshalText() ([]byte, error) {
	return time.UnixMilli(int64(t)).UTC().AppendFormat(nil, "2006-01-02T15:04:05.000Z"), nil
}

func now() Timestamp { return Timestamp(time.Now().UnixMilli()) }

// ArticleSummary is an article in a list: everything but the body.
type ArticleSummary struct {
	Slug           string    `json:"slug"`
	Title          string    `json:"title"`
	Description    string    `json:"description"`
	TagList        []string  `json:"tagList"`
	CreatedAt      Timestamp `json:"createdAt"`
	UpdatedAt      Timestamp `json:"updatedAt"`
	Favorited      bool      `json:"favorited"`
	FavoritesCount int64     `json:"favoritesCount"`
	Author         Profile   `json:"author"`
}

// Article is one article with its body.
type Article struct {
	ArticleSummary
	Body string `json:"body"`
}

// ArticleResponse wraps an Article.
type ArticleResponse struct {
	Article Article `json:"article"`
}

// ArticlesResponse is a page of articles and the number of all that match.
type ArticlesResponse struct {
	Articles      []ArticleSummary `json:"articles"`
	ArticlesCount int64            `json:"articlesCount"`
}

type page struct {
	Offset int `query:"offset" default:"0" validate:"min=0" doc:"The number of items to skip before starting to collect the result set."`
	Limit  int `query:"limit" default:"20" validate:"min=1,max=100" doc:"The numbers of items to return."`
}

type listInput struct {
	Tag       *string `query:"tag" doc:"Filter by tag"`
	Author    *string `query:"author" doc:"Filter by author (username)"`
	Favorited *string `query:"favorited" doc:"Filter by favorites of a user (username)"`
	page
}

type slugInput struct {
	Slug string `path:"slug" doc:"Slug of the article"`
}

// NewArticle is the body of a new article.
type NewArticle struct {
	Title       string   `json:"title" validate:"required,max=256"`
	Description string   `json:"description" validate:"required,max=1024"`
	Body        string   `json:"body" validate:"required"`
	TagList     []string `json:"tagList" validate:"max=32,dive,required,max=64"`
}

type newArticleInput struct {
	Article NewArticle `json:"article"`
}

// UpdateArticle is the body of an update of an article: the fields to
// change.
type UpdateArticle struct {
	Title       *string `json:"title" validate:"omitnil,min=1,max=256"`
	Description *string `json:"description" validate:"omitnil,min=1,max=1024"`
	Body        *string `json:"body" validate:"omitnil,min=1"`
}

type updateArticleInput struct {
	Slug    string        `path:"slug" doc:"Slug of the article to update"`
	Article UpdateArticle `json:"article"`
}

func (s *server) registerArticles(authed, optional *vireo.Router) {
	vireo.Get(optional, "/articles", s.listArticles,
		documented("Articles", "GetArticles", "Get recent articles globally", http.StatusUnauthorized, http.StatusUnprocessableEntity)...)
	vireo.Get(authed, "/articles/feed", s.feed,
		documented("Articles", "GetArticlesFeed", "Get recent articles from users you follow", http.StatusUnauthorized, http.StatusUnprocessableEntity)...)
	vireo.Get(optional, "/articles/{slug}", s.getArticle,
		documented("Articles", "GetArticle", "Get an article", http.StatusNotFound)...)
	vireo.Post(authed, "/articles", s.createArticle,
		documented("Articles", "CreateArticle", "Create an article", http.StatusUnauthorized, http.StatusUnprocessableEntity)...)
	vireo.Put(authed, "/articles/{slug}", s.updateArticle,
		documented("Articles", "UpdateArticle", "Update an article", http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity)...)
	vireo.Delete(authed, "/articles/{slug}", s.deleteArticle,
		documented("Articles", "DeleteArticle", "Delete an article", http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound)...)
	vireo.Post(authed, "/articles/{slug}/favorite", s.favorite,
		append(documented("Favorites", "CreateArticleFavorite", "Favorite an article", http.StatusUnauthorized, http.StatusNotFound), vireo.Status(http.StatusOK))...)
	vireo.Delete(authed, "/articles/{slug}/favorite", s.unfavorite,
		documented("Favorites", "DeleteArticleFavorite", "Unfavorite an article", http.StatusUnauthorized, http.StatusNotFound)...)
}

// articleQuery selects articles as a viewer sees them.
type articleQuery struct {
	viewer int64
	where  []string
	args   []any
}

func (q *articleQuery) filter(cond string, args ...any) {
	q.where = append(q.where, cond)
	q.args = append(q.args, args...)
}

func (q *articleQuery) whereSQL() string {
	if len(q.where) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(q.where, " AND ")
}

// list returns the page of matching articles (with their bodies when
// body is set) and the count of all matching ones (when count is set).
func (s *server) articles(c context.Context, q *articleQuery, p page, body, count bool) ([]Article, int64, error) {
	var total int64
	if count {
		if err := s.db.pool().row(c, `SELECT COUNT(*) FROM articles a JOIN users u ON u.id = a.author_id`+q.whereSQL(), q.args...).Scan(&total); err != nil {
			return nil, 0, err
		}
		if total == 0 || p.Offset >= int(total) {
			return []Article{}, total, nil
		}
	}
	bodyCol := "''"
	if body {
		bodyCol = "a.body"
	}
	args := append([]any{q.viewer, q.viewer}, q.args...)
	args = append(args, p.Limit, p.Offset)
	rows, err := s.db.pool().query(c, `SELECT a.id, a.slug, a.title, a.description, `+bodyCol+`, a.created_at, a.updated_at,
		u.username, u.bio, u.image,
		(SELECT COUNT(*) FROM favorites f WHERE f.article_id = a.id),
		EXISTS (SELECT 1 FROM favorites f WHERE f.article_id = a.id AND f.user_id = ?),
		EXISTS (SELECT 1 FROM follows w WHERE w.followee_id = a.author_id AND w.follower_id = ?)
		FROM articles a JOIN users u ON u.id = a.author_id`+q.whereSQL()+`
		ORDER BY a.created_at DESC, a.id DESC LIMIT ? OFFSET ?`, args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []Article{}
	var ids []any
	byID := map[int64]int{}
	for rows.Next() {
		var (
			a  Article
			id int64
		)
		if err := rows.Scan(&id, &a.Slug, &a.Title, &a.Description, &a.Body, &a.CreatedAt, &a.UpdatedAt,
			&a.Author.Username, &a.Author.Bio, &a.Author.Image, &a.FavoritesCount, &a.Favorited, &a.Author.Following); err != nil {
			return nil, 0, err
		}
		a.TagList = []string{}
		byID[id] = len(out)
		ids = append(ids, id)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if len(ids) == 0 {
		return out, total, nil
	}
	tags, err := s.db.pool().query(c, `SELECT at.article_id, t.name FROM article_tags at JOIN tags t ON t.id = at.tag_id
		WHERE at.article_id IN (`+placeholders(len(ids))+`) ORDER BY t.name`, ids...)
	if err != nil {
		return nil, 0, err
	}
	defer tags.Close()
	for tags.Next() {
		var (
			id   int64
			name string
		)
		if err := tags.Scan(&id, &name); err != nil {
			return nil, 0, err
		}
		a := &out[byID[id]]
		a.TagList = append(a.TagList, name)
	}
	return out, total, tags.Err()
}

func summaries(as []Article) []ArticleSummary {
	out := make([]ArticleSummary, len(as))
	for i := range as {
		out[i] = as[i].ArticleSummary
	}
	return out
}

func (s *server) listArticles(ctx vireo.Context, in listInput) (ArticlesResponse, error) {
	q := &articleQuery{viewer: viewer(ctx)}
	if in.Tag != nil {
		q.filter(`a.id IN (SELECT at.article_id FROM article_tags at JOIN tags t ON t.id = at.tag_id WHERE t.name = ?)`, *in.Tag)
	}
	if in.Author != nil {
		q.filter(`u.username = ?`, *in.Author)
	}
	if in.Favorited != nil {
		q.filter(`a.id IN (SELECT f.article_id FROM favorites f JOIN users fu ON fu.id = f.user_id WHERE fu.username = ?)`, *in.Favorited)
	}
	as, n, err := s.articles(ctx.Request().Context(), q, in.page, false, true)
	return ArticlesResponse{summaries(as), n}, err
}

func (s *server) feed(ctx vireo.Context, in page) (ArticlesResponse, error) {
	me := viewer(ctx)
	q := &articleQuery{viewer: me}
	q.filter(`a.author_id IN (SELECT followee_id FROM follows WHERE follower_id = ?)`, me)
	as, n, err := s.articles(ctx.Request().Context(), q, in, false, true)
	return ArticlesResponse{summaries(as), n}, err
}

// article loads one article by slug as the viewer sees it, with its id
// and its author's id.
func (s *server) article(c context.Context, slug string, viewer int64) (Article, int64, int64, error) {
	var id, author int64
	err := s.db.pool().row(c, `SELECT id, author_id FROM articles WHERE slug = ?`, slug).Scan(&id, &author)
	if errors.Is(err, sql.ErrNoRows) {
		return Article{}, 0, 0, errNotFound("article")
	}
	if err != nil {
		return Article{}, 0, 0, err
	}
	q := &articleQuery{viewer: viewer}
	q.filter(`a.id = ?`, id)
	as, _, err := s.articles(c, q, page{Limit: 1}, true, false)
	if err == nil && len(as) == 0 {
		err = errNotFound("article") // deleted meanwhile
	}
	if err != nil {
		return Article{}, 0, 0, err
	}
	return as[0], id, author, nil
}

func (s *server) getArticle(ctx vireo.Context, in slugInput) (ArticleResponse, error) {
	a, _, _, err := s.article(ctx.Request().Context(), in.Slug, viewer(ctx))
	return ArticleResponse{a}, err
}

func (s *server) createArticle(ctx vireo.Context, in newArticleInput) (ArticleResponse, error) {
	c := ctx.Request().Context()
	me := viewer(ctx)
	na := in.Article
	var slug string
	err := s.db.inTx(c, func(tx conn) error {
		var err error
		if slug, err = freeSlug(c, tx, na.Title, 0); err != nil {
			return err
		}
		t := now()
		var id int64
		if err := tx.row(c, `INSERT INTO articles (slug, title, description, body, author_id, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, slug, na.Title, na.Description, na.Body, me, t, t).Scan(&id); err != nil {
			return err
		}
		return setTags(c, tx, id, na.TagList)
	})
	if err != nil {
		return ArticleResponse{}, err
	}
	a, _, _, err := s.article(c, slug, me)
	return ArticleResponse{a}, err
}

func (s *server) updateArticle(ctx vireo.Context, in updateArticleInput) (ArticleResponse, error) {
	c := ctx.Request().Context()
	me := viewer(ctx)
	_, id, author, err := s.article(c, in.Slug, me)
	if err != nil {
		return ArticleResponse{}, err
	}
	if author != me {
		return ArticleResponse{}, errForbidden("article")
	}
	slug := in.Slug
	u := in.Article
	err = s.db.inTx(c, func(tx conn) error {
		sets, args := []string{"updated_at = ?"}, []any{now()}
		if u.Title != nil {
			var err error
			if slug, err = freeSlug(c, tx, *u.Title, id); err != nil {
				return err
			}
			sets, args = append(sets, "title = ?", "slug = ?"), append(args, *u.Title, slug)
		}
		if u.Description != nil {
			sets, args = append(sets, "description = ?"), append(args, *u.Description)
		}
		if u.Body != nil {
			sets, args = append(sets, "body = ?"), append(args, *u.Body)
		}
		_, err := tx.exec(c, `UPDATE articles SET `+strings.Join(sets, ", ")+` WHERE id = ?`, append(args, id)...)
		return err
	})
	if err != nil {
		return ArticleResponse{}, err
	}
	a, _, _, err := s.article(c, slug, me)
	return ArticleResponse{a}, err
}

func (s *server) deleteArticle(ctx vireo.Context, in slugInput) (vireo.NoContent, error) {
	c := ctx.Request().Context()
	me := viewer(ctx)
	var id, author int64
	err := s.db.pool().row(c, `SELECT id, author_id FROM articles WHERE slug = ?`, in.Slug).Scan(&id, &author)
	if errors.Is(err, sql.ErrNoRows) {
		return vireo.NoContent{}, errNotFound("article")
	}
	if err != nil {
		return vireo.NoContent{}, err
	}
	if author != me {
		return vireo.NoContent{}, errForbidden("article")
	}
	_, err = s.db.pool().exec(c, `DELETE FROM articles WHERE id = ?`, id)
	return vireo.NoContent{}, err
}

func (s *server) favorite(ctx vireo.Context, in slugInput) (ArticleResponse, error) {
	return s.setFavorite(ctx, in.Slug, `INSERT INTO favorites (user_id, article_id) VALUES (?, ?) ON CONFLICT DO NOTHING`)
}

func (s *server) unfavorite(ctx vireo.Context, in slugInput) (ArticleResponse, error) {
	return s.setFavorite(ctx, in.Slug, `DELETE FROM favorites WHERE user_id = ? AND article_id = ?`)
}

func (s *server) setFavorite(ctx vireo.Context, slug, stmt string) (ArticleResponse, error) {
	c := ctx.Request().Context()
	me := viewer(ctx)
	var id int64
	err := s.db.pool().row(c, `SELECT id FROM articles WHERE slug = ?`, slug).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return ArticleResponse{}, errNotFound("article")
	}
	if err != nil {
		return ArticleResponse{}, err
	}
	if _, err := s.db.pool().exec(c, stmt, me, id); err != nil {
		return ArticleResponse{}, err
	}
	a, _, _, err := s.article(c, slug, me)
	return ArticleResponse{a}, err
}

// slugify turns a title into lower-case words of letters and digits
// joined by '-'.
func slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "article"
	}
	return b.String()
}

// freeSlug returns the slug of title that no article but self has.
func freeSlug(c context.Context, tx conn, title string, self int64) (string, error) {
	base := slugify(title)
	for n := 1; ; n++ {
		slug := base
		if n > 1 {
			slug = base + "-" + strconv.Itoa(n)
		}
		var taken int
		if err := tx.row(c, `SELECT COUNT(*) FROM articles WHERE slug = ? AND id <> ?`, slug, self).Scan(&taken); err != nil {
			return "", err
		}
		if taken == 0 {
			return slug, nil
		}
	}
}
