// Package openapicheck checks generated OpenAPI documents with tools from
// the npm registry, for tests: @apidevtools/swagger-parser validates a
// document against the OpenAPI 3.1 schema, @redocly/cli lints it with its
// recommended rules (redocly.yaml), and Ajv validates recorded responses
// against the document's schemas and finds the documented 2xx and 4xx
// answers no request produced (check.mjs).
//
// The tools are pinned by package-lock.json and installed with `npm ci`
// into this directory's node_modules the first time a test needs them (a
// stamp with the lock file's hash says when it must run again; a file lock
// keeps parallel test processes from installing at once). Node and npm are
// found or installed with internal/testtool: under CI=true their absence
// fails the test, elsewhere it skips it.
package openapicheck

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/vireo-go/vireo/internal/testtool"
)

// dir returns this package's directory, where package.json is.
func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

var installMu sync.Mutex

// tools makes sure node and the pinned packages are there and returns the
// path of node.
func tools(t testing.TB) string {
	t.Helper()
	node := testtool.Require(t, "node", "nodejs")
	npm := testtool.Require(t, "npm", "npm")
	installMu.Lock()
	defer installMu.Unlock()
	d := dir()
	lockFile, err := os.ReadFile(filepath.Join(d, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(lockFile)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(d, "node_modules", ".vireo-installed")
	if b, err := os.ReadFile(stamp); err == nil && string(b) == want {
		return node
	}
	unlock := fileLock(t)
	defer unlock()
	if b, err := os.ReadFile(stamp); err == nil && string(b) == want {
		return node // another process installed them meanwhile
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = d
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := fmt.Sprintf("npm ci in %s: %v\n%s", d, err, out)
		if testtool.CI() {
			t.Fatal(msg)
		}
		t.Skip("skipping: " + msg)
	}
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	return node
}

func fileLock(t testing.TB) func() {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "vireo-openapicheck-npm.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatal(err)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }
}

// Validate checks doc (the document's JSON) with swagger-parser and with
// Redocly's linter, failing t on any error; it returns the verdict of both
// tools (Redocly's warnings included) for the test's log.
func Validate(t testing.TB, doc []byte) string {
	t.Helper()
	node := tools(t)
	file := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(node, "check.mjs", "validate", file)
	if err != nil {
		t.Fatalf("swagger-parser refuses the document: %v\n%s", err, out)
	}
	verdict := strings.TrimSpace(out)
	lint, err := run(node, filepath.Join("node_modules", "@redocly", "cli", "bin", "cli.js"), "lint", "--config", "redocly.yaml", "--format", "stylish", file)
	if err != nil {
		t.Fatalf("redocly lint refuses the document: %v\n%s", err, lint)
	}
	return verdict + "\nredocly lint: " + summary(lint)
}

// summary keeps the lines of Redocly's output that say something (its
// findings and totals), without the banners.
func summary(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if strings.Contains(l, "warning") || strings.Contains(l, "error") || strings.Contains(l, "valid") || strings.Contains(l, "🎉") {
			if !strings.Contains(l, "Deprecation") && !strings.Contains(l, "║") {
				keep = append(keep, l)
			}
		}
	}
	return strings.Join(keep, "\n")
}

func run(node string, args ...string) (string, error) {
	cmd := exec.Command(node, args...)
	cmd.Dir = dir()
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Exchange is one recorded request and its answer.
type Exchange struct {
	Method      string `json:"method"`
	Path        string `json:"path"`
	Status      int    `json:"status"`
	ContentType string `json:"contentType"`
	Body        string `json:"body"`
}

// Recorder is an http.RoundTripper that records every exchange it carries
// (responses with a Content-Encoding are carried but not recorded: their
// bodies are not what the schema describes).
type Recorder struct {
	Base http.RoundTripper // nil: http.DefaultTransport

	mu        sync.Mutex
	exchanges []Exchange
}

// RoundTrip sends req and records the exchange.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	base := r.Base
	if base == nil {
		base = http.DefaultTransport
	}
	res, err := base.RoundTrip(req)
	if err != nil || res.Header.Get("Content-Encoding") != "" {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	r.exchanges = append(r.exchanges, Exchange{Method: req.Method, Path: req.URL.Path, Status: res.StatusCode, ContentType: res.Header.Get("Content-Type"), Body: string(body)})
	r.mu.Unlock()
	return res, nil
}

// Exchanges returns what was recorded.
func (r *Recorder) Exchanges() []Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Exchange(nil), r.exchanges...)
}

// Conform checks the exchanges against doc: each answer's status and
// Content-Type documented for its operation and its body valid against the
// schema (Ajv), and each documented 2xx and 4xx answer produced by one of
// them. It fails t otherwise and returns the verdict.
func Conform(t testing.TB, doc []byte, exchanges []Exchange) string {
	t.Helper()
	node := tools(t)
	tmp := t.TempDir()
	docFile, exFile := filepath.Join(tmp, "openapi.json"), filepath.Join(tmp, "exchanges.json")
	ex, err := json.Marshal(exchanges)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(docFile, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exFile, ex, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(node, "check.mjs", "conform", docFile, exFile)
	if err != nil {
		t.Fatalf("the server and its document disagree: %v\n%s", err, out)
	}
	return strings.TrimSpace(out)
}
