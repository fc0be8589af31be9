package h2

import (
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/internal/testtool"
)

const h2specModule = "github.com/summerwind/h2spec/cmd/h2spec@v2.2.1+incompatible"

func okHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "ok")
	})
}

// h2specPassed runs h2spec against the server and returns the cases
// passed and failed (by their JUnit names).
func h2specPassed(t *testing.T, bin string, own bool) (passed, failed map[string]bool) {
	ts := startServer(t, okHandler(), own)
	u, _ := url.Parse(ts.URL)
	report := filepath.Join(t.TempDir(), "report.xml")
	cmd := exec.Command(bin, "-t", "-k", "-h", u.Hostname(), "-p", u.Port(), "-o", "3", "-j", report)
	out, _ := cmd.CombinedOutput() // exits 1 when a case fails
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("h2spec wrote no report: %v\n%s", err, out)
	}
	var r struct {
		Suites []struct {
			Name  string `xml:"name,attr"`
			Pkg   string `xml:"package,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Class   string    `xml:"classname,attr"`
				Pkg     string    `xml:"package,attr"`
				Failure *struct{} `xml:"failure"`
				Error   *struct{} `xml:"error"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	passed, failed = map[string]bool{}, map[string]bool{}
	for _, s := range r.Suites {
		for _, c := range s.Cases {
			name := s.Pkg + " " + s.Name + " " + c.Pkg + " " + c.Class + ": " + c.Name
			switch {
			case c.Skipped != nil:
			case c.Failure != nil || c.Error != nil:
				failed[name] = true
			default:
				passed[name] = true
			}
		}
	}
	if os.Getenv("H2SPEC_KEEP") != "" {
		os.WriteFile(os.Getenv("H2SPEC_KEEP"), data, 0o644)
	}
	if len(passed)+len(failed) < 100 {
		t.Fatalf("h2spec ran %d cases, want the full suite\n%s", len(passed)+len(failed), out)
	}
	return passed, failed
}

// TestH2spec runs h2spec (github.com/summerwind/h2spec) against net/http's
// HTTP/2 server and against this one: every case net/http passes must pass.
func TestH2spec(t *testing.T) {
	if testing.Short() {
		t.Skip("h2spec: not in -short")
	}
	testtool.Require(t, "go")
	bin := t.TempDir()
	install := exec.Command("go", "install", h2specModule)
	install.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=-mod=mod")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install %s: %v\n%s", h2specModule, err, out)
	}
	exe := filepath.Join(bin, "h2spec")
	stdPassed, stdFailed := h2specPassed(t, exe, false)
	ownPassed, ownFailed := h2specPassed(t, exe, true)
	t.Logf("h2spec: net/http passes %d, fails %d; Vireo's h2 passes %d, fails %d",
		len(stdPassed), len(stdFailed), len(ownPassed), len(ownFailed))
	var missing, extra []string
	for name := range stdPassed {
		if !ownPassed[name] {
			missing = append(missing, name)
		}
	}
	for name := range ownPassed {
		if !stdPassed[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Logf("passed here, failed by net/http:\n  %s", strings.Join(extra, "\n  "))
	}
	if len(missing) > 0 {
		t.Errorf("net/http passes, Vireo's h2 fails:\n  %s", strings.Join(missing, "\n  "))
	}
}

// TestCurl fetches over the path with curl --http2.
func TestCurl(t *testing.T) {
	curl := testtool.Require(t, "curl", "curl")
	ts := startServer(t, echoHandler(), true)
	out, err := exec.Command(curl, "--http2", "-sSk", "-w", " %{http_version}", "-d", "posted body", ts.URL+"/echo").CombinedOutput()
	if err != nil || string(out) != "posted body 2" {
		t.Fatalf("curl --http2: %q %v, want \"posted body 2\"", out, err)
	}
	out, err = exec.Command(curl, "--http2", "-sSk", "-w", " %{http_version}", ts.URL+"/hello").CombinedOutput()
	if err != nil || string(out) != "hello 2" {
		t.Fatalf("curl --http2: %q %v, want \"hello 2\"", out, err)
	}
}
