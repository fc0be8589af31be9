// Package h2load runs the HTTP/2 load generator h2load (Debian's
// nghttp2-client) and decodes what it reports.
//
// h2load prints a text report: the negotiated application protocol
// ("Application protocol: h2"), the run's time, requests per second and
// bytes per second ("finished in ..."), the request counts by outcome and
// status class, the traffic, and min/max/mean/sd of the request times. It
// prints no percentiles, so the runner also asks for --log-file, one line
// per request (start time, status, microseconds until the end of the
// response), and takes p50..p99 from it. Both are parsed here; the
// arguments are built by Options.Args.
package h2load

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Result is what one h2load run measured.
type Result struct {
	// Protocol is the ALPN-negotiated protocol h2load reported ("h2",
	// "http/1.1").
	Protocol         string  `json:"protocol"`
	TimeTakenSeconds float64 `json:"timeTakenSeconds"`
	RequestsPerSec   float64 `json:"requestsPerSec"`
	BytesPerSec      float64 `json:"bytesPerSec"`
	Requests         Counts  `json:"requests"`
	Status           Status  `json:"status"`
	// TrafficBytes is every byte received, HeaderBytes and DataBytes its
	// parts (after HPACK, whose saving is HeaderSpaceSavings percent).
	TrafficBytes       int64   `json:"trafficBytes"`
	HeaderBytes        int64   `json:"headerBytes"`
	DataBytes          int64   `json:"dataBytes"`
	HeaderSpaceSavings float64 `json:"headerSpaceSavings"`
	// RequestTime is h2load's own summary of the request times, in
	// microseconds.
	RequestTime Timing `json:"requestTime"`
	// Percentiles are the request times in microseconds at "50", "75",
	// "90", "95" and "99", from the per-request log.
	Percentiles map[string]float64 `json:"percentiles,omitempty"`
	// LoggedRequests is the number of requests the log held.
	LoggedRequests int64 `json:"loggedRequests,omitempty"`
}

// Counts are h2load's request counts.
type Counts struct {
	Total     int64 `json:"total"`
	Started   int64 `json:"started"`
	Done      int64 `json:"done"`
	Succeeded int64 `json:"succeeded"`
	Failed    int64 `json:"failed"`
	Errored   int64 `json:"errored"`
	Timeout   int64 `json:"timeout"`
}

// Status counts the responses by status class.
type Status struct {
	S2xx int64 `json:"2xx"`
	S3xx int64 `json:"3xx"`
	S4xx int64 `json:"4xx"`
	S5xx int64 `json:"5xx"`
}

// Timing is min, max, mean and standard deviation in microseconds.
type Timing struct {
	MinMicros  float64 `json:"min"`
	MaxMicros  float64 `json:"max"`
	MeanMicros float64 `json:"mean"`
	SDMicros   float64 `json:"sd"`
}

// NonSuccess is the number of responses with a status outside 2xx.
func (r *Result) NonSuccess() int64 { return r.Status.S3xx + r.Status.S4xx + r.Status.S5xx }

// Errors is the number of requests that got no response (errored, timed
// out, or never completed).
func (r *Result) Errors() int64 {
	n := r.Requests.Errored + r.Requests.Timeout
	if missing := r.Requests.Done - (r.Status.S2xx + r.NonSuccess()) - n; missing > 0 {
		n += missing
	}
	return n
}

var (
	protoLine    = regexp.MustCompile(`(?m)^Application protocol: (\S+)`)
	finishedLine = regexp.MustCompile(`(?m)^finished in ([0-9.]+)(us|ms|s), ([0-9.]+) req/s, ([0-9.]+)([KMG]?B)/s`)
	requestsLine = regexp.MustCompile(`(?m)^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout`)
	statusLine   = regexp.MustCompile(`(?m)^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx`)
	trafficLine  = regexp.MustCompile(`(?m)^traffic: \S+ \((\d+)\) total, \S+ \((\d+)\) headers \(space savings ([0-9.]+)%\), \S+ \((\d+)\) data`)
	timingLine   = regexp.MustCompile(`(?m)^time for request:\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)`)
)

// Parse decodes h2load's text report out and, when log is not nil, the
// per-request log written with --log-file.
func Parse(out, log []byte) (*Result, error) {
	s := string(out)
	m := finishedLine.FindStringSubmatch(s)
	if m == nil {
		return nil, fmt.Errorf("h2load: no \"finished in\" line in output %q", truncate(s, 400))
	}
	var r Result
	d, err := duration(m[1] + m[2])
	if err != nil {
		return nil, err
	}
	r.TimeTakenSeconds = d.Seconds()
	r.RequestsPerSec, _ = strconv.ParseFloat(m[3], 64)
	r.BytesPerSec = size(m[4], m[5])
	if p := protoLine.FindStringSubmatch(s); p != nil {
		r.Protocol = p[1]
	}
	q := requestsLine.FindStringSubmatch(s)
	st := statusLine.FindStringSubmatch(s)
	if q == nil || st == nil {
		return nil, errors.New("h2load: output lacks the requests or status codes line")
	}
	n := ints(q[1:])
	r.Requests = Counts{Total: n[0], Started: n[1], Done: n[2], Succeeded: n[3], Failed: n[4], Errored: n[5], Timeout: n[6]}
	c := ints(st[1:])
	r.Status = Status{S2xx: c[0], S3xx: c[1], S4xx: c[2], S5xx: c[3]}
	if t := trafficLine.FindStringSubmatch(s); t != nil {
		v := ints([]string{t[1], t[2], t[4]})
		r.TrafficBytes, r.HeaderBytes, r.DataBytes = v[0], v[1], v[2]
		r.HeaderSpaceSavings, _ = strconv.ParseFloat(t[3], 64)
	}
	if t := timingLine.FindStringSubmatch(s); t != nil {
		var vals [4]float64
		for i := range vals {
			d, err := duration(t[i+1])
			if err != nil {
				return nil, err
			}
			vals[i] = float64(d) / float64(time.Microsecond)
		}
		r.RequestTime = Timing{MinMicros: vals[0], MaxMicros: vals[1], MeanMicros: vals[2], SDMicros: vals[3]}
	}
	if log != nil {
		if err := r.readLog(log); err != nil {
			return nil, err
		}
	}
	return &r, nil
}

