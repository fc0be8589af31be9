// Command graceful-shutdown shows how a Vireo server stops: on CTRL+C
// (SIGINT), SIGTERM or app.Shutdown it stops accepting connections, lets
// the requests in flight finish, runs the OnShutdown hooks, and only then
// does Listen return.
//
//	go run ./_examples/graceful-shutdown
//	curl -N http://127.0.0.1:8080/slow &     # takes 3 seconds
//	# press CTRL+C in the server's terminal: the slow request still completes
package main

import (
	"cmp"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/vireo-go/vireo"
)

// newApp builds the application whose /slow route works for slow, sending
// progress as it goes; onShutdown runs once the server has stopped. main
// serves it and the test drives it over a real listener.
func newApp(slow time.Duration, onShutdown func(), opts ...vireo.Option) *vireo.Application {
	// The timeout bounds how long a signal-triggered shutdown waits for
	// in-flight requests; longer ones are cut off.
	app := vireo.New(append([]vireo.Option{vireo.WithShutdownTimeout(10 * time.Second)}, opts...)...)

	app.Get("/", func(ctx vireo.Context) {
		ctx.Text("fast response")
	})
	app.Get("/slow", func(ctx vireo.Context) {
		ctx.SetContentType("text/plain; charset=utf-8")
		ctx.WriteString("working...\n")
		// Flush so the client sees the first line at once: it knows the
		// request is in flight.
		if f, ok := ctx.ResponseWriter().(http.Flusher); ok {
			f.Flush()
		}
		select {
		case <-time.After(slow):
			fmt.Fprintf(ctx, "done after %v\n", slow)
		case <-ctx.Request().Context().Done():
			// The client went away (or the shutdown timeout passed and
			// the connection was closed): stop working.
		}
	})

	// Close databases, flush buffers, stop background workers here.
	app.OnShutdown(onShutdown)
	return app
}

func main() {
	app := newApp(3*time.Second, func() { log.Println("shutdown complete: resources released") })
	// Listen returns nil after a graceful shutdown.
	if err := app.Listen(cmp.Or(os.Getenv("ADDR"), "127.0.0.1:8080")); err != nil {
		log.Fatal(err)
	}
	log.Println("bye")
}
