package core

import (
	"context"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// TestServeLeavesSignalsAlone checks that Serve, like http.Server.Serve,
// installs no signal handling (it shut down on SIGINT): the signal reaches
// the program's own handler and the server goes on serving. Listen's
// handling is tested by the graceful-shutdown example.
func TestServeLeavesSignalsAlone(t *testing.T) {
	mine := make(chan os.Signal, 1)
	signal.Notify(mine, syscall.SIGINT)
	defer signal.Stop(mine)
	app := quietApp(WithStartupOutput(nil))
	app.Get("/", ok("up"))
	base, served := startServer(t, app)
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-mine:
	case <-time.After(5 * time.Second):
		t.Fatal("the program's own handler did not get SIGINT")
	}
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v after SIGINT", err)
	case <-time.After(100 * time.Millisecond):
	}
	res, err := http.Get("http://" + base + "/")
	if err != nil {
		t.Fatalf("after SIGINT: %v", err)
	}
	res.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := app.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve = %v after Shutdown", err)
	}
}
