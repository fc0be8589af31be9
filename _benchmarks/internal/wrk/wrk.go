// Package wrk runs wrk (Debian's package wrk), the load generator of
// TechEmpower's toolset, and reads its result.
//
// Every run loads scripts/tfb-wrk.lua, whose done() hook prints the totals
// and the latency distribution as one JSON line, so nothing is scraped
// from wrk's text report. The same script pipelines requests when
// WRK_PIPELINE is above 1 (TechEmpower's plaintext: 16 per write). The
// arguments follow TechEmpower's scripts (toolset/wrk/*.sh): the Accept
// header of the test type, Connection: keep-alive, --latency, a timeout of
// 8 seconds, and as many threads as connections up to the CPUs wrk may
// use.
package wrk

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/vireo-go/vireo/internal/testtool"
)

// Script is the path of the suite's wrk script, relative to the module root.
const Script = "scripts/tfb-wrk.lua"

// Options shape one run.
type Options struct {
	Connections int
	// Threads is wrk's -t; 0 is min(Connections, CPUs).
	Threads int
	// CPUs is the number of CPUs wrk runs on (its pinning), which bounds
	// the threads (default 1).
	CPUs     int
	Duration time.Duration
	// Timeout is wrk's --timeout (default 8s, TechEmpower's).
	Timeout time.Duration
	// Pipeline is the number of requests sent per write (0 or 1: none).
	Pipeline int
	// Headers are "Name: value" lines.
	Headers []string
}

// Result is what the script's done() hook reports.
type Result struct {
	Requests   int64 `json:"requests"`
	DurationUS int64 `json:"duration_us"`
	Bytes      int64 `json:"bytes"`
	Errors     struct {
		Connect int64 `json:"connect"`
		Read    int64 `json:"read"`
		Write   int64 `json:"write"`
		// Status counts responses other than 2xx and 3xx.
		Status  int64 `json:"status"`
		Timeout int64 `json:"timeout"`
	} `json:"errors"`
	LatencyUS struct {
		Mean  float64 `json:"mean"`
		Stdev float64 `json:"stdev"`
		Max   int64   `json:"max"`
		P50   int64   `json:"p50"`
		P75   int64   `json:"p75"`
		P90   int64   `json:"p90"`
		P99   int64   `json:"p99"`
	} `json:"latency_us"`
	Pipeline int `json:"pipeline"`
}

// RequestsPerSecond is the rate of responses over the run.
func (r *Result) RequestsPerSecond() float64 {
	if r.DurationUS == 0 {
		return 0
	}
	return float64(r.Requests) / (float64(r.DurationUS) / 1e6)
}

// SocketErrors is the sum of connect, read, write and timeout errors.
func (r *Result) SocketErrors() int64 {
	return r.Errors.Connect + r.Errors.Read + r.Errors.Write + r.Errors.Timeout
}

// Missing is the reason given where wrk is not installed.
const Missing = "wrk not found (Debian: apt-get install -y wrk)"

// Find returns the path of wrk. It installs nothing: the runner reports a
// missing wrk, the tests install it (testtool.Require).
func Find() (string, error) {
	if p := testtool.Look("wrk"); p != "" {
		return p, nil
	}
	return "", errors.New(Missing)
}

var versionRe = regexp.MustCompile(`wrk (\S+)`)

// Version returns wrk's version ("4.1.0"), or "" when it cannot tell.
func Version(path string) string {
	// wrk -v prints its banner and exits with status 1.
	out, _ := exec.Command(path, "-v").CombinedOutput()
	if m := versionRe.FindSubmatch(out); m != nil {
		return string(m[1])
	}
	return ""
}

// Args returns wrk's arguments for a run of o against url with the script
// at script.
func Args(url, script string, o Options) []string {
	threads := o.Threads
	if threads <= 0 {
		threads = min(o.Connections, max(o.CPUs, 1))
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 8 * time.Second
	}
	args := []string{}
	for _, h := range o.Headers {
		args = append(args, "-H", h)
	}
	args = append(args, "-H", "Connection: keep-alive", "--latency",
		"-d", seconds(o.Duration), "-c", strconv.Itoa(o.Connections),
		"--timeout", seconds(timeout), "-t", strconv.Itoa(threads),
		"-s", script, url)
	return args
}

func seconds(d time.Duration) string {
	return strconv.Itoa(max(int(d.Round(time.Second)/time.Second), 1)) + "s"
}

// Run runs wrk (prefix, such as a taskset, goes before it) from the module
// root and returns its result.
func Run(ctx context.Context, prefix []string, path, root, url string, o Options) (*Result, error) {
	script := filepath.Join(root, Script)
	argv := append(append(append([]string(nil), prefix...), path), Args(url, script, o)...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "WRK_PIPELINE="+strconv.Itoa(max(o.Pipeline, 1)))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("wrk %s: %v\n%s%s", strings.Join(argv[1:], " "), err, out, stderr.Bytes())
	}
	return Parse(out)
}

// Parse reads the script's summary line from wrk's output.
func Parse(out []byte) (*Result, error) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if js, ok := strings.CutPrefix(sc.Text(), "vireo-wrk: "); ok {
			var r Result
			if err := json.Unmarshal([]byte(js), &r); err != nil {
				return nil, fmt.Errorf("wrk summary %q: %v", js, err)
			}
			return &r, nil
		}
	}
	return nil, errors.New("wrk printed no summary line (is the script " + Script + " loaded?)\n" + string(out))
}
