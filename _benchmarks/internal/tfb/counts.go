// This file holds the rules that need the database: the queries= cases
// of the queries and updates types (verify_query_cases), the check that
// updates changed the World table (verify_updates), and the statement
// count (verify_queries_count): Concurrency clients send Repetitions
// requests each while pg_stat_statements counts the statements that name
// the type's table; the counts before and after are compared with what
// that many requests must cost, with TechEmpower's grading:
//
//	db:        1 query and 1 row read per request
//	fortunes:  1 query and 12 rows read per request
//	queries:   20 queries and 20 rows read per request (queries=20)
//	updates:   20 selects and either 1 batched update (21 statements,
//	           within 0.1%) or 20 single ones (40 statements) per request,
//	           20 rows read and 20 rows updated (5% margin when batched:
//	           a batch that draws one id twice updates it once)
//
// As theirs, rows read are the rows of the counted statements whose text
// contains "select", so an update written as UPDATE … FROM (SELECT
// unnest(…)) counts its rows as read too and warns; FROM unnest($1, $2)
// does not.
//
// Fewer than expected fails; more than 5% above expected warns. A request
// that errs or answers other than 200 during the count fails the type.
package tfb

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// queryCase is one value of the queries parameter, the rows it must give,
// and how a wrong answer is graded.
type queryCase struct {
	value    string
	rows     int
	severity string
}

// queryCases are TechEmpower's cases: out-of-range and non-numeric values
// clamp to 1..500 (501 only warns, as theirs).
var queryCases = []queryCase{
	{"2", 2, Fail},
	{"0", 1, Fail},
	{"foo", 1, Fail},
	{"501", 500, Warn},
	{"", 1, Fail},
}

func (v *Verifier) checkQueryCases(ctx context.Context, t Type) []Problem {
	var ps []Problem
	var before map[int]int
	if t == Updates {
		if v.DB == nil {
			return []Problem{{Fail, "database", t.Path(), "no database to check the updates against"}}
		}
		var err error
		if before, err = v.DB.World(ctx); err != nil {
			return []Problem{{Fail, "database", t.Path(), err.Error()}}
		}
	}
	for _, c := range queryCases {
		r, err := v.get(ctx, t, t.Path()+c.value)
		if err != nil {
			ps = append(ps, Problem{c.severity, "queries=" + c.value, t.Path() + c.value, err.Error()})
			continue
		}
		ps = append(ps, checkStatus(r)...)
		ps = append(ps, checkHeaders(t, r)...)
		for _, p := range checkWorldList(r, c.rows, c.severity) {
			if p.Rule == "row count" {
				p.Rule = "clamping queries=" + c.value
			}
			ps = append(ps, p)
		}
		if t == Updates && c.rows == 500 {
			after, err := v.DB.World(ctx)
			if err != nil {
				return append(ps, Problem{Fail, "database", r.url, err.Error()})
			}
			ps = append(ps, checkUpdated(before, after, 500, r.url)...)
		}
	}
	return ps
}

// checkUpdated grades how many World rows changed between before and
// after, against expected updates.
func checkUpdated(before, after map[int]int, expected int, url string) []Problem {
	changed := 0
	for id, n := range before {
		if m, ok := after[id]; ok && m != n {
			changed++
		}
	}
	switch {
	case changed == 0:
		return []Problem{{Fail, "updates written", url, "no World row changed in the database"}}
	case float64(changed) <= 0.90*float64(expected):
		return []Problem{{Fail, "updates written", url, fmt.Sprintf("only %d World rows changed, of about %d", changed, expected)}}
	case float64(changed) <= 0.95*float64(expected):
		return []Problem{{Warn, "updates written", url, fmt.Sprintf("only %d World rows changed, of about %d", changed, expected)}}
	}
	return nil
}

func (v *Verifier) checkCounts(ctx context.Context, t Type) []Problem {
	if v.DB == nil {
		return []Problem{{Fail, "database", t.Path(), "no database to count the queries in"}}
	}
	c, reps := v.Concurrency, v.Repetitions
	if c <= 0 {
		c = 512
	}
	if reps <= 0 {
		reps = 1
	}
	path, perRequest, rowsPer := t.Path(), 1, 1
	switch t {
	case Fortunes:
		rowsPer = 12
	case Queries, Updates:
		path += "20"
		perRequest, rowsPer = 20, 20
	}
	requests := c * reps
	before, err := v.DB.Stats(ctx, t.Table())
	if err != nil {
		return []Problem{{Fail, "database", path, err.Error()}}
	}
	failed := v.hammer(ctx, t, path, c, reps)
	after, err := v.DB.Stats(ctx, t.Table())
	if err != nil {
		return []Problem{{Fail, "database", path, err.Error()}}
	}
	got := after.Sub(before)
	var ps []Problem
	if failed > 0 {
		ps = append(ps, Problem{Fail, "failed requests", path, fmt.Sprintf("%d of %d requests failed while counting queries", failed, requests)})
	}
	wantQueries := float64(perRequest * requests)
	updateMargin := 1.0
	if t == Updates {
		bulk := wantQueries + float64(requests)
		if q := float64(got.Queries); q > 0.999*bulk && q < 1.001*bulk {
			wantQueries, updateMargin = bulk, 1.05
		} else {
			wantQueries *= 2
		}
	}
	ps = append(ps, grade("queries", float64(got.Queries), wantQueries, got.Queries, path)...)
	ps = append(ps, grade("rows read", float64(got.RowsRead), float64(rowsPer*requests), got.RowsRead, path)...)
	if t == Updates {
		ps = append(ps, grade("rows updated", float64(got.RowsUpdated)*updateMargin, float64(rowsPer*requests), got.RowsUpdated, path)...)
	}
	return ps
}

// grade compares a count (with its margin applied) with what was expected.
func grade(what string, result, expected float64, shown int64, path string) []Problem {
	switch {
	case result < expected:
		return []Problem{{Fail, what, path, fmt.Sprintf("only %d %s in the database, of %.0f expected", shown, what, expected)}}
	case result > 1.05*expected:
		return []Problem{{Warn, what, path, fmt.Sprintf("%d %s in the database, %.0f expected: excessively high", shown, what, expected)}}
	}
	return nil
}

// hammer sends reps requests from each of c concurrent clients and returns
// how many failed (an error or a status other than 200).
func (v *Verifier) hammer(ctx context.Context, t Type, path string, c, reps int) int64 {
	tr := &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c, IdleConnTimeout: 30 * time.Second}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 20 * time.Second}
	url := strings.TrimRight(v.Base, "/") + path
	var failed atomic.Int64
	var wg sync.WaitGroup
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range reps {
				req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				if err != nil {
					failed.Add(1)
					continue
				}
				req.Header.Set("Accept", t.Accept())
				res, err := client.Do(req)
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return failed.Load()
}
