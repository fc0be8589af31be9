package middleware

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/vireo-go/vireo/core"
)

// decode returns body decoded from encoding ("" for none).
func decode(t testing.TB, encoding string, body io.Reader) string {
	t.Helper()
	var r io.Reader
	switch encoding {
	case "":
		r = body
	case "gzip":
		zr, err := gzip.NewReader(body)
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(body)
	case "zstd":
		zr, err := zstd.NewReader(body)
		if err != nil {
			t.Fatalf("zstd: %v", err)
		}
		defer zr.Close()
		r = zr
	default:
		t.Fatalf("unexpected encoding %q", encoding)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", encoding, err)
	}
	return string(b)
}

var bigText = strings.Repeat("Vireo compresses this line. ", 100) // 2800 bytes

func compressApp(t testing.TB, opts ...CompressOption) *core.Application {
	t.Helper()
	app := core.New(core.WithStartupOutput(nil), core.WithLogger(discardLogger()))
	app.UseBeforeRouting(MustCompress(opts...))
	app.Get("/text", func(ctx core.Context) { ctx.WriteString(bigText) })
	app.Get("/small", func(ctx core.Context) { ctx.WriteString("tiny") })
	app.Get("/json", func(ctx core.Context) {
		ctx.SetResponseHeader("Content-Type", "application/json")
		ctx.WriteString(`{"text":"` + bigText + `"}`)
	})
	app.Get("/png", func(ctx core.Context) {
		ctx.SetResponseHeader("Content-Type", "image/png")
		ctx.WriteString(bigText)
	})
	app.Get("/encoded", func(ctx core.Context) {
		ctx.SetResponseHeader("Content-Encoding", "gzip")
		ctx.SetResponseHeader("Content-Type", "text/plain")
		ctx.WriteString(bigText)
	})
	app.Get("/sized", func(ctx core.Context) {
		ctx.SetResponseHeader("Content-Type", "text/plain")
		ctx.SetResponseHeader("Content-Length", "2800")
		ctx.SetResponseHeader("Etag", `"abc"`)
		ctx.WriteString(bigText)
	})
	app.Get("/nocontent", func(ctx core.Context) { ctx.SetStatus(http.StatusNoContent) })
	app.Get("/notmodified", func(ctx core.Context) { ctx.SetStatus(http.StatusNotModified) })
	app.Get("/fail", func(ctx core.Context) {
		ctx.StopWithError(core.NewHTTPError(http.StatusBadRequest, bigText))
	})
	app.Get("/teapot", func(ctx core.Context) {
		ctx.SetStatus(http.StatusTeapot)
		ctx.WriteString("short and stout")
	})
	app.Get("/file", func(ctx core.Context) {
		http.ServeContent(ctx.ResponseWriter(), ctx.Request(), "f.txt", time.Time{}, strings.NewReader(bigText))
	})
	app.OnErrorCode(http.StatusNotFound, func(ctx core.Context) {
		ctx.SetResponseHeader("Content-Type", "text/html; charset=utf-8")
		ctx.WriteString("<h1>Not here</h1>" + bigText)
	})
	app.OnErrorCode(http.StatusInternalServerError, func(ctx core.Context) {
		ctx.SetResponseHeader("Content-Type", "text/html; charset=utf-8")
		ctx.WriteString("<h1>Broken</h1>" + bigText)
	})
	app.Get("/error500", func(ctx core.Context) { ctx.StopWithError(errors.New("db down")) })
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	return app
}

