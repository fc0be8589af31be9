// The store's Ping as the readiness check of the health package, against
// a real redis-server that goes down and comes back.

package redis

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/health"
)

func TestPingAsReadinessCheck(t *testing.T) {
	srv := startRedis(t)
	db, err := New(WithAddr(srv.Addr()), WithMaxRetries(-1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	app := core.New()
	health.MustNew(health.WithReadyCheck("redis", db.Ping, time.Second)).Register(app)
	probe := func() (int, health.Report) {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, health.ReadyPath, nil))
		var rep health.Report
		if err := json.Unmarshal(rec.Body.Bytes(), &rep); err != nil {
			t.Fatalf("%v: %s", err, rec.Body)
		}
		return rec.Code, rep
	}
	if code, rep := probe(); code != 200 || rep.Checks["redis"].Status != health.StatusPass {
		t.Fatalf("Redis up: %d %+v", code, rep)
	}
	srv.Kill()
	if code, rep := probe(); code != 503 || rep.Checks["redis"].Status != health.StatusFail || !strings.Contains(rep.Checks["redis"].Error, "ping") {
		t.Fatalf("Redis down: %d %+v", code, rep)
	}
	srv.Start()
	if code, rep := probe(); code != 200 {
		t.Fatalf("Redis back: %d %+v", code, rep)
	}
}
