package h2_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/vireo-go/vireo/h2"
)

// ConfigureServer hands a plain http.Server's HTTP/2 connections to this
// path; a Vireo application chooses it with the option
// vireo.New(vireo.WithHTTP2(h2.MustNew())) instead.
func ExampleServer_ConfigureServer() {
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello over "+r.Proto)
	}))
	ts.EnableHTTP2 = true
	if err := h2.MustNew(h2.WithMaxConcurrentStreams(100)).ConfigureServer(ts.Config); err != nil {
		fmt.Println(err)
		return
	}
	ts.StartTLS()
	defer ts.Close()

	resp, err := ts.Client().Get(ts.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Proto, string(body))
	// Output: HTTP/2.0 hello over HTTP/2.0
}