func TestCompressRoundTrip(t *testing.T) {
	app := compressApp(t)
	tests := []struct {
		path     string
		method   string
		rangeHdr string
		status   int
		encoded  bool // compressed when the client accepts an encoding
		want     string
	}{
		{path: "/text", status: 200, encoded: true, want: bigText},
		{path: "/json", status: 200, encoded: true, want: `{"text":"` + bigText + `"}`},
		{path: "/small", status: 200, want: "tiny"},
		{path: "/png", status: 200, want: bigText},
		{path: "/encoded", status: 200, want: bigText},
		{path: "/sized", status: 200, encoded: true, want: bigText},
		{path: "/nocontent", status: 204},
		{path: "/notmodified", status: 304},
		{path: "/missing", status: 404, encoded: true, want: "<h1>Not here</h1>" + bigText},
		{path: "/fail", status: 400, encoded: true, want: "Bad Request: " + bigText},
		{path: "/error500", status: 500, encoded: true, want: "<h1>Broken</h1>" + bigText},
		{path: "/teapot", status: 418, want: "short and stout"},
		{path: "/text", method: "HEAD", status: 200, encoded: true},
		{path: "/small", method: "HEAD", status: 200},
		{path: "/png", method: "HEAD", status: 200},
		{path: "/file", status: 200, encoded: true, want: bigText},
		{path: "/file", rangeHdr: "bytes=0-9", status: 206, want: bigText[:10]},
		{path: "/file", method: "HEAD", status: 200, encoded: true},
		{path: "/sized", method: "HEAD", status: 200, encoded: true},
	}
	for _, enc := range []string{"gzip", "br", "zstd", ""} {
		for _, tt := range tests {
			method := tt.method
			if method == "" {
				method = "GET"
			}
			t.Run(enc+" "+method+" "+tt.path+" "+tt.rangeHdr, func(t *testing.T) {
				req := httptest.NewRequest(method, tt.path, nil)
				if enc != "" {
					req.Header.Set("Accept-Encoding", enc)
				}
				if tt.rangeHdr != "" {
					req.Header.Set("Range", tt.rangeHdr)
				}
				rec := httptest.NewRecorder()
				app.ServeHTTP(rec, req)
				if rec.Code != tt.status {
					t.Fatalf("status %d, want %d", rec.Code, tt.status)
				}
				wantEnc := ""
				if tt.encoded && enc != "" {
					wantEnc = enc
				}
				if tt.path == "/encoded" {
					wantEnc = "gzip" // the handler's own, left alone
				}
				if got := rec.Header().Get("Content-Encoding"); got != wantEnc {
					t.Fatalf("Content-Encoding %q, want %q", got, wantEnc)
				}
				if got := rec.Header().Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
					t.Errorf("Vary = %q", got)
				}
				body := rec.Body.String()
				if method == "HEAD" {
					// The headers are GET's; nothing was encoded for a body
					// the server drops.
					if wantEnc != "" && (body != "" || rec.Header().Get("Content-Length") != "") {
						t.Errorf("HEAD: body %d bytes, Content-Length %q", len(body), rec.Header().Get("Content-Length"))
					}
					return
				}
				if wantEnc != "" && tt.path != "/encoded" {
					if rec.Header().Get("Content-Length") != "" {
						t.Errorf("Content-Length %q kept on a compressed body", rec.Header().Get("Content-Length"))
					}
					if len(body) >= len(tt.want) {
						t.Errorf("compressed body of %d bytes for %d", len(body), len(tt.want))
					}
					body = decode(t, wantEnc, rec.Body)
				}
				if body != tt.want {
					t.Errorf("body %.60q (%d bytes), want %.60q (%d bytes)", body, len(body), tt.want, len(tt.want))
				}
			})
		}
	}
}

