// This file is the app's database access with pgx, as TechEmpower's Go
// entries on PostgreSQL do it: one pgxpool of DB_POOL connections (default
// 32) to DATABASE_URL, statements prepared and cached per connection by
// pgx's default mode, several reads sent as one pgx.Batch (one round trip,
// one statement per row), and the updates of a request written by a single
// UPDATE over unnest'ed arrays, ids sorted so that concurrent requests
// lock rows in one order and cannot deadlock. A World drawn twice in one
// request is written once and answered with the value written.
package main

import (
	"cmp"
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

const (
	worldRows      = 10000
	selectWorld    = "SELECT id, randomnumber FROM world WHERE id = $1"
	selectFortunes = "SELECT id, message FROM fortune"
	updateWorlds   = "UPDATE world SET randomnumber = u.n FROM unnest($1::int[], $2::int[]) AS u(id, n) WHERE world.id = u.id"
)

// World is a row of the World table.
type World struct {
	ID           int32 `json:"id"`
	RandomNumber int32 `json:"randomNumber"`
}

// Fortune is a row of the Fortune table.
type Fortune struct {
	ID      int32
	Message string
}

func connect(ctx context.Context) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(os.Getenv("DATABASE_URL"))
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = 32
	if n, err := strconv.Atoi(os.Getenv("DB_POOL")); err == nil && n > 0 {
		cfg.MaxConns = int32(n)
	}
	cfg.MinConns = cfg.MaxConns
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return pool, pool.Ping(ctx)
}

func randomID() int32 { return rand.Int32N(worldRows) + 1 }

// parseQueries clamps the queries parameter to 1..500; a missing or
// malformed one is 1.
func parseQueries(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 1
	}
	return min(n, 500)
}

func oneWorld(ctx context.Context, db *pgxpool.Pool) (World, error) {
	var w World
	err := db.QueryRow(ctx, selectWorld, randomID()).Scan(&w.ID, &w.RandomNumber)
	return w, err
}

func worlds(ctx context.Context, db *pgxpool.Pool, n int) ([]World, error) {
	ws := make([]World, n)
	b := &pgx.Batch{}
	for i := range ws {
		b.Queue(selectWorld, randomID()).QueryRow(func(row pgx.Row) error {
			return row.Scan(&ws[i].ID, &ws[i].RandomNumber)
		})
	}
	return ws, db.SendBatch(ctx, b).Close()
}

func updateWorldRows(ctx context.Context, db *pgxpool.Pool, n int) ([]World, error) {
	ws, err := worlds(ctx, db, n)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ws, func(a, b World) int { return cmp.Compare(a.ID, b.ID) })
	ids, numbers := make([]int32, 0, n), make([]int32, 0, n)
	for i := range ws {
		if i > 0 && ws[i].ID == ws[i-1].ID {
			ws[i].RandomNumber = ws[i-1].RandomNumber
			continue
		}
		ws[i].RandomNumber = randomID()
		ids, numbers = append(ids, ws[i].ID), append(numbers, ws[i].RandomNumber)
	}
	_, err = db.Exec(ctx, updateWorlds, ids, numbers)
	return ws, err
}

// fortunes returns the Fortune rows and the one added at request time,
// sorted by message.
func fortunes(ctx context.Context, db *pgxpool.Pool) ([]Fortune, error) {
	rows, _ := db.Query(ctx, selectFortunes)
	fs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Fortune])
	if err != nil {
		return nil, err
	}
	fs = append(fs, Fortune{Message: "Additional fortune added at request time."})
	slices.SortFunc(fs, func(a, b Fortune) int { return cmp.Compare(a.Message, b.Message) })
	return fs, nil
}
