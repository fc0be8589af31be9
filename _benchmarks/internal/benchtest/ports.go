// This file hands out loopback ports. A port is "free" only for a moment:
// the kernel picks an unused one for a listener on port 0, the listener is
// closed so the server to start can bind it, and until that server binds it
// the kernel may hand the same port to anyone else who asks for port 0. So
// two servers started by the same process (an app and its redis-server)
// could be given the same port. Ports prevents that within a process: it
// never hands out a port twice, and while it looks for a new one it keeps
// the listeners of the ports it refused open, so the kernel cannot offer
// them again. Another process can still take a port before our server binds
// it; whoever starts the server retries on "address in use" (see
// StartOnFreePort).
package benchtest

import (
	"errors"
	"net"
	"strings"
	"sync"
)

// maxPortTries bounds the search for a port not handed out before.
const maxPortTries = 1000

// Ports hands out loopback TCP ports, each at most once. The zero value is
// ready to use; it is safe for concurrent use.
type Ports struct {
	mu     sync.Mutex
	handed map[int]bool
}

// processPorts is the allocator behind FreePort, shared by everything this
// process starts (the runner's apps and redis-servers, the tests' apps).
var processPorts Ports

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago and
// that FreePort has not returned before in this process.
func FreePort() (int, error) { return processPorts.Free() }

// Free returns a TCP port on 127.0.0.1 that was free a moment ago and that
// a has not returned before.
func (a *Ports) Free() (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.handed == nil {
		a.handed = map[int]bool{}
	}
	var held []net.Listener // refused ports, held so the kernel moves on
	defer func() {
		for _, ln := range held {
			ln.Close()
		}
	}()
	for range maxPortTries {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := ln.Addr().(*net.TCPAddr).Port
		if a.handed[port] {
			held = append(held, ln)
			continue
		}
		ln.Close()
		a.handed[port] = true
		return port, nil
	}
	return 0, errors.New("benchtest: no loopback port left that was not handed out before")
}

// Reserve records port as handed out, so that Free never returns it (a
// fixed port given on the command line).
func (a *Ports) Reserve(port int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.handed == nil {
		a.handed = map[int]bool{}
	}
	a.handed[port] = true
}

// AddressInUse reports whether a process's output or error says its port
// was taken, in the words of Go, Node.js, .NET and redis-server.
func AddressInUse(output string) bool {
	for _, s := range []string{"address already in use", "EADDRINUSE", "Address already in use"} {
		if strings.Contains(output, s) {
			return true
		}
	}
	return false
}
