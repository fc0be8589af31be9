package middleware

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/vireo-go/vireo/core"
)

func encodeBody(t testing.TB, encoding string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	switch encoding {
	case "gzip":
		w, _ = gzip.NewWriterLevel(&b, gzip.DefaultCompression)
	case "br":
		w = brotli.NewWriterLevel(&b, brotli.BestSpeed)
	case "zstd":
		w, _ = zstd.NewWriter(&b)
	default:
		t.Fatalf("encoding %q", encoding)
	}
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func decompressApp(t testing.TB, opts ...DecompressOption) *core.Application {
	t.Helper()
	app := core.New(core.WithStartupOutput(nil), core.WithLogger(discardLogger()))
	app.Use(MustDecompress(opts...))
	app.Post("/echo", func(ctx core.Context) {
		b, err := ctx.ReadBody()
		if err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.Write(b)
	})
	app.Post("/json", func(ctx core.Context) {
		var v struct{ Name string }
		if err := ctx.ReadJSON(&v); err != nil {
			ctx.StopWithError(err)
			return
		}
		ctx.WriteString(v.Name)
	})
	if err := app.Build(); err != nil {
		t.Fatal(err)
	}
	return app
}

func TestDecompress(t *testing.T) {
	app := decompressApp(t)
	text := []byte(strings.Repeat("Vireo decodes this line. ", 200))
	gz, br, zs := encodeBody(t, "gzip", text), encodeBody(t, "br", text), encodeBody(t, "zstd", text)
	tests := []struct {
		name, path, encoding, ctype string
		body                        []byte
		status                      int
		want                        string
	}{
		{"gzip", "/echo", "gzip", "", gz, 200, string(text)},
		{"x-gzip", "/echo", "x-gzip", "", gz, 200, string(text)},
		{"br", "/echo", "br", "", br, 200, string(text)},
		{"zstd", "/echo", "zstd", "", zs, 200, string(text)},
		{"gzip then zstd", "/echo", "gzip, zstd", "", encodeBody(t, "zstd", gz), 200, string(text)},
		{"identity", "/echo", "identity", "", text, 200, string(text)},
		{"none", "/echo", "", "", text, 200, string(text)},
		{"JSON", "/json", "GZIP", "application/json", encodeBody(t, "gzip", []byte(`{"Name":"gopher"}`)), 200, "gopher"},
		{"unknown encoding", "/echo", "compress", "", text, 415, ""},
		{"unknown after a known one", "/echo", "gzip, deflate", "", gz, 415, ""},
		{"malformed gzip", "/echo", "gzip", "", text, 400, ""},
		{"malformed zstd", "/echo", "zstd", "", text, 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", tt.path, bytes.NewReader(tt.body))
			if tt.encoding != "" {
				req.Header.Set("Content-Encoding", tt.encoding)
			}
			if tt.ctype != "" {
				req.Header.Set("Content-Type", tt.ctype)
			}
			rec := httptest.NewRecorder()
			app.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %.100s", rec.Code, tt.status, rec.Body)
			}
			if tt.status == 200 && rec.Body.String() != tt.want {
				t.Errorf("body %.60q, want %.60q", rec.Body, tt.want)
			}
			if tt.status == 415 && rec.Header().Get("Accept-Encoding") != "zstd, br, gzip" {
				t.Errorf("415 without Accept-Encoding: %v", rec.Header())
			}
		})
	}
	if _, err := Decompress(WithDecompressLimit(-1)); err == nil {
		t.Error("negative limit accepted")
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestDecompressBomb (issue 25 item 2): a gzip bomb (10 KB that decode to
// 10 MB, about gzip's best ratio) is answered 413 once the decoded bytes
// pass the limit, and the handler has read at most the limit; so are a br
// and a zstd bomb.
func TestDecompressBomb(t *testing.T) {
	const limit, decoded = 1 << 20, 10 << 20
	app := core.New(core.WithStartupOutput(nil), core.WithLogger(discardLogger()))
	app.Use(MustDecompress(WithDecompressLimit(limit)))
	var read int64
	app.Post("/upload", func(ctx core.Context) {
		n, err := io.Copy(io.Discard, ctx.Request().Body)
		read = n
		var mbe *http.MaxBytesError
		if !errors.As(err, &mbe) {
			ctx.StopWithError(err)
			return
		}
		ctx.StopWithError(core.NewHTTPError(http.StatusRequestEntityTooLarge, "decoded body over "+strconv.Itoa(limit)))
	})
	app.Post("/echo", func(ctx core.Context) {
		_, err := ctx.ReadBody()
		ctx.StopWithError(err)
	})
	zeros := make([]byte, decoded)
	for _, enc := range []string{"gzip", "br", "zstd"} {
		bomb := encodeBody(t, enc, zeros)
		for _, path := range []string{"/upload", "/echo"} {
			src := &countingReader{r: bytes.NewReader(bomb)}
			req := httptest.NewRequest("POST", path, src)
			req.Header.Set("Content-Encoding", enc)
			rec := httptest.NewRecorder()
			read = -1
			app.ServeHTTP(rec, req)
			if rec.Code != http.StatusRequestEntityTooLarge {
				t.Errorf("%s bomb of %d bytes on %s: status %d, want 413", enc, len(bomb), path, rec.Code)
			}
			if path == "/upload" && read > limit {
				t.Errorf("%s bomb: the handler read %d decoded bytes, limit %d", enc, read, limit)
			}
			t.Logf("%s bomb: %d bytes (of %d decoded), %d compressed bytes consumed, %d decoded bytes read", enc, len(bomb), decoded, src.n, read)
		}
	}
}
