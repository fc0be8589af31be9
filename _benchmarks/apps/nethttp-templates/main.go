// Command nethttp-templates is the floor of the templates comparison: the
// page on the standard library alone, to price what a framework's MVC and
// view layers add. A ServeMux route GET /{$} executes html/template
// templates parsed once at startup with a struct as data, into a buffer
// from a sync.Pool, and writes the page in one Write; net/http sets the
// Content-Length, as the page fits in its response buffer.
//
// The views are embedded copies of expected/views-html (the test keeps them
// equal). The layout's {{ yield . }}, which the framework engines provide,
// becomes {{ template "index.html" . }} before parsing: plain html/template
// composition, and the same bytes on the wire.
//
// The http.Server has the timeouts Vireo sets by default (core.Serve), so
// the ratio to this app prices the framework, not a safety setting; the
// test keeps the values equal to core's.
package main

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// textHTML is the Content-Type, assigned to the header map directly (the
// key is canonical) and shared by every response: net/http only reads it.
var textHTML = []string{"text/html; charset=utf-8"}

//go:embed views
var views embed.FS

// page is the data of the index page.
type page struct {
	Title string
}

// parseViews returns the layout with the index page parsed into it.
func parseViews() (*template.Template, error) {
	layout, err := views.ReadFile("views/layouts/layout.html")
	if err != nil {
		return nil, err
	}
	index, err := views.ReadFile("views/index.html")
	if err != nil {
		return nil, err
	}
	src := strings.Replace(string(layout), "{{ yield . }}", `{{ template "index.html" . }}`, 1)
	t, err := template.New("layout.html").Parse(src)
	if err != nil {
		return nil, err
	}
	if _, err := t.New("index.html").Parse(string(index)); err != nil {
		return nil, err
	}
	return t, nil
}

// home renders the index page inside the layout.
func home(t *template.Template) http.HandlerFunc {
	pool := sync.Pool{New: func() any { return new(bytes.Buffer) }}
	data := page{Title: "Home Page"}
	return func(w http.ResponseWriter, r *http.Request) {
		buf := pool.Get().(*bytes.Buffer)
		defer pool.Put(buf)
		buf.Reset()
		if err := t.Execute(buf, data); err != nil {
			http.Error(w, "rendering the page failed", http.StatusInternalServerError)
			return
		}
		w.Header()["Content-Type"] = textHTML
		w.Write(buf.Bytes())
	}
}

func main() {
	t, err := parseViews()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", home(t))

	port := os.Getenv("PORT")
	if port == "" {
		port = "5000"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("Now listening on: http://127.0.0.1:%d\nApplication started. Press CTRL+C to shut down.\n", ln.Addr().(*net.TCPAddr).Port)
	if err := newServer(mux).Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// newServer returns the server of this app, with the limits Vireo's Serve
// sets by default (the test compares them): a deadline for the request
// headers, an idle timeout and a header size
// bound. Vireo bounds request bodies and responses by a minimum data rate
// (armed only while a body is read or a large response is written, neither
// of which this app does) and leaves http.Server's ReadTimeout and
// WriteTimeout at zero, as does this app.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    1 << 20,
	}
}
