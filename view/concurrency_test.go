package view

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"
)

// concurrentSite builds pageCount pages that differ in every byte that
// matters, the layout they share, and the body each must render to.
type concurrentSite struct {
	files  map[string]string
	layout string // "" when pages extend their layout themselves
	want   []string
}

const pageCount = 8

func pageName(i int) string { return fmt.Sprintf("pages/p%d.html", i) }

func pageBody(i int) string { return strings.Repeat(fmt.Sprintf("<p>page %d</p>", i), 40) }

func htmlConcurrentSite() concurrentSite {
	s := concurrentSite{files: map[string]string{"layout.html": `<title>{{ .Title }}</title><main>{{ yield . }}</main>`}, layout: "layout.html"}
	for i := 0; i < pageCount; i++ {
		s.files[pageName(i)] = pageBody(i) + `<i>{{ .N }}</i>`
		s.want = append(s.want, fmt.Sprintf("<title>t%d</title><main>%s<i>%d</i></main>", i, pageBody(i), i))
	}
	return s
}

func djangoConcurrentSite(engineLayout bool) concurrentSite {
	s := concurrentSite{files: map[string]string{}}
	for i := 0; i < pageCount; i++ {
		if engineLayout {
			s.files[pageName(i)] = pageBody(i) + `<i>{{ N }}</i>`
		} else {
			s.files[pageName(i)] = `{% extends "layout.html" %}{% block content %}` + pageBody(i) + `<i>{{ N }}</i>{% endblock %}`
		}
		s.want = append(s.want, fmt.Sprintf("<title>t%d</title><main>%s<i>%d</i></main>", i, pageBody(i), i))
	}
	if engineLayout {
		s.files["layout.html"] = `<title>{{ Title }}</title><main>{{ content }}</main>`
		s.layout = "layout.html"
	} else {
		s.files["layout.html"] = `<title>{{ Title }}</title><main>{% block content %}{% endblock %}</main>`
	}
	return s
}

// hammer renders every page from many goroutines at once and fails on any
// body that is not exactly its own page. churn, if not nil, runs meanwhile.
func hammer(t *testing.T, e Engine, s concurrentSite, churn func(stop <-chan struct{})) {
	t.Helper()
	const goroutines, renders = 32, 100
	stop := make(chan struct{})
	var churnDone sync.WaitGroup
	if churn != nil {
		churnDone.Add(1)
		go func() { defer churnDone.Done(); churn(stop) }()
	}

	var wg sync.WaitGroup
	var failures atomic.Int64
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var buf bytes.Buffer
			for k := 0; k < renders; k++ {
				i := (g + k) % pageCount
				buf.Reset()
				err := e.ExecuteWriter(&buf, pageName(i), s.layout, map[string]any{"Title": fmt.Sprintf("t%d", i), "N": i})
				if err != nil || buf.String() != s.want[i] {
					if failures.Add(1) <= 3 {
						t.Errorf("goroutine %d render %d of %s: err %v\ngot  %.120q\nwant %.120q", g, k, pageName(i), err, buf.String(), s.want[i])
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(stop)
	churnDone.Wait()
	if n := failures.Load(); n > 0 {
		t.Fatalf("%d of %d renders were wrong", n, goroutines*renders)
	}
}

func TestConcurrentRenders(t *testing.T) {
	sites := []struct {
		name   string
		site   concurrentSite
		engine func(t testing.TB, fsys fs.FS, reload bool) Engine
	}{
		{"html", htmlConcurrentSite(), func(t testing.TB, fsys fs.FS, reload bool) Engine {
			return mustHTML(t, fsys, ".html", WithReload(reload))
		}},
		{"django extends", djangoConcurrentSite(false), func(t testing.TB, fsys fs.FS, reload bool) Engine {
			return mustDjango(t, fsys, ".html", WithReload(reload))
		}},
		{"django engine layout", djangoConcurrentSite(true), func(t testing.TB, fsys fs.FS, reload bool) Engine {
			return mustDjango(t, fsys, ".html", WithReload(reload))
		}},
	}
	for _, tt := range sites {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, content := range tt.site.files {
				fsys[name] = &fstest.MapFile{Data: []byte(content)}
			}
			e := tt.engine(t, fsys, false)
			hammer(t, e, tt.site, nil)
		})
		t.Run(tt.name+" reload", func(t *testing.T) {
			site := &siteWriter{t: t, dir: t.TempDir()}
			for name, content := range tt.site.files {
				site.write(name, content)
			}
			site.write("churn.html", "0")
			e := tt.engine(t, os.DirFS(site.dir), true)
			// Rewrite an unrelated file meanwhile, so that renders race with
			// rebuilds of the whole set.
			var rewrites int
			hammer(t, e, tt.site, func(stop <-chan struct{}) {
				for {
					select {
					case <-stop:
						return
					default:
					}
					rewrites++
					site.write("churn.html", fmt.Sprint(rewrites))
					time.Sleep(200 * time.Microsecond) // pace the disk writes, not a synchronization

				}
			})
			t.Logf("churn.html rewritten %d times during the renders", rewrites)
		})
	}
}
