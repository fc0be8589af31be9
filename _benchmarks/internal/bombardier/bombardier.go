// Package bombardier runs the load generator github.com/codesenberg/bombardier
// (built from this module, so its version is pinned by go.sum) and decodes its
// JSON report.
//
// bombardier is invoked with `-o json -p r`, which prints one JSON document
// holding the test spec and the result. Latencies in that document are in
// microseconds; the throughput the plain-text report shows is not part of it,
// so it is derived here the same way bombardier derives it:
// (bytesRead + bytesWritten) / timeTakenSeconds.
package bombardier

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Report is the JSON document bombardier prints with `-o json -p r`.
type Report struct {
	Spec   Spec   `json:"spec"`
	Result Result `json:"result"`
}

// Spec describes the test bombardier ran.
type Spec struct {
	Connections         int     `json:"numberOfConnections"`
	TestType            string  `json:"testType"`
	NumberOfRequests    int64   `json:"numberOfRequests,omitempty"`
	TestDurationSeconds float64 `json:"testDurationSeconds,omitempty"`
	Method              string  `json:"method"`
	URL                 string  `json:"url"`
	Headers             []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	} `json:"headers,omitempty"`
	TimeoutSeconds float64 `json:"timeoutSeconds"`
	Client         string  `json:"client"`
}

// Result holds the measured figures of one bombardier run.
type Result struct {
	BytesRead        int64        `json:"bytesRead"`
	BytesWritten     int64        `json:"bytesWritten"`
	TimeTakenSeconds float64      `json:"timeTakenSeconds"`
	Req1xx           int64        `json:"req1xx"`
	Req2xx           int64        `json:"req2xx"`
	Req3xx           int64        `json:"req3xx"`
	Req4xx           int64        `json:"req4xx"`
	Req5xx           int64        `json:"req5xx"`
	Others           int64        `json:"others"`
	Errors           []ErrorCount `json:"errors,omitempty"`
	Latency          Latency      `json:"latency"`
	RPS              RPS          `json:"rps"`
}

// ErrorCount is one kind of socket or protocol error and how often it occurred.
type ErrorCount struct {
	Description string `json:"description"`
	Count       int64  `json:"count"`
}

// Latency is the latency distribution in microseconds. Percentiles is only
// present when bombardier ran with -l; its keys are "50", "75", "90", "95", "99".
type Latency struct {
	Mean        float64          `json:"mean"`
	Stddev      float64          `json:"stddev"`
	Max         float64          `json:"max"`
	Percentiles map[string]int64 `json:"percentiles,omitempty"`
}

// RPS is the distribution of requests per second sampled by bombardier.
type RPS struct {
	Mean        float64            `json:"mean"`
	Stddev      float64            `json:"stddev"`
	Max         float64            `json:"max"`
	Percentiles map[string]float64 `json:"percentiles,omitempty"`
}

// Parse decodes bombardier's JSON output. Anything bombardier may print
// around the document (it prints nothing else with -p r, but a wrapper might)
// is ignored: the document runs from the first '{' to the last '}'.
func Parse(out []byte) (*Report, error) {
	s := string(out)
	start, end := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}')
	if start < 0 || end < start {
		return nil, fmt.Errorf("bombardier: no JSON document in output %q", truncate(s, 200))
	}
	var r Report
	if err := json.Unmarshal([]byte(s[start:end+1]), &r); err != nil {
		return nil, fmt.Errorf("bombardier: decoding JSON: %w", err)
	}
	if r.Result.TimeTakenSeconds <= 0 {
		return nil, errors.New("bombardier: result has no duration (timeTakenSeconds <= 0)")
	}
	return &r, nil
}

// TotalRequests is the number of requests that completed with any status
// code plus those that failed (the "others" bucket holds socket errors).
func (r *Result) TotalRequests() int64 {
	return r.Req1xx + r.Req2xx + r.Req3xx + r.Req4xx + r.Req5xx + r.Others
}

// NonSuccess is the number of requests answered with a status outside 2xx.
func (r *Result) NonSuccess() int64 {
	return r.Req1xx + r.Req3xx + r.Req4xx + r.Req5xx
}

// ErrorTotal is the number of requests that failed without a status code
// (connection refused or reset, timeouts).
func (r *Result) ErrorTotal() int64 {
	var n int64
	for _, e := range r.Errors {
		n += e.Count
	}
	if r.Others > n {
		n = r.Others
	}
	return n
}

// Throughput is the bytes read and written per second, as bombardier's
// plain-text report shows it.
func (r *Result) Throughput() float64 {
	if r.TimeTakenSeconds <= 0 {
		return 0
	}
	return float64(r.BytesRead+r.BytesWritten) / r.TimeTakenSeconds
}

// Percentile returns the latency percentile p (50, 75, 90, 95 or 99) in
// microseconds and whether bombardier reported it.
func (r *Result) Percentile(p int) (float64, bool) {
	v, ok := r.Latency.Percentiles[strconv.Itoa(p)]
	return float64(v), ok
}

// TimeTaken is the wall time of the run.
func (r *Result) TimeTaken() time.Duration {
	return time.Duration(r.TimeTakenSeconds * float64(time.Second))
}

// Options selects the load of one bombardier run.
type Options struct {
	URL         string
	Connections int
	// Requests is the number of requests (-n); when zero Duration (-d) is used.
	Requests int64
	Duration time.Duration
	Timeout  time.Duration
	Headers  []string // "Key: Value"
	// Method and Body, when set, are the requests' method (-m) and body
	// (-b); the default is GET without a body.
	Method string
	Body   []byte
	// Rate, when positive, limits the load to that many requests per
	// second over all connections (-r); zero sends as fast as the server
	// answers.
	Rate int
}

// Args builds bombardier's command line for o: JSON output of the result
// only, with latency percentiles.
func (o Options) Args() ([]string, error) {
	if o.URL == "" {
		return nil, errors.New("bombardier: no URL")
	}
	if o.Connections <= 0 {
		return nil, fmt.Errorf("bombardier: connections must be positive, got %d", o.Connections)
	}
	args := []string{"-c", strconv.Itoa(o.Connections)}
	switch {
	case o.Requests > 0:
		args = append(args, "-n", strconv.FormatInt(o.Requests, 10))
	case o.Duration >= time.Second:
		args = append(args, "-d", o.Duration.String())
	case o.Duration > 0:
		return nil, fmt.Errorf("bombardier: duration %v is shorter than bombardier's minimum of 1s", o.Duration)
	default:
		return nil, errors.New("bombardier: neither a request count nor a duration")
	}
	if o.Timeout > 0 {
		args = append(args, "-t", o.Timeout.String())
	}
	if o.Rate < 0 {
		return nil, fmt.Errorf("bombardier: rate must not be negative, got %d", o.Rate)
	}
	if o.Rate > 0 {
		args = append(args, "-r", strconv.Itoa(o.Rate))
	}
	for _, h := range o.Headers {
		args = append(args, "-H", h)
	}
	if o.Method != "" {
		args = append(args, "-m", o.Method)
	}
	if o.Body != nil {
		args = append(args, "-b", string(o.Body))
	}
	return append(args, "-l", "-o", "json", "-p", "r", o.URL), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
