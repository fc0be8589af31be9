//go:build ignore

// Stack measures how much goroutine stack the fortunes page needs on a
// real connection, in Vireo and in a net/http handler doing the same
// work (template and rows as the tfb apps', no database), and whether the
// GC gives those stacks back.
//
//	cd _benchmarks && go run results/2026-12-03T14-53-25Z-tfb-fortunes-ab/stack.go peak
//	cd _benchmarks && go run results/2026-12-03T14-53-25Z-tfb-fortunes-ab/stack.go shrink
//
// peak finds, for each app and a stack limit of 8 and 16 KB, the largest
// padding of real frames put in front of the handler with which a request
// on a fresh connection still runs under debug.SetMaxStack. Exceeding the
// limit kills the process, so each try is a child process (probe). The
// page is rendered once before the limit is set: html/template escapes a
// template on its first Execute, which runs deeper than the requests
// after it.
//
// shrink serves one request on each of 256 keep-alive connections, reads
// StackInuse, runs two GCs and reads it again, three times.
package main

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/view"
)

const views = "apps/tfb-vireo/views"

type fortune struct {
	ID      int
	Message string
}

// rows are the Fortune rows of internal/postgres/schema.sql and the one
// the apps add at request time, sorted by message as the apps send them.
var rows = []fortune{
	{11, "<script>alert(\"This should not be displayed in a browser alert box.\");</script>"},
	{4, "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"},
	{5, "A computer program does what you tell it to do, not what you want it to do."},
	{2, "A computer scientist is someone who fixes things that aren't broken."},
	{8, "A list is only as strong as its weakest link. — Donald Knuth"},
	{0, "Additional fortune added at request time."},
	{3, "After enough decimal places, nobody gives a damn."},
	{7, "Any program that runs right is obsolete."},
	{10, "Computers make very fast, very accurate mistakes."},
	{6, "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen"},
	{9, "Feature: A bug with seniority."},
	{1, "fortune: No such file or directory"},
	{12, "フレームワークのベンチマーク"},
}

// handler returns the fortunes page of app ("vireo" or "floor") at
// /fortunes.
func handler(app string) http.Handler {
	if app == "floor" {
		tmpl := template.Must(template.ParseFiles(views + "/fortunes.html"))
		buffers := sync.Pool{New: func() any { return new(bytes.Buffer) }}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b := buffers.Get().(*bytes.Buffer)
			b.Reset()
			if err := tmpl.Execute(b, rows); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header()["Content-Type"] = []string{"text/html; charset=utf-8"}
			w.Write(b.Bytes())
			buffers.Put(b)
		})
	}
	engine, err := view.NewHTML(os.DirFS(views), ".html")
	if err != nil {
		panic(err)
	}
	a := vireo.New()
	if err := a.RegisterView(engine); err != nil {
		panic(err)
	}
	server := vireo.NewHeaderField("Server", "Vireo")
	a.UseBeforeRouting(func(ctx vireo.Context) { ctx.SetResponseHeaders(server); ctx.Next() })
	a.Get("/fortunes", func(ctx vireo.Context) { ctx.View("fortunes.html", rows) })
	if err := a.Build(); err != nil {
		panic(err)
	}
	return a
}

var sink byte

// pad puts about n bytes of frames on the stack before calling f.
//
//go:noinline
func pad(n int, f func()) {
	var b [256]byte
	b[n&255] = byte(n)
	if n > 0 {
		pad(n-256, f)
		sink += b[(n+1)&255]
		return
	}
	f()
}

func get(c *http.Client, url string) {
	res, err := c.Get(url)
	if err != nil {
		panic(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
}

// probe serves 20 requests, each on a fresh connection, with padding in
// front of app's handler and the stack limited to limit bytes.
func probe(app string, padding, limit int) {
	h := handler(app)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pad(padding, func() { h.ServeHTTP(w, r) })
	}))
	defer ts.Close()
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	get(c, ts.URL+"/fortunes") // warm: the first Execute escapes the template
	debug.SetMaxStack(limit)
	for range 20 {
		get(c, ts.URL+"/fortunes")
	}
}

// peak prints the largest padding of each app under each limit, or -1.
func peak() {
	for _, app := range []string{"floor", "vireo"} {
		for _, limit := range []int{8 << 10, 16 << 10} {
			fits := -1
			for padding := 0; padding <= 12<<10; padding += 128 {
				cmd := exec.Command(os.Args[0], "probe", app, strconv.Itoa(padding), strconv.Itoa(limit))
				if cmd.Run() != nil {
					break
				}
				fits = padding
			}
			fmt.Printf("%s: under %d KB, padding %d fits\n", app, limit>>10, fits)
		}
	}
}

// shrink prints StackInuse per connection after requests and after GC.
func shrink(app string) {
	ts := httptest.NewServer(handler(app))
	defer ts.Close()
	var ms runtime.MemStats
	inuse := func() float64 { runtime.ReadMemStats(&ms); return float64(ms.StackInuse) }
	const n = 256
	clients := make([]*http.Client, n)
	for i := range clients {
		clients[i] = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	}
	base := inuse()
	for round := range 3 {
		var wg sync.WaitGroup
		for _, c := range clients {
			wg.Go(func() { get(c, ts.URL+"/fortunes") })
		}
		wg.Wait()
		after := inuse()
		runtime.GC()
		runtime.GC()
		fmt.Printf("%s round %d: stack per connection %.1f KB after the requests, %.1f KB after GC\n",
			app, round+1, (after-base)/n/1024, (inuse()-base)/n/1024)
	}
}

func main() {
	switch {
	case len(os.Args) == 5 && os.Args[1] == "probe":
		padding, _ := strconv.Atoi(os.Args[3])
		limit, _ := strconv.Atoi(os.Args[4])
		probe(os.Args[2], padding, limit)
	case len(os.Args) == 2 && os.Args[1] == "peak":
		peak()
	case len(os.Args) == 2 && os.Args[1] == "shrink":
		shrink("floor")
		shrink("vireo")
	default:
		fmt.Fprintln(os.Stderr, "usage: go run stack.go peak|shrink")
		os.Exit(2)
	}
}
