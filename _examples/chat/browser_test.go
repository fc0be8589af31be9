package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/internal/testtool"
)

// TestChatInBrowser (issue 25): two pages of a real headless Chromium
// open the chat, each sends a message and both show both, in order; a page
// of another origin (another port) that opens the chat's WebSocket is
// refused: the browser reports the handshake failed (close code 1006).
func TestChatInBrowser(t *testing.T) {
	chrome := testtool.Chromium(t)
	app := newApp(nil, quiet)
	handshakes := make(chan string, 16) // "Origin status" of each request to /ws, once it ended (a member's when it left)
	app.UseBeforeRouting(func(ctx vireo.Context) {
		ctx.Next()
		if ctx.Path() == "/ws" {
			handshakes <- fmt.Sprintf("%s %d", ctx.RequestHeader("Origin"), ctx.Status())
		}
	})
	base := serve(t, app)

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chrome), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-dev-shm-usage", true))
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil { // starts the browser (no timeout on this first call: it would stop the browser)
		t.Fatalf("starting %s: %v", chrome, err)
	}
	browser, cancel := context.WithTimeout(browser, 90*time.Second)
	defer cancel()
	ann, cancelAnn := chromedp.NewContext(browser) // a tab each
	defer cancelAnn()
	bob, cancelBob := chromedp.NewContext(browser)
	defer cancelBob()

	open := func(tab context.Context, name string) {
		t.Helper()
		err := chromedp.Do(tab,
			chromedp.Navigate(base+"/"),
			chromedp.WaitVisible(chromedp.CSS(`#submit:not([disabled])`)), // the socket is open
			chromedp.SendKeys(chromedp.ID("name"), name))
		if err != nil {
			t.Fatalf("%s opens the chat: %v", name, err)
		}
	}
	send := func(tab context.Context, text string) {
		t.Helper()
		if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.ID("text"), text), chromedp.Click(chromedp.ID("submit"))); err != nil {
			t.Fatalf("sending %q: %v", text, err)
		}
	}
	// shows waits until the tab lists exactly want.
	shows := func(tab context.Context, who string, want ...string) {
		t.Helper()
		js := fmt.Sprintf(`Array.from(document.querySelectorAll('li.message')).map(li => li.textContent).join('\n') === %q`, strings.Join(want, "\n"))
		ctx, cancel := context.WithTimeout(tab, 15*time.Second)
		defer cancel()
		if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js)); err != nil {
			got, _ := chromedp.Run(tab, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('li.message')).map(li => li.textContent)`))
			t.Fatalf("%s's page shows %q, want %q (%v)", who, got, want, err)
		}
	}

	open(ann, "ann")
	open(bob, "bob")
	send(ann, "hello from ann <script>alert(1)</script>")
	first := "ann: hello from ann <script>alert(1)</script>" // as text, not markup
	shows(ann, "ann", first)
	shows(bob, "bob", first)
	send(bob, "hi ann")
	shows(bob, "bob", first, "bob: hi ann")
	shows(ann, "ann", first, "bob: hi ann")
	if scripts, err := chromedp.Run(ann, chromedp.Evaluate[int](`document.querySelectorAll('#messages script').length`)); err != nil || scripts != 0 {
		t.Errorf("a message became markup: %d script elements (%v)", scripts, err)
	}

	// Another origin: a page served on another port opens the chat's
	// socket; Chromium sends that page's Origin, the server answers 403.
	other := vireo.New(quiet)
	ws := "ws" + strings.TrimPrefix(base, "http") + "/ws"
	other.Get("/", func(ctx vireo.Context) {
		ctx.HTML(`<!doctype html><p id="status">connecting</p><script>
const ws = new WebSocket(` + fmt.Sprintf("%q", ws) + `);
ws.onopen = () => { document.getElementById('status').textContent = 'open'; };
ws.onclose = (e) => { document.getElementById('status').textContent = 'closed ' + e.code; };
</script>`)
	})
	otherBase := serve(t, other)
	eve, cancelEve := chromedp.NewContext(browser)
	defer cancelEve()
	err := chromedp.Do(eve,
		chromedp.Navigate(otherBase+"/"),
		chromedp.Poll[chromedp.Void](`document.getElementById('status').textContent !== 'connecting'`))
	status, _ := chromedp.Run(eve, chromedp.Text(chromedp.ID("status")))
	if err != nil || status != "closed 1006" {
		t.Errorf("a page of another origin: %q (%v), want the handshake refused (closed 1006)", status, err)
	}
	shows(ann, "ann", first, "bob: hi ann") // nothing reached the room
	if got, want := <-handshakes, otherBase+" 403"; got != want {
		t.Errorf("the other origin's handshake: %q, want %q", got, want)
	}
}
