package health_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/health"
)

func ExampleChecker_Register() {
	dbUp := false
	checks := health.MustNew(
		health.WithReadyCheck("db", func(context.Context) error {
			if !dbUp {
				return errors.New("connection refused")
			}
			return nil
		}, 0),
	)
	app := core.New()
	checks.Register(app)

	for _, path := range []string{health.LivePath, health.ReadyPath} {
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		fmt.Println(path, rec.Code, checks.Ready(context.Background()).Status)
	}
	dbUp = true
	fmt.Println("after the database came up:", checks.Ready(context.Background()).Status)
	// Output:
	// /healthz 200 fail
	// /readyz 503 fail
	// after the database came up: pass
}
