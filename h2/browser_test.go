package h2

import (
	"encoding/json"
	"html"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/internal/testtool"
)

// The page of TestChromiumLoadsPageOverH2: a stylesheet, a script and an
// image; once the page has loaded, the script writes what the browser
// saw (every navigation and resource entry's nextHopProtocol, the image's
// size, the style applied) into #report, which --dump-dom prints.
const (
	browserPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>h2</title>
<link rel="stylesheet" href="/static/site.css">
<script src="/static/app.js" defer></script></head>
<body><h1>over h2</h1><img id="logo" src="/static/logo.png" alt="logo"><pre id="report"></pre></body></html>`
	browserCSS = `h1 { color: rgb(1, 2, 3); }`
	browserJS  = `window.addEventListener('load', () => {
  const entries = performance.getEntries()
    .filter(e => e.entryType === 'navigation' || e.entryType === 'resource')
    .map(e => ({name: new URL(e.name).pathname, protocol: e.nextHopProtocol}));
  const img = document.getElementById('logo');
  document.getElementById('report').textContent = JSON.stringify({
    entries,
    imageWidth: img.naturalWidth,
    h1Color: getComputedStyle(document.querySelector('h1')).color,
  });
});`
)

// TestChromiumLoadsPageOverH2: headless Chromium (Debian's) loads a page
// of a Vireo application serving HTTP/2 through this path (WithHTTP2,
// ListenTLS, a self-signed certificate the browser is told to accept) with
// its stylesheet, script and image; every entry of the page's
// performance timeline names h2, the server saw each request on this
// path's ResponseWriter, and the assets took effect.
func TestChromiumLoadsPageOverH2(t *testing.T) {
	if testing.Short() {
		t.Skip("Chromium: not in -short")
	}
	chromium := testtool.Chromium(t)
	dir := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 37, 11))
	for x := range 37 {
		img.Set(x, 5, color.RGBA{200, 10, 10, 255})
	}
	f, err := os.Create(filepath.Join(dir, "logo.png"))
	if err != nil {
		t.Fatal(err)
	}
	png.Encode(f, img)
	f.Close()
	os.WriteFile(filepath.Join(dir, "site.css"), []byte(browserCSS), 0o644)
	os.WriteFile(filepath.Join(dir, "app.js"), []byte(browserJS), 0o644)

	app := core.New(core.WithStartupOutput(nil), core.WithLogger(slog.New(slog.DiscardHandler)), core.WithHTTP2(MustNew()))
	app.Get("/", func(c core.Context) { c.HTML(browserPage) })
	app.HandleDir("/static", core.Dir(dir))
	var mu sync.Mutex
	served := map[string]string{} // path -> protocol, for requests on this path's writer
	onThisPath := func(hs *http.Server) {
		next := hs.Handler
		hs.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, ok := w.(*responseWriter); ok {
				mu.Lock()
				served[r.URL.Path] = r.Proto
				mu.Unlock()
			}
			next.ServeHTTP(w, r)
		})
	}
	addr, _, _ := listenTLS(t, app, onThisPath)

	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--ignore-certificate-errors", "--user-data-dir="+t.TempDir(), "--virtual-time-budget=15000",
		"--dump-dom", "https://"+addr+"/")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?s)<pre id="report">(.*?)</pre>`).FindSubmatch(out)
	if m == nil || len(m[1]) == 0 {
		t.Fatalf("the page's script wrote no report; DOM:\n%s", out)
	}
	var report struct {
		Entries []struct {
			Name, Protocol string
		}
		ImageWidth int
		H1Color    string
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &report); err != nil {
		t.Fatalf("report %q: %v", m[1], err)
	}
	var loaded []string
	for _, e := range report.Entries {
		loaded = append(loaded, e.Name)
		if e.Protocol != "h2" {
			t.Errorf("%s arrived over %q, want h2", e.Name, e.Protocol)
		}
	}
	sort.Strings(loaded)
	if want := "/ /static/app.js /static/logo.png /static/site.css"; strings.Join(loaded, " ") != want {
		t.Errorf("timeline entries %v, want %s", loaded, want)
	}
	if report.ImageWidth != 37 || report.H1Color != "rgb(1, 2, 3)" {
		t.Errorf("image width %d (want 37), h1 color %q (want the stylesheet's rgb(1, 2, 3))", report.ImageWidth, report.H1Color)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range []string{"/", "/static/site.css", "/static/app.js", "/static/logo.png"} {
		if served[p] != "HTTP/2.0" {
			t.Errorf("%s: served on this path as %q, want HTTP/2.0 (all: %v)", p, served[p], served)
		}
	}
}
