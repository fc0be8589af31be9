// Package tfb holds TechEmpower's six test types (plaintext, json, db,
// queries, fortunes, updates) and the rules of their verifier, so that the
// suite checks an app as TechEmpower's toolset did before it measured it.
//
// The rules are taken from TechEmpower/FrameworkBenchmarks (archived in
// March 2026), toolset/test_types/*/ and toolset/test_types/verifications.py,
// and written here anew. Verify runs them for the test types asked for, in
// this order:
//
//  1. one request per test type; status 200, a non-empty body, the
//     headers (Server, Date, Content-Type of the type's pattern, and a
//     Content-Length or Transfer-Encoding); the body's rule for the type;
//  2. after one wait of DateWait (TechEmpower: 3 seconds) for all types
//     together, a second request to each, whose Date must differ from the
//     first (a Date cached across seconds fails);
//  3. queries and updates: the cases queries=2, 0, foo, 501 and empty
//     must give 2, 1, 1, 500 and 1 rows (501 is a warning, as theirs);
//     for updates, the World table before and after the 501 case must
//     differ in more than 90% of 500 rows;
//  4. db, queries, fortunes, updates: Concurrency clients send
//     Repetitions requests each, and pg_stat_statements must have seen at
//     least one query per row per request (TechEmpower counts the
//     statements naming the table), the rows read, and for updates the
//     rows updated (5% margin when the updates are batched), with no
//     failed request.
//
// Each finding is a Problem, "fail" or "warn" as TechEmpower graded it; an
// app with any fail is reported failed with the rule and never measured.
package tfb

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/postgres"
)

// Type is one of TechEmpower's test types.
type Type string

// The six test types.
const (
	JSON      Type = "json"
	DB        Type = "db"
	Queries   Type = "queries"
	Fortunes  Type = "fortunes"
	Updates   Type = "updates"
	Plaintext Type = "plaintext"
)

// Types lists the six test types in the order a run measures them.
var Types = []Type{Plaintext, JSON, DB, Queries, Fortunes, Updates}

// Path returns the request path of t; for queries and updates it ends in
// "queries=" and takes the count.
func (t Type) Path() string {
	switch t {
	case Queries, Updates:
		return "/" + string(t) + "?queries="
	default:
		return "/" + string(t)
	}
}

// NeedsDB reports whether t reads PostgreSQL.
func (t Type) NeedsDB() bool { return t == DB || t == Queries || t == Fortunes || t == Updates }

// Table is the table whose statements are counted for t.
func (t Type) Table() string {
	if t == Fortunes {
		return "fortune"
	}
	return "world"
}

// Accept is the Accept header TechEmpower's verifier and load scripts send
// for t.
func (t Type) Accept() string {
	switch t {
	case Plaintext:
		return "text/plain,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7"
	case Fortunes:
		return "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	default:
		return "application/json,text/html;q=0.9,application/xhtml+xml;q=0.9,application/xml;q=0.8,*/*;q=0.7"
	}
}

// Severities of a Problem.
const (
	Fail = "fail"
	Warn = "warn"
)

// Problem is one finding of the verifier.
type Problem struct {
	Severity string // Fail or Warn
	Rule     string // the rule, such as "Content-Type" or "cached Date"
	URL      string // the request path (and query) it was found on
	Detail   string
}

// String formats p as "severity: rule: detail (url)".
func (p Problem) String() string {
	return fmt.Sprintf("%s: %s: %s (%s)", p.Severity, p.Rule, p.Detail, p.URL)
}

// Failed returns the problems of severity Fail.
func Failed(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if p.Severity == Fail {
			out = append(out, p)
		}
	}
	return out
}

// Database is what the verifier reads from PostgreSQL; *postgres.Server
// implements it.
type Database interface {
	Stats(ctx context.Context, table string) (postgres.Stats, error)
	World(ctx context.Context) (map[int]int, error)
}

// Verifier checks one running app.
type Verifier struct {
	// Base is the app's URL, such as http://127.0.0.1:5000.
	Base string
	// Client sends the requests (default: one with a 15s timeout, as
	// TechEmpower's).
	Client *http.Client
	// DB is the app's database; without it the database types fail.
	DB Database
	// DateWait is the pause between the two requests whose Date headers
	// must differ (default 3s, TechEmpower's).
	DateWait time.Duration
	// Concurrency and Repetitions shape the query count (TechEmpower:
	// their highest concurrency level, 512, once); defaults 512 and 1.
	Concurrency, Repetitions int
}

// response is what the rules look at.
type response struct {
	url    string
	status int
	header http.Header
	body   []byte
	// chunked is set when the body came with Transfer-Encoding: chunked,
	// which Go's client removes from the header map.
	chunked bool
}

func (v *Verifier) client() *http.Client {
	if v.Client != nil {
		return v.Client
	}
	return &http.Client{Timeout: 15 * time.Second}
}

// get requests path with t's Accept header.
func (v *Verifier) get(ctx context.Context, t Type, path string) (*response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(v.Base, "/")+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", t.Accept())
	res, err := v.client().Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return &response{url: path, status: res.StatusCode, header: res.Header, body: body, chunked: len(res.TransferEncoding) > 0}, nil
}

// Verify runs the rules of the given types (all six when none) and returns
// every problem found; an app that passes returns none, or warnings only.
func (v *Verifier) Verify(ctx context.Context, types ...Type) []Problem {
	if len(types) == 0 {
		types = Types
	}
	var ps []Problem
	first := map[Type]*response{}
	for _, t := range types {
		path := t.Path()
		if t == Queries || t == Updates {
			path += "20"
		}
		r, err := v.get(ctx, t, path)
		if err != nil {
			ps = append(ps, Problem{Fail, "response", path, err.Error()})
			continue
		}
		first[t] = r
		ps = append(ps, checkResponse(t, r)...)
	}
	ps = append(ps, v.checkDates(ctx, types, first)...)
	for _, t := range types {
		if first[t] == nil {
			continue
		}
		if t == Queries || t == Updates {
			ps = append(ps, v.checkQueryCases(ctx, t)...)
		}
		if t.NeedsDB() && len(Failed(ps)) == 0 {
			ps = append(ps, v.checkCounts(ctx, t)...)
		}
	}
	return ps
}

// checkResponse applies the status, header and body rules of t to r.
func checkResponse(t Type, r *response) []Problem {
	ps := checkStatus(r)
	ps = append(ps, checkHeaders(t, r)...)
	switch t {
	case Plaintext:
		ps = append(ps, checkPlaintext(r)...)
	case JSON:
		ps = append(ps, checkHelloWorld(r)...)
	case DB:
		ps = append(ps, checkWorldObject(r)...)
	case Queries, Updates:
		ps = append(ps, checkWorldList(r, 20, Fail)...)
	case Fortunes:
		ps = append(ps, checkFortunes(r)...)
	}
	return ps
}

func checkStatus(r *response) []Problem {
	if r.status != http.StatusOK {
		return []Problem{{Fail, "status", r.url, fmt.Sprintf("status %d, want 200", r.status)}}
	}
	return nil
}
