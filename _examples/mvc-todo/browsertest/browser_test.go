// Package browsertest drives the mvc-todo example in headless Chromium
// through the DevTools protocol (chromedp): it builds and starts the real
// binary, logs in, adds two todos, toggles one, reloads and checks they
// were kept, logs out and checks they are gone, logs in as another user
// (empty list) and back (list intact), and saves a screenshot.
//
// It is its own module so that chromedp stays out of the framework's
// go.mod. Run it with ../../run-browser-tests.sh, or
//
//	cd _examples/mvc-todo/browsertest && go test -v ./...
//
// It finds Chromium ($CHROME_PATH, chromium, chromium-browser,
// google-chrome) or installs Debian's chromium (internal/testtool); without
// one it skips saying why, or fails under CI=true. Screenshots go
// to $SCREENSHOT_DIR, or a new temporary directory that is kept.
package browsertest

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/vireo-go/vireo/internal/testtool"
)

// startApp builds the example and runs it on a free loopback port
// (ADDR=127.0.0.1:0; the port is read from its startup line). The server
// is stopped with SIGINT at cleanup, and must exit cleanly.
func startApp(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "mvc-todo")
	build := exec.Command("go", "build", "-o", bin, "./_examples/mvc-todo")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the example: %v\n%s", err, out)
	}

	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "ADDR=127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if url, ok := strings.CutPrefix(sc.Text(), "Now listening on: "); ok {
				base <- url
			}
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("server exit: %v\n%s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("server did not stop on SIGINT")
		}
	})
	select {
	case url := <-base:
		return url
	case err := <-exited:
		t.Fatalf("server exited at startup: %v\n%s", err, stderr.String())
	case <-time.After(15 * time.Second):
		t.Fatalf("server did not start\n%s", stderr.String())
	}
	return ""
}

// todo is a list entry as the browser shows it.
type todo struct {
	Title string `json:"title"`
	Done  bool   `json:"done"`
}

// readTodos is the JavaScript that reads the rendered list.
const readTodos = `Array.from(document.querySelectorAll('li.todo')).map(li => ({
	title: li.querySelector('.title').textContent,
	done: li.classList.contains('done'),
}))`

func TestTodoInBrowser(t *testing.T) {
	chrome := testtool.Chromium(t) // CHROME_PATH, on PATH, or Debian's package
	base := startApp(t)
	shots := screenshotDir(t)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(900, 700),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	// navigate runs actions that load a page (a link, a form submission,
	// a reload) and waits for the load, returning the final URL path and
	// status after redirects.
	navigate := func(step string, actions ...chromedp.Action) string {
		t.Helper()
		res, err := chromedp.RunResponse(ctx, actions...)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if res.Status != http.StatusOK {
			t.Fatalf("%s: status %d at %s", step, res.Status, res.URL)
		}
		var path string
		if err := chromedp.Run(ctx, chromedp.Evaluate(`location.pathname`, &path)); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		return path
	}
	text := func(sel string) string {
		t.Helper()
		var s string
		if err := chromedp.Run(ctx, chromedp.Text(sel, &s, chromedp.ByQuery)); err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return strings.TrimSpace(s)
	}
	todos := func() []todo {
		t.Helper()
		var list []todo
		if err := chromedp.Run(ctx, chromedp.Evaluate(readTodos, &list)); err != nil {
			t.Fatalf("reading todos: %v", err)
		}
		return list
	}
	wantTodos := func(step string, want ...todo) {
		t.Helper()
		got := todos()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: todos %v, want %v", step, got, want)
		}
	}
	login := func(user, password string) {
		t.Helper()
		if p := navigate("open "+user, chromedp.Navigate(base+"/")); p != "/login" {
			t.Fatalf("anonymous / ended at %s, want /login", p)
		}
		p := navigate("log in as "+user,
			chromedp.SendKeys("#user", user, chromedp.ByID),
			chromedp.SendKeys("#password", password, chromedp.ByID),
			chromedp.Click("#login", chromedp.ByID))
		if p != "/todos" {
			t.Fatalf("login as %s ended at %s", user, p)
		}
		if who := text("#who"); who != user {
			t.Fatalf("logged in as %q, want %q", who, user)
		}
	}
	add := func(title string) {
		t.Helper()
		navigate("add "+title,
			chromedp.SendKeys("#new-title", title, chromedp.ByID),
			chromedp.Click("#add", chromedp.ByID))
		if f := text(".flash.notice"); !strings.Contains(f, title) {
			t.Fatalf("after adding %q the flash says %q", title, f)
		}
	}
	logout := func() {
		t.Helper()
		if p := navigate("log out", chromedp.Click("#logout", chromedp.ByID)); p != "/login" {
			t.Fatalf("logout ended at %s", p)
		}
	}

	login("ann", "ann-pass")
	if !strings.Contains(text("#empty"), "Nothing to do") {
		t.Fatal("a new user's list is not empty")
	}
	add("Buy milk")
	add("Write the docs")
	wantTodos("after adding", todo{"Buy milk", false}, todo{"Write the docs", false})

	navigate("toggle", chromedp.Click(`li.todo:first-child button.toggle`, chromedp.ByQuery))
	navigate("reload", chromedp.Reload())
	wantTodos("after toggle and reload", todo{"Buy milk", true}, todo{"Write the docs", false})
	if c := text("#count"); c != "1 item left of 2" {
		t.Errorf("count %q", c)
	}
	screenshot(t, ctx, shots, "mvc-todo-list.png")

	// A form whose CSRF token was tampered with is refused with the 403
	// page, and nothing is added.
	res, err := chromedp.RunResponse(ctx,
		chromedp.SetValue(`form.add input[name=csrf_token]`, "forged", chromedp.ByQuery),
		chromedp.SendKeys("#new-title", "Sneaky", chromedp.ByID),
		chromedp.Click("#add", chromedp.ByID))
	if err != nil {
		t.Fatalf("tampered form: %v", err)
	}
	if res.Status != http.StatusForbidden || !strings.Contains(text("h1"), "Forbidden") {
		t.Fatalf("tampered form: status %d, page %q", res.Status, text("h1"))
	}
	navigate("back to the list", chromedp.Navigate(base+"/todos"))
	wantTodos("after the refused form", todo{"Buy milk", true}, todo{"Write the docs", false})

	logout()
	if f := text(".flash.notice"); f != "You have been logged out." {
		t.Errorf("logout flash %q", f)
	}
	screenshot(t, ctx, shots, "mvc-todo-logged-out.png")
	wantTodos("after logout")
	if p := navigate("todos after logout", chromedp.Navigate(base+"/todos")); p != "/login" {
		t.Fatalf("/todos after logout ended at %s, want /login", p)
	}
	wantTodos("todos after logout")

	login("bob", "bob-pass")
	wantTodos("bob's list")
	logout()

	login("ann", "ann-pass")
	wantTodos("ann's list again", todo{"Buy milk", true}, todo{"Write the docs", false})
	navigate("delete", chromedp.Click(`li.todo:first-child button.delete`, chromedp.ByQuery))
	wantTodos("after delete", todo{"Write the docs", false})
	logout()
}

// screenshotDir returns $SCREENSHOT_DIR, created if needed, or a new
// temporary directory that is kept after the test so the images can be
// looked at.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "vireo-browsertest-"); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// screenshot saves a full-page PNG of the current page as dir/name and
// logs where.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(png))
}
