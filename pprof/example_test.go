package pprof_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/middleware"
	"github.com/vireo-go/vireo/pprof"
)

func ExampleRegister() {
	app := core.New()
	admin := middleware.MustBasicAuth(middleware.WithUsers(map[string]string{"ops": "s3cret"}))
	if err := pprof.Register(app, admin); err != nil {
		panic(err)
	}
	for _, withCredentials := range []bool{false, true} {
		req := httptest.NewRequest("GET", "/debug/pprof/heap?debug=1", nil)
		if withCredentials {
			req.SetBasicAuth("ops", "s3cret")
		}
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, req)
		fmt.Println(withCredentials, rec.Code)
	}
	// Output:
	// false 401
	// true 200
}
