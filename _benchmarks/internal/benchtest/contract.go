// Package benchtest holds what the benchmark apps' tests and the runner share:
// the endpoint contract of expected/endpoints.json, a verifier that compares a
// live response with it (and explains a mismatch with a diff), and helpers that
// build an app, start it on a free port and wait for its readiness lines.
//
// This file loads the contract. The contract is data, not code, so that the
// runner, the tests and a reader of the repository all see one source of truth.
package benchtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ModulePath is the module path of the benchmark suite; ModuleRoot looks for
// the go.mod that declares it.
const ModulePath = "github.com/vireo-go/vireo/_benchmarks"

// ReadyListening and ReadyStarted are the two readiness lines every app prints
// to stdout, in this order, once it accepts connections. ReadyListening is a
// format with the port as its only verb.
const (
	ReadyListening = "Now listening on: http://127.0.0.1:%d"
	ReadyStarted   = "Application started. Press CTRL+C to shut down."
)

// ReadyListeningTLS replaces ReadyListening for an app that serves TLS (a
// comparison with "tls": true).
const ReadyListeningTLS = "Now listening on: https://127.0.0.1:%d"

// RuntimeInfoPrefix starts the one line an app may print after the readiness
// lines: its runtime settings as "key: value" pairs separated by "; ", such
// as "Runtime: .NET 10.0.12; GC: server, concurrent; processors: 2". The
// ASP.NET Core apps print it (GC mode and processor count decide how .NET
// performs); the runner records it in results.json.
const RuntimeInfoPrefix = "Runtime: "

// ParseRuntimeInfo returns the settings of a RuntimeInfoPrefix line: the
// first part (before any ':') under "runtime", the others under their key.
// ok is false when line is not such a line.
func ParseRuntimeInfo(line string) (info map[string]string, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), RuntimeInfoPrefix)
	if !ok {
		return nil, false
	}
	info = map[string]string{}
	for i, part := range strings.Split(rest, ";") {
		part = strings.TrimSpace(part)
		k, v, found := strings.Cut(part, ":")
		switch {
		case part == "":
		case !found && i == 0:
			info["runtime"] = part
		case found:
			info[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return info, true
}

// Endpoint is the request of one comparison and the response every app of
// that comparison must give.
type Endpoint struct {
	Method      string   `json:"method"`
	Path        string   `json:"path"`
	Status      int      `json:"status"`
	ContentType string   `json:"contentType"`
	BodyFile    string   `json:"bodyFile"`
	SetCookie   bool     `json:"setCookie"`
	Bombardier  string   `json:"bombardier"`
	Apps        []string `json:"apps"`

	// Services are what the apps need running beside them ("redis"):
	// whoever starts an app starts an instance of each first and passes
	// its address (REDIS_ADDR for redis).
	Services []string `json:"services,omitempty"`
	// TLS is set when the apps serve TLS with the certificate in
	// TLS_CERT_FILE and TLS_KEY_FILE (TLSEnv) and print ReadyListeningTLS.
	TLS bool `json:"tls,omitempty"`
	// Loads, when set, are the comparison's loads, each run as a variant
	// of its own; without them the comparison has one bombardier load
	// (Bombardier).
	Loads []Load `json:"loads,omitempty"`
	// Unsupported lists apps whose framework cannot serve the comparison
	// (no HTTP/2), with the reason; they are reported, never run.
	Unsupported map[string]string `json:"unsupported,omitempty"`
	// Headers are request headers ("Key: Value") sent with every request
	// of the comparison, by Verify and by bombardier (the middleware
	// comparison sends Accept-Encoding and Origin).
	Headers []string `json:"headers,omitempty"`
	// ContentEncoding, when set, is the Content-Encoding the response must
	// have; the body is compared after decoding it (gzip only).
	ContentEncoding string `json:"contentEncoding,omitempty"`
	// RequireHeaders are response headers that must be present, whatever
	// their value (the request ID, CORS and security headers).
	RequireHeaders []string `json:"requireHeaders,omitempty"`

	// RequestBodyFile, when set, is the file whose content is the body of
	// every request of the comparison (the json comparison's POST).
	RequestBodyFile string `json:"requestBodyFile,omitempty"`

	// Body is the content of BodyFile, filled in by LoadContract.
	Body []byte `json:"-"`
	// RequestBody is the content of RequestBodyFile, filled in by
	// LoadContract.
	RequestBody []byte `json:"-"`
}

// Load is one load of a comparison with several (Endpoint.Loads).
type Load struct {
	// Name is the variant's name: the comparison's runs with this load
	// are keyed <comparison>-<name>.
	Name string `json:"name"`
	// Generator is the load generator ("h2load", "bombardier").
	Generator string `json:"generator"`
	// Protocol is what the load must speak, checked by ALPN before it
	// starts: "h2" or "http/1.1".
	Protocol string `json:"protocol,omitempty"`
	// Args are the generator's load arguments: -c, -n and, for h2load, -m.
	Args string `json:"args"`
}

// Uses reports whether the apps of ep need the service name.
func (ep Endpoint) Uses(name string) bool {
	for _, s := range ep.Services {
		if s == name {
			return true
		}
	}
	return false
}

// Contract is expected/endpoints.json: the readiness lines, the endpoint of
// every comparison and the apps of every stack.
type Contract struct {
	Readiness   []string            `json:"readiness"`
	Comparisons map[string]Endpoint `json:"comparisons"`
	Stacks      map[string][]string `json:"stacks"`
}

// ModuleRoot returns the directory of the _benchmarks module, walking up from
// the working directory (tests run in their package directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(data), "module "+ModulePath+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("benchtest: no go.mod of module " + ModulePath + " above the working directory")
		}
		dir = parent
	}
}

