package tfb

import (
	"context"
	"encoding/json"
	htmltemplate "html/template"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vireo-go/vireo/_benchmarks/internal/postgres"
)

// bugs are the mistakes the verifier must catch, each switched on in one
// case of TestVerifierFailsWrongApps.
type bugs struct {
	contentType string // the Content-Type of /json
	cachedDate  bool   // one Date for every response
	noClamp     bool   // queries=0 gives no rows, queries=501 gives 501
	unescaped   bool   // fortunes rendered with text/template
	noWrite     bool   // updates read and answer, but write nothing
	cachedWorld bool   // /db answers from memory after the first query
	noServer    bool   // no Server header
}

const fortunePage = `<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>{{range .}}<tr><td>{{.ID}}</td><td>{{.Message}}</td></tr>{{end}}</table></body></html>`

type world struct {
	ID           int `json:"id"`
	RandomNumber int `json:"randomNumber"`
}

type fortune struct {
	ID      int
	Message string
}

// referenceApp is a correct TechEmpower app on net/http and pgx, with the
// mistakes of b switched on.
func referenceApp(t *testing.T, pool *pgxpool.Pool, b bugs) *httptest.Server {
	html := htmltemplate.Must(htmltemplate.New("f").Parse(fortunePage))
	text := template.Must(template.New("f").Parse(fortunePage))
	startDate := time.Now().UTC().Format(http.TimeFormat)
	var cached *world
	headers := func(w http.ResponseWriter, ct string) {
		if !b.noServer {
			w.Header().Set("Server", "reference")
		}
		if b.cachedDate {
			w.Header().Set("Date", startDate)
		}
		w.Header().Set("Content-Type", ct)
	}
	queries := func(r *http.Request) int {
		n, err := strconv.Atoi(r.URL.Query().Get("queries"))
		if b.noClamp {
			return max(n, 0)
		}
		if err != nil || n < 1 {
			return 1
		}
		return min(n, 500)
	}
	read := func(ctx context.Context, n int) ([]world, error) {
		ws := make([]world, n)
		for i := range ws {
			if err := pool.QueryRow(ctx, "SELECT id, randomnumber FROM world WHERE id = $1", rand.IntN(10000)+1).Scan(&ws[i].ID, &ws[i].RandomNumber); err != nil {
				return nil, err
			}
		}
		return ws, nil
	}
	fail := func(w http.ResponseWriter, err error) { http.Error(w, err.Error(), http.StatusInternalServerError) }
	mux := http.NewServeMux()
	mux.HandleFunc("GET /plaintext", func(w http.ResponseWriter, r *http.Request) {
		headers(w, "text/plain")
		io.WriteString(w, "Hello, World!")
	})
	mux.HandleFunc("GET /json", func(w http.ResponseWriter, r *http.Request) {
		ct := "application/json"
		if b.contentType != "" {
			ct = b.contentType
		}
		headers(w, ct)
		json.NewEncoder(w).Encode(map[string]string{"message": "Hello, World!"})
	})
	mux.HandleFunc("GET /db", func(w http.ResponseWriter, r *http.Request) {
		if b.cachedWorld && cached != nil {
			headers(w, "application/json")
			json.NewEncoder(w).Encode(cached)
			return
		}
		ws, err := read(r.Context(), 1)
		if err != nil {
			fail(w, err)
			return
		}
		cached = &ws[0]
		headers(w, "application/json")
		json.NewEncoder(w).Encode(ws[0])
	})
	mux.HandleFunc("GET /queries", func(w http.ResponseWriter, r *http.Request) {
		ws, err := read(r.Context(), queries(r))
		if err != nil {
			fail(w, err)
			return
		}
		headers(w, "application/json")
		json.NewEncoder(w).Encode(ws)
	})
	mux.HandleFunc("GET /updates", func(w http.ResponseWriter, r *http.Request) {
		ws, err := read(r.Context(), queries(r))
		if err != nil {
			fail(w, err)
			return
		}
		ids, numbers := make([]int32, len(ws)), make([]int32, len(ws))
		for i := range ws {
			ws[i].RandomNumber = rand.IntN(10000) + 1
			ids[i], numbers[i] = int32(ws[i].ID), int32(ws[i].RandomNumber)
		}
		if !b.noWrite {
			if _, err := pool.Exec(r.Context(), "UPDATE world SET randomnumber = u.n FROM unnest($1::int[], $2::int[]) AS u(id, n) WHERE world.id = u.id", ids, numbers); err != nil {
				fail(w, err)
				return
			}
		}
		headers(w, "application/json")
		json.NewEncoder(w).Encode(ws)
	})
	mux.HandleFunc("GET /fortunes", func(w http.ResponseWriter, r *http.Request) {
		rows, _ := pool.Query(r.Context(), "SELECT id, message FROM fortune")
		fs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[fortune])
		if err != nil {
			fail(w, err)
			return
		}
		fs = append(fs, fortune{0, "Additional fortune added at request time."})
		slices.SortFunc(fs, func(a, b fortune) int { return strings.Compare(a.Message, b.Message) })
		headers(w, "text/html; charset=utf-8")
		if b.unescaped {
			text.Execute(w, fs)
		} else {
			html.Execute(w, fs)
		}
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func verifier(db *postgres.Server, s *httptest.Server) *Verifier {
	return &Verifier{Base: s.URL, DB: db, DateWait: 1100 * time.Millisecond, Concurrency: 16, Repetitions: 2}
}

func newPool(t *testing.T, db *postgres.Server) *pgxpool.Pool {
	cfg, err := pgxpool.ParseConfig(db.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns = 16
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// TestVerifierPassesReferenceApp runs every rule of the six types against a
// correct app on a real PostgreSQL: nothing fails, nothing warns.
func TestVerifierPassesReferenceApp(t *testing.T) {
	db := postgres.Must(t)
	s := referenceApp(t, newPool(t, db), bugs{})
	for _, p := range verifier(db, s).Verify(context.Background()) {
		t.Error(p)
	}
}

// TestVerifierFailsWrongApps switches on one mistake at a time and expects
// the rule that catches it among the failures.
func TestVerifierFailsWrongApps(t *testing.T) {
	db := postgres.Must(t)
	pool := newPool(t, db)
	for _, tc := range []struct {
		name string
		bugs bugs
		typ  Type
		rule string
	}{
		{"wrong content type", bugs{contentType: "text/plain"}, JSON, "Content-Type"},
		{"json with a charset other than utf-8", bugs{contentType: "application/json; charset=latin1"}, JSON, "Content-Type"},
		{"cached Date", bugs{cachedDate: true}, Plaintext, "cached Date"},
		{"no Server header", bugs{noServer: true}, Plaintext, "header Server"},
		{"wrong clamping", bugs{noClamp: true}, Queries, "clamping queries=0"},
		{"unescaped fortune", bugs{unescaped: true}, Fortunes, "fortunes page"},
		{"updates that write nothing", bugs{noWrite: true}, Updates, "updates written"},
		{"db answered from a cache", bugs{cachedWorld: true}, DB, "queries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := referenceApp(t, pool, tc.bugs)
			ps := Failed(verifier(db, s).Verify(context.Background(), tc.typ))
			if !slices.ContainsFunc(ps, func(p Problem) bool { return p.Rule == tc.rule }) {
				t.Errorf("no %q failure; failures: %v", tc.rule, ps)
			}
		})
	}
}