// readLog takes the percentiles from the per-request log: tab-separated
// start time (µs since the epoch), status, and µs until the response ended.
func (r *Result) readLog(log []byte) error {
	var times []float64
	sc := bufio.NewScanner(bytes.NewReader(log))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 3 {
			continue
		}
		us, err := strconv.ParseFloat(strings.TrimSpace(f[2]), 64)
		if err != nil {
			return fmt.Errorf("h2load: log line %q: %v", sc.Text(), err)
		}
		times = append(times, us)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	r.LoggedRequests = int64(len(times))
	if len(times) == 0 {
		return nil
	}
	sort.Float64s(times)
	r.Percentiles = map[string]float64{}
	for _, p := range []int{50, 75, 90, 95, 99} {
		r.Percentiles[strconv.Itoa(p)] = nearestRank(times, p)
	}
	return nil
}

// nearestRank is the p-th percentile of sorted xs by the nearest-rank
// method: the smallest value that at least p percent of xs do not exceed.
func nearestRank(xs []float64, p int) float64 {
	i := int(math.Ceil(float64(p)/100*float64(len(xs)))) - 1
	return xs[max(0, min(i, len(xs)-1))]
}

// duration parses h2load's durations ("441.94ms", "127us", "2.00s").
func duration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("h2load: duration %q: %v", s, err)
	}
	return d, nil
}

// size converts h2load's "120.46" "KB" into bytes (binary units, as
// h2load computes them).
func size(v, unit string) float64 {
	f, _ := strconv.ParseFloat(v, 64)
	switch unit {
	case "KB":
		f *= 1 << 10
	case "MB":
		f *= 1 << 20
	case "GB":
		f *= 1 << 30
	}
	return f
}

func ints(ss []string) []int64 {
	out := make([]int64, len(ss))
	for i, s := range ss {
		out[i], _ = strconv.ParseInt(s, 10, 64)
	}
	return out
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// Options selects the load of one h2load run.
type Options struct {
	URL         string
	Connections int
	// Streams is the concurrent streams per connection (-m); for HTTP/1.1
	// the requests pipelined per connection (1: none).
	Streams int
	// Requests is the number of requests (-n); when zero Duration (-D)
	// is used.
	Requests int64
	Duration time.Duration
	// WarmUp, for a timed run, is the time before the measured Duration
	// (--warm-up-time) in which the clients connect and run unmeasured.
	WarmUp time.Duration
	// Inactivity, when positive, closes a connection that receives
	// nothing for that long (-N), as bombardier's -t fails a request: a
	// server that stalls one connection cannot hold the run forever.
	Inactivity time.Duration
	// HTTP1 forces HTTP/1.1 (--h1): ALPN offers only http/1.1.
	HTTP1   bool
	Headers []string // "Key: Value"
	// LogFile receives one line per request (--log-file).
	LogFile string
}

// Args builds h2load's command line for o, on one thread (the load CPUs
// run one h2load).
func (o Options) Args() ([]string, error) {
	if o.URL == "" {
		return nil, errors.New("h2load: no URL")
	}
	if o.Connections <= 0 || o.Streams <= 0 {
		return nil, fmt.Errorf("h2load: connections and streams must be positive, got %d and %d", o.Connections, o.Streams)
	}
	args := []string{"-t", "1", "-c", strconv.Itoa(o.Connections), "-m", strconv.Itoa(o.Streams)}
	switch {
	case o.Requests > 0:
		args = append(args, "-n", strconv.FormatInt(o.Requests, 10))
	case o.Duration >= time.Second:
		args = append(args, "-D", strconv.Itoa(int(o.Duration.Round(time.Second)/time.Second)))
		if o.WarmUp > 0 {
			args = append(args, "--warm-up-time="+strconv.FormatFloat(o.WarmUp.Seconds(), 'f', -1, 64))
		}
	case o.Duration > 0:
		return nil, fmt.Errorf("h2load: duration %v is shorter than 1s", o.Duration)
	default:
		return nil, errors.New("h2load: neither a request count nor a duration")
	}
	if o.Inactivity > 0 {
		args = append(args, "-N", strconv.FormatFloat(o.Inactivity.Seconds(), 'f', -1, 64))
	}
	if o.HTTP1 {
		args = append(args, "--h1")
	}
	for _, h := range o.Headers {
		args = append(args, "-H", h)
	}
	if o.LogFile != "" {
		args = append(args, "--log-file="+o.LogFile)
	}
	return append(args, o.URL), nil
}
