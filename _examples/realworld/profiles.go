// Profiles and follows: GET /profiles/{username} (authentication
// optional: "following" is the viewer's), POST and DELETE
// /profiles/{username}/follow. Following is idempotent (following twice
// is one row); following oneself is refused with 422.

package main

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"github.com/vireo-go/vireo"
)

// Profile is a user as others see it.
type Profile struct {
	Username  string  `json:"username"`
	Bio       string  `json:"bio"`
	Image     *string `json:"image"`
	Following bool    `json:"following"`
}

// ProfileResponse wraps a Profile.
type ProfileResponse struct {
	Profile Profile `json:"profile"`
}

type usernameInput struct {
	Username string `path:"username" doc:"Username of the profile"`
}

func (s *server) registerProfiles(authed, optional *vireo.Router) {
	vireo.Get(optional, "/profiles/{username}", s.getProfile,
		documented("Profile", "GetProfileByUsername", "Get a profile", http.StatusUnauthorized, http.StatusNotFound)...)
	vireo.Post(authed, "/profiles/{username}/follow", s.follow,
		append(documented("Profile", "FollowUserByUsername", "Follow a user", http.StatusUnauthorized, http.StatusNotFound, http.StatusUnprocessableEntity), vireo.Status(http.StatusOK))...)
	vireo.Delete(authed, "/profiles/{username}/follow", s.unfollow,
		documented("Profile", "UnfollowUserByUsername", "Unfollow a user", http.StatusUnauthorized, http.StatusNotFound)...)
}

func (s *server) getProfile(ctx vireo.Context, in usernameInput) (ProfileResponse, error) {
	p, _, err := s.profile(ctx.Request().Context(), in.Username, viewer(ctx))
	return ProfileResponse{p}, err
}

func (s *server) follow(ctx vireo.Context, in usernameInput) (ProfileResponse, error) {
	c := ctx.Request().Context()
	me := viewer(ctx)
	p, id, err := s.profile(c, in.Username, me)
	if err != nil {
		return ProfileResponse{}, err
	}
	if id == me {
		return ProfileResponse{}, invalid("username", "is you: you cannot follow yourself")
	}
	if _, err := s.db.pool().exec(c, `INSERT INTO follows (follower_id, followee_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, me, id); err != nil {
		return ProfileResponse{}, err
	}
	p.Following = true
	return ProfileResponse{p}, nil
}

func (s *server) unfollow(ctx vireo.Context, in usernameInput) (ProfileResponse, error) {
	c := ctx.Request().Context()
	me := viewer(ctx)
	p, id, err := s.profile(c, in.Username, me)
	if err != nil {
		return ProfileResponse{}, err
	}
	if _, err := s.db.pool().exec(c, `DELETE FROM follows WHERE follower_id = ? AND followee_id = ?`, me, id); err != nil {
		return ProfileResponse{}, err
	}
	p.Following = false
	return ProfileResponse{p}, nil
}

// profile loads the profile of username as viewer (0: anonymous) sees it,
// and the user's id; 404 when there is no such user.
func (s *server) profile(c context.Context, username string, viewer int64) (Profile, int64, error) {
	var (
		p  Profile
		id int64
	)
	err := s.db.pool().row(c, `SELECT u.id, u.username, u.bio, u.image,
		EXISTS (SELECT 1 FROM follows f WHERE f.followee_id = u.id AND f.follower_id = ?)
		FROM users u WHERE u.username = ?`, viewer, username).Scan(&id, &p.Username, &p.Bio, &p.Image, &p.Following)
	if errors.Is(err, sql.ErrNoRows) {
		return Profile{}, 0, errNotFound("profile")
	}
	return p, id, err
}
