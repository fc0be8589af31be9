// The application: its configuration from the environment and the routes.
//
// All routes are under /api, in three groups that differ only in their
// authentication: none (register, login, tags), required (BearerAuth with
// the scheme word "Token": 401 without a valid token) and optional (the
// same middleware, run only when there is an Authorization header). Every
// resource registers its typed handlers in its own file; the error handler
// of errors.go writes every error in RealWorld's format; the OpenAPI
// document the framework generates from the handlers is served at
// /api/openapi.json.

package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/openapi"
	"github.com/vireo-go/vireo/validator"
)

// devJWTKey signs tokens when JWT_SECRET is not set: fine on a laptop,
// never in production (the server warns at start).
const devJWTKey = "vireo-realworld-development-key-do-not-use-in-production"

// config is what the environment sets.
type config struct {
	addr        string // ADDR, default 127.0.0.1:8080
	databaseURL string // DATABASE_URL, default SQLite in memory
	jwtKey      string // JWT_SECRET, default devJWTKey
	logOut      io.Writer
}

// configFromEnv reads ADDR, DATABASE_URL and JWT_SECRET.
func configFromEnv() config {
	cfg := config{addr: os.Getenv("ADDR"), databaseURL: os.Getenv("DATABASE_URL"), jwtKey: os.Getenv("JWT_SECRET"), logOut: os.Stderr}
	if cfg.addr == "" {
		cfg.addr = "127.0.0.1:8080"
	}
	return cfg
}

// server holds what the handlers share.
type server struct {
	db     *DB
	tokens *tokens
	log    *slog.Logger
}

// newApp builds the application on an open, migrated database.
func newApp(cfg config, db *DB) (*vireo.Application, error) {
	logger := slog.New(slog.NewTextHandler(cfg.logOut, nil))
	key := cfg.jwtKey
	if key == "" {
		logger.Warn("JWT_SECRET is not set: tokens are signed with the development key, which anyone can read in the source; set JWT_SECRET in production")
		key = devJWTKey
	} else if len(key) < 32 {
		return nil, fmt.Errorf("JWT_SECRET has %d bytes: at least 32 expected", len(key))
	}
	v, err := validator.New()
	if err != nil {
		return nil, err
	}
	app := vireo.New(
		vireo.WithLogger(logger),
		vireo.WithStartupOutput(nil),
		vireo.WithBodyLimit(1<<20),
		vireo.WithValidator(v),
		vireo.WithOpenAPI("/api/openapi.json", openapi.Info{
			Title:       "Conduit",
			Version:     "1.0.0",
			Description: "The RealWorld (Conduit) API on Vireo. Authenticated routes read `Authorization: Token <jwt>`.",
			License:     &openapi.License{Name: "MIT", Identifier: "MIT"},
		}),
	)
	app.OnError(writeError)
	s := &server{db: db, tokens: newTokens([]byte(key)), log: logger}
	required, optional := s.tokens.middleware()
	api := app.Group("/api")
	authed := api.Group("", required)
	viewerOptional := api.Group("", optional)
	s.registerUsers(api, authed)
	s.registerProfiles(authed, viewerOptional)
	s.registerArticles(authed, viewerOptional)
	s.registerComments(authed, viewerOptional)
	s.registerTags(api)
	if err := app.Build(); err != nil {
		return nil, err
	}
	return app, nil
}
