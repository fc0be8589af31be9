// Command realworld is the RealWorld ("Conduit") backend on Vireo: the
// blogging API of github.com/gothinkster/realworld (users, profiles and
// follows, articles, the feed, favorites, comments, tags) under /api, with
// the spec's JSON shapes and its error body {"errors": {"body": [...]}}.
//
//	ADDR         where to listen (default 127.0.0.1:8080)
//	DATABASE_URL "" = SQLite in memory (the default), sqlite:PATH = a SQLite
//	             file, postgres://user:pass@host/db = PostgreSQL
//	JWT_SECRET   the HMAC key of the tokens (32 bytes or more); without it
//	             a development key is used and the server warns
//
// The schema is migrated at start. The OpenAPI document of the API is at
// /api/openapi.json.
//
//	cd _examples/realworld && go run .
//	curl -s -H 'Content-Type: application/json' \
//	  -d '{"user":{"username":"jake","email":"jake@jake.jake","password":"jakejake"}}' \
//	  http://127.0.0.1:8080/api/users
package main

import (
	"context"
	"log"
	"time"
)

func main() {
	cfg := configFromEnv()
	db, err := openDB(cfg.databaseURL)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	n, err := db.migrate(ctx)
	cancel()
	if err != nil {
		log.Fatal(err)
	}
	app, err := newApp(cfg, db)
	if err != nil {
		log.Fatal(err)
	}
	app.Logger().Info("conduit: schema ready", "migrations_applied", n, "postgres", db.postgres)
	if err := app.Listen(cfg.addr); err != nil {
		log.Fatal(err)
	}
}
