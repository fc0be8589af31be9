package view

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"
)

// countingBuilder counts builds and returns the build number as the set.
type countingBuilder struct {
	builds atomic.Int64
	fail   atomic.Bool
}

func (b *countingBuilder) build([]fileStamp) (int64, error) {
	n := b.builds.Add(1)
	if b.fail.Load() {
		return 0, errors.New("broken template")
	}
	return n, nil
}

func TestListFiles(t *testing.T) {
	mod := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	fsys := fstest.MapFS{
		"b.html":           {Data: []byte("bb"), ModTime: mod},
		"a/c.html":         {Data: []byte("c")},
		"a/d.txt":          {Data: []byte("d")},
		".hidden.html":     {Data: []byte("h")},
		".git/e.html":      {Data: []byte("e")},
		"a/.cache/f.html":  {Data: []byte("f")},
		"dir.html/g.html":  {Data: []byte("g")},
		"emptyext.html.go": {Data: []byte("x")},
	}
	files, err := listFiles(fsys, ".html")
	if err != nil {
		t.Fatal(err)
	}
	want := []fileStamp{{"a/c.html", 1, time.Time{}}, {"b.html", 2, mod}, {"dir.html/g.html", 1, time.Time{}}}
	if !sameFiles(files, want) {
		t.Fatalf("listFiles = %v, want %v", files, want)
	}
	all, _ := listFiles(fsys, "")
	if len(all) != 5 {
		t.Fatalf("listFiles with no extension found %d files, want 5: %v", len(all), all)
	}
}

func TestSnapshots(t *testing.T) {
	fsys := fstest.MapFS{"a.html": {Data: []byte("a"), ModTime: time.Unix(1, 0)}}
	var s snapshots[int64]
	b := &countingBuilder{}
	if _, err := s.get(true, fsys, ".html", b); !errors.Is(err, errNotLoaded) {
		t.Fatalf("get before load: %v", err)
	}
	if err := s.load(fsys, ".html", b, true); err != nil {
		t.Fatal(err)
	}
	t.Run("load without force keeps an up-to-date set", func(t *testing.T) {
		if err := s.load(fsys, ".html", b, false); err != nil {
			t.Fatal(err)
		}
		if n := b.builds.Load(); n != 1 {
			t.Fatalf("%d builds, want 1", n)
		}
	})

	t.Run("unchanged files: no rebuild, no lock", func(t *testing.T) {
		s.mu.Lock() // as if a rebuild were running elsewhere
		done := make(chan int64)
		go func() { set, _ := s.get(true, fsys, ".html", b); done <- set }()
		select {
		case set := <-done:
			if set != 1 {
				t.Errorf("set = %d, want the first build", set)
			}
		case <-time.After(10 * time.Second):
			t.Error("a render of unchanged templates waited for the rebuild lock")
		}
		s.mu.Unlock()
	})

	t.Run("one rebuild for many renders that see a change", func(t *testing.T) {
		fsys["a.html"] = &fstest.MapFile{Data: []byte("a"), ModTime: time.Unix(2, 0)}
		var wg sync.WaitGroup
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if set, err := s.get(true, fsys, ".html", b); err != nil || set != 2 {
					t.Errorf("get = %d, %v; want the second build", set, err)
				}
			}()
		}
		wg.Wait()
		if n := b.builds.Load(); n != 2 {
			t.Fatalf("%d builds, want 2", n)
		}
	})

	t.Run("without reload nothing is checked", func(t *testing.T) {
		fsys["new.html"] = &fstest.MapFile{Data: []byte("n")}
		if set, err := s.get(false, fsys, ".html", b); err != nil || set != 2 {
			t.Fatalf("get = %d, %v", set, err)
		}
	})

	t.Run("a failed rebuild is kept until the files change", func(t *testing.T) {
		b.fail.Store(true)
		for i := 0; i < 3; i++ {
			if _, err := s.get(true, fsys, ".html", b); err == nil {
				t.Fatal("want the build error")
			}
		}
		if n := b.builds.Load(); n != 3 {
			t.Fatalf("%d builds, want 3 (one failed rebuild)", n)
		}
		b.fail.Store(false)
		fsys["new.html"] = &fstest.MapFile{Data: []byte("fixed")}
		if set, err := s.get(true, fsys, ".html", b); err != nil || set != 4 {
			t.Fatalf("get = %d, %v; want the fourth build", set, err)
		}
	})
}

func TestNormalizeExt(t *testing.T) {
	for in, want := range map[string]string{"html": ".html", ".html": ".html", "": "", "tmpl.html": ".tmpl.html"} {
		if got := normalizeExt(in); got != want {
			t.Errorf("normalizeExt(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestListFilesFollowsSymlinkedFiles(t *testing.T) {
	site := &siteWriter{t: t, dir: t.TempDir()}
	site.write("real/page.txt", "target")
	if err := os.Symlink(filepath.Join(site.dir, "real", "page.txt"), filepath.Join(site.dir, "link.html")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	files, err := listFiles(os.DirFS(site.dir), ".html")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].name != "link.html" || files[0].size != int64(len("target")) {
		t.Fatalf("listFiles = %v, want link.html stamped with its target's size", files)
	}
	if _, err := listFiles(os.DirFS(filepath.Join(site.dir, "missing")), ".html"); err == nil {
		t.Fatal("listing a missing directory succeeded")
	}
}