// LoadContract reads root/expected/endpoints.json and the body file of every
// comparison, and checks that the contract is complete, so that a typo there
// fails loudly instead of silently comparing against nothing.
func LoadContract(root string) (*Contract, error) {
	dir := filepath.Join(root, "expected")
	data, err := os.ReadFile(filepath.Join(dir, "endpoints.json"))
	if err != nil {
		return nil, err
	}
	var c Contract
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("benchtest: endpoints.json: %w", err)
	}
	if len(c.Comparisons) == 0 {
		return nil, errors.New("benchtest: endpoints.json lists no comparisons")
	}
	if len(c.Readiness) != 2 || c.Readiness[0] != strings.Replace(ReadyListening, "%d", "{port}", 1) || c.Readiness[1] != ReadyStarted {
		return nil, fmt.Errorf("benchtest: endpoints.json: readiness lines %q differ from the ones the apps print", c.Readiness)
	}
	for name, ep := range c.Comparisons {
		if ep.Method == "" || !strings.HasPrefix(ep.Path, "/") || ep.Status == 0 || ep.ContentType == "" || ep.BodyFile == "" || len(ep.Apps) == 0 {
			return nil, fmt.Errorf("benchtest: endpoints.json: comparison %q is incomplete", name)
		}
		for _, l := range ep.Loads {
			if l.Name == "" || l.Generator == "" || l.Args == "" {
				return nil, fmt.Errorf("benchtest: endpoints.json: comparison %q has a load without name, generator or args", name)
			}
		}
		if len(ep.Loads) == 0 && ep.Bombardier == "" {
			return nil, fmt.Errorf("benchtest: endpoints.json: comparison %q has neither bombardier arguments nor loads", name)
		}
		ep.Body, err = os.ReadFile(filepath.Join(dir, ep.BodyFile))
		if err != nil {
			return nil, fmt.Errorf("benchtest: comparison %q: %w", name, err)
		}
		if ep.RequestBodyFile != "" {
			if ep.RequestBody, err = os.ReadFile(filepath.Join(dir, ep.RequestBodyFile)); err != nil {
				return nil, fmt.Errorf("benchtest: comparison %q: %w", name, err)
			}
		}
		c.Comparisons[name] = ep
	}
	return &c, nil
}

// Endpoint returns the name and endpoint of the comparison app belongs to.
func (c *Contract) Endpoint(app string) (string, Endpoint, error) {
	names := make([]string, 0, len(c.Comparisons))
	for name := range c.Comparisons {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ep := c.Comparisons[name]
		for _, a := range ep.Apps {
			if a == app {
				return name, ep, nil
			}
		}
	}
	return "", Endpoint{}, fmt.Errorf("benchtest: app %q is in no comparison of endpoints.json", app)
}

// ReadinessLines returns the two lines an app listening on port must print.
func ReadinessLines(port int) [2]string {
	return [2]string{fmt.Sprintf(ReadyListening, port), ReadyStarted}
}

// ReadinessLinesTLS returns the two lines an app serving TLS on port must
// print.
func ReadinessLinesTLS(port int) [2]string {
	return [2]string{fmt.Sprintf(ReadyListeningTLS, port), ReadyStarted}
}

// Stack returns the stack ("go", "node" or "dotnet") of app, or "" when the
// contract does not list it.
func (c *Contract) Stack(app string) string {
	for stack, apps := range c.Stacks {
		for _, a := range apps {
			if a == app {
				return stack
			}
		}
	}
	return ""
}

// portString formats a port for the PORT environment variable.
func portString(port int) string { return strconv.Itoa(port) }
