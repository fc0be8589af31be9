// Users and authentication: registration, login, the current user and
// its update (POST /users, POST /users/login, GET and PUT /user).
//
// Registration and updates check that the email and the username are
// free before they write, so the client gets "email has already been
// taken" (422); a race between two registrations still ends in the
// unique index, which is answered the same way. Login answers 401 for an
// unknown email and for a wrong password alike, after a bcrypt comparison
// in both cases, so neither the answer nor its time says which it was.

package main

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/middleware"
)

// User is the authenticated user as the API shows it.
type User struct {
	Email    string  `json:"email"`
	Token    string  `json:"token"`
	Username string  `json:"username"`
	Bio      string  `json:"bio"`
	Image    *string `json:"image"`
}

// UserResponse wraps a User.
type UserResponse struct {
	User User `json:"user"`
}

// NewUser is the body of a registration.
type NewUser struct {
	Username string `json:"username" validate:"required,max=64"`
	Email    string `json:"email" validate:"required,email,max=254"`
	Password string `json:"password" validate:"required,min=8,max=72"`
}

type registerInput struct {
	User NewUser `json:"user"`
}

// LoginUser is the body of a login.
type LoginUser struct {
	Email    string `json:"email" validate:"required"`
	Password string `json:"password" validate:"required"`
}

type loginInput struct {
	User LoginUser `json:"user"`
}

// UpdateUser is the body of an update of the current user: the fields to
// change.
type UpdateUser struct {
	Email    *string `json:"email" validate:"omitnil,email,max=254"`
	Username *string `json:"username" validate:"omitnil,min=1,max=64"`
	Password *string `json:"password" validate:"omitnil,min=8,max=72"`
	Bio      *string `json:"bio" validate:"omitnil,max=4096"`
	Image    *string `json:"image" validate:"omitnil,max=2048"`
}

type updateUserInput struct {
	User UpdateUser `json:"user"`
}

// a bcrypt hash compared when the email is unknown, so that login takes
// the same time either way.
var absentHash, _ = hashPassword("vireo: no such user")

func (s *server) registerUsers(api, authed *vireo.Router) {
	vireo.Post(api, "/users/login", s.login, append(documented("User and Authentication", "Login", "Existing user login",
		http.StatusUnauthorized, http.StatusUnprocessableEntity), vireo.Status(http.StatusOK))...)
	vireo.Post(api, "/users", s.register,
		documented("User and Authentication", "CreateUser", "Register a new user", http.StatusUnprocessableEntity)...)
	vireo.Get(authed, "/user", s.currentUser,
		documented("User and Authentication", "GetCurrentUser", "Get current user", http.StatusUnauthorized)...)
	vireo.Put(authed, "/user", s.updateUser,
		documented("User and Authentication", "UpdateCurrentUser", "Update current user", http.StatusUnauthorized, http.StatusUnprocessableEntity)...)
}

func (s *server) register(ctx vireo.Context, in registerInput) (UserResponse, error) {
	c := ctx.Request().Context()
	u := in.User
	u.Email = strings.TrimSpace(u.Email)
	if err := s.checkFree(c, 0, &u.Email, &u.Username); err != nil {
		return UserResponse{}, err
	}
	hash, err := hashPassword(u.Password)
	if err != nil {
		return UserResponse{}, err
	}
	var id int64
	err = s.db.pool().row(c, `INSERT INTO users (email, username, password_hash) VALUES (?, ?, ?) RETURNING id`,
		u.Email, u.Username, hash).Scan(&id)
	if isUnique(err) {
		return UserResponse{}, invalid("email", "or username has already been taken")
	}
	if err != nil {
		return UserResponse{}, err
	}
	return s.userResponse(c, id, "")
}

func (s *server) login(ctx vireo.Context, in loginInput) (UserResponse, error) {
	c := ctx.Request().Context()
	var (
		id   int64
		hash string
	)
	err := s.db.pool().row(c, `SELECT id, password_hash FROM users WHERE email = ?`, strings.TrimSpace(in.User.Email)).Scan(&id, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		checkPassword(absentHash, in.User.Password)
		return UserResponse{}, vireo.NewHTTPError(http.StatusUnauthorized, "email or password is invalid")
	}
	if err != nil {
		return UserResponse{}, err
	}
	if !checkPassword(hash, in.User.Password) {
		return UserResponse{}, vireo.NewHTTPError(http.StatusUnauthorized, "email or password is invalid")
	}
	return s.userResponse(c, id, "")
}

func (s *server) currentUser(ctx vireo.Context, _ struct{}) (UserResponse, error) {
	return s.userResponse(ctx.Request().Context(), viewer(ctx), middleware.BearerToken(ctx))
}

func (s *server) updateUser(ctx vireo.Context, in updateUserInput) (UserResponse, error) {
	c := ctx.Request().Context()
	id := viewer(ctx)
	u := in.User
	if u.Email != nil {
		*u.Email = strings.TrimSpace(*u.Email)
	}
	if err := s.checkFree(c, id, u.Email, u.Username); err != nil {
		return UserResponse{}, err
	}
	var sets []string
	var args []any
	set := func(col string, v any) { sets = append(sets, col+" = ?"); args = append(args, v) }
	if u.Email != nil {
		set("email", *u.Email)
	}
	if u.Username != nil {
		set("username", *u.Username)
	}
	if u.Bio != nil {
		set("bio", *u.Bio)
	}
	if u.Image != nil {
		if *u.Image == "" {
			set("image", nil) // "" clears the picture
		} else {
			set("image", *u.Image)
		}
	}
	if u.Password != nil {
		hash, err := hashPassword(*u.Password)
		if err != nil {
			return UserResponse{}, err
		}
		set("password_hash", hash)
	}
	if len(sets) > 0 {
		_, err := s.db.pool().exec(c, `UPDATE users SET `+strings.Join(sets, ", ")+` WHERE id = ?`, append(args, id)...)
		if isUnique(err) {
			return UserResponse{}, invalid("email", "or username has already been taken")
		}
		if err != nil {
			return UserResponse{}, err
		}
	}
	return s.userResponse(c, id, middleware.BearerToken(ctx))
}

// checkFree answers 422 when another user than id has the email or the
// username (nil: not being set).
func (s *server) checkFree(c context.Context, id int64, email, username *string) error {
	bad := map[string]string{}
	for field, v := range map[string]*string{"email": email, "username": username} {
		if v == nil {
			continue
		}
		var n int
		if err := s.db.pool().row(c, `SELECT COUNT(*) FROM users WHERE `+field+` = ? AND id <> ?`, *v, id).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			bad[field] = "has already been taken"
		}
	}
	if len(bad) > 0 {
		return &vireo.ValidationError{Fields: bad}
	}
	return nil
}

// userResponse loads the user id; token is the one to show, "" for a new one.
func (s *server) userResponse(c context.Context, id int64, token string) (UserResponse, error) {
	var u User
	err := s.db.pool().row(c, `SELECT email, username, bio, image FROM users WHERE id = ?`, id).Scan(&u.Email, &u.Username, &u.Bio, &u.Image)
	if errors.Is(err, sql.ErrNoRows) {
		return UserResponse{}, vireo.NewHTTPError(http.StatusUnauthorized, "the token's user does not exist")
	}
	if err != nil {
		return UserResponse{}, err
	}
	if token == "" {
		if token, err = s.tokens.issue(id); err != nil {
			return UserResponse{}, err
		}
	}
	u.Token = token
	return UserResponse{u}, nil
}
