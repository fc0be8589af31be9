// Tests of the bombardier JSON decoding against real outputs of bombardier
// v1.2.6 captured from a tiny local net/http server (testdata/), and of the
// command line built for a run.
package bombardier

import (
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseCapturedOutputs(t *testing.T) {
	tests := []struct {
		file        string
		total       int64
		req2xx      int64
		nonSuccess  int64
		errors      int64
		p99         float64
		hasP99      bool
		connections int
		testType    string
	}{
		{"bombardier-ok.json", 2000, 2000, 0, 0, 1384, true, 8, "number-of-requests"},
		{"bombardier-5xx.json", 64335, 0, 64335, 0, 0, false, 4, "timed"},
		{"bombardier-refused.json", 20, 0, 0, 20, 0, false, 2, "number-of-requests"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Parse(data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			r := &rep.Result
			if got := r.TotalRequests(); got != tt.total {
				t.Errorf("TotalRequests = %d, want %d", got, tt.total)
			}
			if r.Req2xx != tt.req2xx {
				t.Errorf("Req2xx = %d, want %d", r.Req2xx, tt.req2xx)
			}
			if got := r.NonSuccess(); got != tt.nonSuccess {
				t.Errorf("NonSuccess = %d, want %d", got, tt.nonSuccess)
			}
			if got := r.ErrorTotal(); got != tt.errors {
				t.Errorf("ErrorTotal = %d, want %d", got, tt.errors)
			}
			p99, ok := r.Percentile(99)
			if ok != tt.hasP99 || p99 != tt.p99 {
				t.Errorf("Percentile(99) = %v, %v; want %v, %v", p99, ok, tt.p99, tt.hasP99)
			}
			if rep.Spec.Connections != tt.connections || rep.Spec.TestType != tt.testType {
				t.Errorf("spec = %+v", rep.Spec)
			}
			if r.RPS.Mean <= 0 || r.Latency.Mean <= 0 || r.Latency.Max < r.Latency.Mean {
				t.Errorf("implausible distributions: rps %+v latency %+v", r.RPS, r.Latency)
			}
		})
	}
}

func TestParseOKFigures(t *testing.T) {
	data, err := os.ReadFile("testdata/bombardier-ok.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	r := &rep.Result
	want := float64(242000+148000) / 0.046522967
	if got := r.Throughput(); math.Abs(got-want) > 1e-6 {
		t.Errorf("Throughput = %v, want %v", got, want)
	}
	if r.Latency.Mean != 179.6235 || r.Latency.Max != 8108 {
		t.Errorf("latency = %+v", r.Latency)
	}
	wantP := map[string]int64{"50": 114, "75": 196, "90": 275, "95": 358, "99": 1384}
	if !reflect.DeepEqual(r.Latency.Percentiles, wantP) {
		t.Errorf("percentiles = %v, want %v", r.Latency.Percentiles, wantP)
	}
	if got := r.TimeTaken(); got < 46*time.Millisecond || got > 47*time.Millisecond {
		t.Errorf("TimeTaken = %v", got)
	}
	if rep.Result.Errors != nil {
		t.Errorf("errors = %v, want none", rep.Result.Errors)
	}
}

func TestParseRefusedErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/bombardier-refused.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Result.Errors) != 1 || !strings.Contains(rep.Result.Errors[0].Description, "connection refused") {
		t.Errorf("errors = %+v", rep.Result.Errors)
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{
		"",
		"bombardier: connection refused",
		`{"spec":{},"result":{"timeTakenSeconds":0}}`,
		`{"spec":{},"result":`,
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) succeeded, want an error", in)
		}
	}
}

func TestArgs(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		want    []string
		wantErr bool
	}{
		{"requests", Options{URL: "http://127.0.0.1:5000/x", Connections: 125, Requests: 1000000},
			[]string{"-c", "125", "-n", "1000000", "-l", "-o", "json", "-p", "r", "http://127.0.0.1:5000/x"}, false},
		{"duration and cookie", Options{URL: "http://h/", Connections: 4, Duration: 2 * time.Second, Timeout: 5 * time.Second, Headers: []string{"Cookie: a=b"}},
			[]string{"-c", "4", "-d", "2s", "-t", "5s", "-H", "Cookie: a=b", "-l", "-o", "json", "-p", "r", "http://h/"}, false},
		{"fixed rate", Options{URL: "http://h/", Connections: 125, Duration: 10 * time.Second, Rate: 5000},
			[]string{"-c", "125", "-d", "10s", "-r", "5000", "-l", "-o", "json", "-p", "r", "http://h/"}, false},
		{"negative rate", Options{URL: "http://h/", Connections: 1, Requests: 1, Rate: -1}, nil, true},
		{"sub-second duration", Options{URL: "http://h/", Connections: 1, Duration: 500 * time.Millisecond}, nil, true},
		{"no url", Options{Connections: 1, Requests: 1}, nil, true},
		{"no load", Options{URL: "http://h/", Connections: 1}, nil, true},
		{"no connections", Options{URL: "http://h/", Requests: 1}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.opts.Args()
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Args = %q, want %q", got, tt.want)
			}
		})
	}
}
