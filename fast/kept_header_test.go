package fast_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/vireo-go/vireo/core"
)

// TestKeptHeaderWritesNoOtherResponse keeps the response header map of
// requests past their end, the way each kind of code can get it, and
// writes X-Leak into every kept map from a goroutine while later requests
// run: no later response may carry it. (The fast engine's writer keeps one
// header map per pooled exchange and cleared it for the next request, so a
// kept map was another client's response header.) The later requests go
// over one connection, so that the pooled exchange is reused, and then
// over several at once.
func TestKeptHeaderWritesNoOtherResponse(t *testing.T) {
	// Each kind registers GET /keep?id=..., which hands keep its
	// response's header map and answers "kept".
	type keepFunc func(id string, h http.Header)
	kinds := []struct {
		name     string
		register func(app *core.Application, keep keepFunc)
	}{
		{"ResponseHeader", func(app *core.Application, keep keepFunc) {
			app.Get("/keep", func(ctx core.Context) {
				keep(ctx.Query("id"), ctx.ResponseHeader())
				ctx.WriteString("kept")
			})
		}},
		{"ResponseWriter().Header", func(app *core.Application, keep keepFunc) {
			app.Get("/keep", func(ctx core.Context) {
				keep(ctx.Query("id"), ctx.ResponseWriter().Header())
				ctx.WriteString("kept")
			})
		}},
		{"WrapHandler", func(app *core.Application, keep keepFunc) {
			app.Get("/keep", core.WrapHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				keep(r.URL.Query().Get("id"), w.Header())
				w.Write([]byte("kept"))
			})))
		}},
		{"Mount", func(app *core.Application, keep keepFunc) {
			app.Mount("/keep", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				keep(r.URL.Query().Get("id"), w.Header())
				w.Write([]byte("kept"))
			}))
		}},
		{"WrapMiddleware", func(app *core.Application, keep keepFunc) {
			app.Get("/keep", core.WrapMiddleware(func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					keep(r.URL.Query().Get("id"), w.Header())
					next.ServeHTTP(w, r)
				})
			}), func(ctx core.Context) { ctx.WriteString("kept") })
		}},
	}
	for _, kind := range kinds {
		t.Run(kind.name, func(t *testing.T) {
			var mu sync.Mutex                   // guards the fields below and the kept maps
			pending := map[string]http.Header{} // kept by a request whose response is not in yet
			var kept []http.Header              // kept by requests that are over
			var leaked []string                 // the requests that got X-Leak
			app := newApp()
			kind.register(app, func(id string, h http.Header) {
				mu.Lock()
				pending[id] = h
				mu.Unlock()
			})
			app.Get("/next/{i}", func(ctx core.Context) {
				// A goroutine writes into every kept map, after their
				// responses were sent, while this request runs.
				done := make(chan struct{})
				go func() {
					defer close(done)
					mu.Lock()
					defer mu.Unlock()
					for _, h := range kept {
						h.Set("X-Leak", "1")
					}
				}()
				<-done
				ctx.WriteString("next " + ctx.Param("i"))
			})
			base := serve(t, app)
			keep := func(c *http.Client, id string) {
				if _, body, err := fetch(c, base+"/keep?id="+id); err != nil || body != "kept" {
					t.Errorf("/keep: %q %v", body, err)
				}
				mu.Lock()
				kept = append(kept, pending[id]) // its request is over
				delete(pending, id)
				mu.Unlock()
			}
			check := func(c *http.Client, name string) {
				resp, body, err := fetch(c, base+"/next/"+name)
				switch {
				case err != nil:
					t.Error(err)
				case body != "next "+name:
					t.Errorf("request %s: %q", name, body)
				case len(resp.Header.Values("X-Leak")) != 0:
					mu.Lock()
					leaked = append(leaked, name)
					mu.Unlock()
				}
			}
			report := func(phase string, total int) {
				mu.Lock()
				defer mu.Unlock()
				if len(leaked) > 0 {
					t.Errorf("%s: %d of %d requests got X-Leak, the header of a response kept from another request: %s",
						phase, len(leaked), total, strings.Join(leaked, " "))
				}
			}
			// One connection: the next requests reuse the exchanges of the
			// kept ones.
			c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			defer c.CloseIdleConnections()
			const n = 20
			for i := range n {
				keep(c, fmt.Sprint(i))
			}
			for i := range n {
				check(c, fmt.Sprint(i))
			}
			report("one connection", n)
			if t.Failed() {
				return // the kept maps are live ones: writing on would race
			}
			// Several connections at once, each keeping and checking.
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
					defer c.CloseIdleConnections()
					for i := range n {
						name := fmt.Sprintf("%d-%d", g, i)
						keep(c, name)
						check(c, name)
					}
				}()
			}
			wg.Wait()
			report("4 connections", 4*n)
		})
	}
}

// fetch is get for any goroutine: it returns the error.
func fetch(c *http.Client, url string) (*http.Response, string, error) {
	resp, err := c.Get(url)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}