// TestCompressHeadMirrorsGet is the regression test of issue 22 item 10:
// HEAD of a file served with http.ServeContent (ServeFile, static
// directories), which writes no body for HEAD, gave the uncompressed
// Content-Length while GET was compressed. A HEAD answer carries the
// headers GET's would.
func TestCompressHeadMirrorsGet(t *testing.T) {
	app := compressApp(t)
	app2 := core.New(core.WithStartupOutput(nil), core.WithLogger(discardLogger()))
	app2.UseBeforeRouting(MustCompress())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte("<p>"+bigText+"</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	app2.Get("/servefile", func(ctx core.Context) { ctx.ServeFile(filepath.Join(dir, "page.html")) })
	app2.HandleDir("/static", os.DirFS(dir))
	if err := app2.Build(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		app  http.Handler
		path string
	}{{app, "/file"}, {app, "/sized"}, {app, "/text"}, {app, "/small"}, {app2, "/servefile"}, {app2, "/static/page.html"}} {
		headers := func(method string) http.Header {
			req := httptest.NewRequest(method, tt.path, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			tt.app.ServeHTTP(rec, req)
			if rec.Code != 200 {
				t.Fatalf("%s %s: %d", method, tt.path, rec.Code)
			}
			return rec.Header()
		}
		get, head := headers("GET"), headers("HEAD")
		for _, k := range []string{"Content-Encoding", "Content-Length", "Content-Type", "Etag", "Accept-Ranges", "Vary", "Last-Modified"} {
			if g, h := strings.Join(get.Values(k), ", "), strings.Join(head.Values(k), ", "); g != h {
				t.Errorf("%s: %s is %q for GET, %q for HEAD", tt.path, k, g, h)
			}
		}
	}
}

func TestCompressWeakensETag(t *testing.T) {
	app := compressApp(t)
	req := httptest.NewRequest("GET", "/sized", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	if got := rec.Header().Get("Etag"); got != `W/"abc"` {
		t.Errorf("ETag %q", got)
	}
}

func TestCompressNegotiation(t *testing.T) {
	tests := []struct {
		accept string
		prefs  []string
		want   string
	}{
		{"", nil, ""},
		{"identity", nil, ""},
		{"gzip", nil, "gzip"},
		{"gzip, deflate, br, zstd", nil, "zstd"},
		{"gzip, deflate, br", nil, "br"},
		{"gzip;q=1.0, br;q=0.5", nil, "gzip"},
		{"br;q=0.9, gzip;q=0.9", []string{"gzip", "br"}, "gzip"},
		{"*", nil, "zstd"},
		{"*;q=0.5, zstd;q=0", nil, "br"},
		{"GZIP", nil, "gzip"},
		{"gzip;q=0", nil, ""},
		{"gzip;q=abc, br", nil, "br"},
		{"gzip;level=1;q=0.2, br;q=0.1", nil, "gzip"},
		{"zstd", []string{"gzip"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.accept, func(t *testing.T) {
			var opts []CompressOption
			if tt.prefs != nil {
				opts = append(opts, WithEncodings(tt.prefs...))
			}
			app := core.New(core.WithStartupOutput(nil))
			app.UseBeforeRouting(MustCompress(opts...))
			app.Get("/", func(ctx core.Context) { ctx.WriteString(bigText) })
			req := httptest.NewRequest("GET", "/", nil)
			if tt.accept != "" {
				req.Header.Set("Accept-Encoding", tt.accept)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if got := rec.Header().Get("Content-Encoding"); got != tt.want {
				t.Errorf("encoding %q, want %q", got, tt.want)
			}
			if got := decode(t, tt.want, rec.Body); got != bigText {
				t.Errorf("body %.40q", got)
			}
		})
	}
}

func TestCompressOptions(t *testing.T) {
	bad := []CompressOption{
		WithEncodings(), WithEncodings("deflate"), WithLevel("gzip", 10), WithLevel("br", -1),
		WithLevel("zstd", 5), WithLevel("lz4", 1), WithMinSize(-1), WithContentTypes("json"),
	}
	for i, opt := range bad {
		if _, err := Compress(opt); err == nil {
			t.Errorf("option %d: no error", i)
		}
	}
	// Min size 0 and a narrower type list.
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(MustCompress(WithMinSize(0), WithContentTypes("application/json"), WithLevel("gzip", 9)))
	app.Get("/j", func(ctx core.Context) {
		ctx.SetResponseHeader("Content-Type", "application/json")
		ctx.WriteString("{}")
	})
	app.Get("/t", func(ctx core.Context) { ctx.WriteString(bigText) })
	for path, want := range map[string]string{"/j": "gzip", "/t": "", "/none": ""} {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, req)
		if got := rec.Header().Get("Content-Encoding"); got != want {
			t.Errorf("%s: encoding %q, want %q", path, got, want)
		}
	}
}

// A stream is compressed and each flushed event reaches the client before
// the handler has finished, for every encoding.
func TestCompressFlushStreams(t *testing.T) {
	for _, enc := range []string{"gzip", "br", "zstd"} {
		t.Run(enc, func(t *testing.T) {
			next := make(chan struct{})
			app := core.New(core.WithStartupOutput(nil))
			app.UseBeforeRouting(MustCompress())
			app.Get("/events", func(ctx core.Context) {
				ctx.SetResponseHeader("Content-Type", "text/event-stream")
				for i := 0; i < 3; i++ {
					ctx.WriteString("data: event\n\n")
					ctx.ResponseWriter().(http.Flusher).Flush()
					<-next
				}
			})
			srv := httptest.NewServer(app)
			defer srv.Close()
			req, _ := http.NewRequest("GET", srv.URL+"/events", nil)
			req.Header.Set("Accept-Encoding", enc)
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if got := res.Header.Get("Content-Encoding"); got != enc {
				t.Fatalf("Content-Encoding %q", got)
			}
			var r io.Reader
			switch enc {
			case "gzip":
				zr, err := gzip.NewReader(res.Body)
				if err != nil {
					t.Fatal(err)
				}
				r = zr
			case "br":
				r = brotli.NewReader(res.Body)
			case "zstd":
				zr, err := zstd.NewReader(res.Body, zstd.WithDecoderConcurrency(1))
				if err != nil {
					t.Fatal(err)
				}
				defer zr.Close()
				r = zr
			}
			br := bufio.NewReader(r)
			for i := 0; i < 3; i++ {
				line, err := br.ReadString('\n')
				if err != nil || line != "data: event\n" {
					t.Fatalf("event %d: %q, %v", i, line, err)
				}
				br.ReadString('\n')
				next <- struct{}{} // the handler waits: the event came from a flush
			}
		})
	}
}

// A panic while the body is still held back leaves the core's 500 page
// plain, and the pooled writer serves the next request normally.
func TestCompressPanic(t *testing.T) {
	app := core.New(core.WithStartupOutput(nil), core.WithLogger(discardLogger()))
	app.UseBeforeRouting(MustCompress())
	app.Get("/p", func(ctx core.Context) { ctx.WriteString("x"); panic("boom") })
	app.Get("/ok", func(ctx core.Context) { ctx.WriteString(bigText) })
	for _, path := range []string{"/p", "/ok"} {
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		app.ServeHTTP(rec, req)
		if path == "/p" {
			if rec.Code != 500 || rec.Header().Get("Content-Encoding") != "" || strings.Contains(rec.Body.String(), "x") {
				t.Errorf("status %d, encoding %q, body %q", rec.Code, rec.Header().Get("Content-Encoding"), rec.Body)
			}
			continue
		}
		if got := decode(t, rec.Header().Get("Content-Encoding"), rec.Body); rec.Code != 200 || got != bigText {
			t.Errorf("after the panic: status %d, body %.30q", rec.Code, got)
		}
	}
}

func BenchmarkCompress(b *testing.B) {
	payload := bytes.Repeat([]byte(`{"id":12345,"name":"item","price":9.99},`), 26) // ~1 KB of JSON
	for _, enc := range []string{"none", "gzip", "br", "zstd"} {
		b.Run(enc, func(b *testing.B) {
			app := core.New(core.WithStartupOutput(nil))
			app.UseBeforeRouting(MustCompress())
			app.Get("/data", func(ctx core.Context) {
				ctx.SetResponseHeader("Content-Type", "application/json")
				ctx.Write(payload)
			})
			req := httptest.NewRequest("GET", "/data", nil)
			if enc != "none" {
				req.Header.Set("Accept-Encoding", enc)
			}
			runBench(b, app, req)
		})
	}
}

// The core's SSE helper streams through Compress: each event is flushed
// through the encoder.
func TestCompressSSE(t *testing.T) {
	next := make(chan struct{})
	app := core.New(core.WithStartupOutput(nil))
	app.UseBeforeRouting(MustCompress())
	app.Get("/events", func(ctx core.Context) {
		s, err := ctx.SSE()
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		s.Send("tick", "1", "one")
		<-next
		s.Send("tick", "2", "two")
	})
	srv := httptest.NewServer(app)
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/events", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("headers %v", res.Header)
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	var first strings.Builder
	for !strings.HasSuffix(first.String(), "\n\n") {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("%q: %v", first.String(), err)
		}
		first.WriteString(line)
	}
	if first.String() != "event: tick\nid: 1\ndata: one\n\n" {
		t.Errorf("first event %q", first.String())
	}
	close(next)
	rest, _ := io.ReadAll(br)
	if string(rest) != "event: tick\nid: 2\ndata: two\n\n" {
		t.Errorf("rest %q", rest)
	}
}
