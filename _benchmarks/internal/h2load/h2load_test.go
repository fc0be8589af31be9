package h2load

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParse decodes real h2load output: an HTTP/2 run with its
// per-request log, a timed HTTP/1.1 run, and a run against a closed port.
func TestParse(t *testing.T) {
	r, err := Parse(read(t, "h2-m4.txt"), read(t, "h2-m4.log"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Protocol != "h2" || r.Requests.Done != 2000 || r.Requests.Succeeded != 2000 || r.Status.S2xx != 2000 {
		t.Errorf("h2 run: %+v", r)
	}
	if r.RequestsPerSec <= 0 || r.TimeTakenSeconds <= 0 || r.TrafficBytes <= 0 || r.DataBytes != 10000 {
		t.Errorf("h2 figures: %+v", r)
	}
	if r.NonSuccess() != 0 || r.Errors() != 0 {
		t.Errorf("h2 run: %d non-2xx, %d errors", r.NonSuccess(), r.Errors())
	}
	if r.LoggedRequests != 2000 || len(r.Percentiles) != 5 {
		t.Fatalf("log: %d requests, percentiles %v", r.LoggedRequests, r.Percentiles)
	}
	prev := 0.0
	for _, p := range []string{"50", "75", "90", "95", "99"} {
		v := r.Percentiles[p]
		if v < prev || v < r.RequestTime.MinMicros || v > r.RequestTime.MaxMicros {
			t.Errorf("p%s = %v outside [%v, %v] or below the previous %v", p, v, r.RequestTime.MinMicros, r.RequestTime.MaxMicros, prev)
		}
		prev = v
	}

	h1, err := Parse(read(t, "h1-d1.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if h1.Protocol != "http/1.1" || h1.Requests.Succeeded == 0 || h1.Percentiles != nil {
		t.Errorf("h1 run: %+v", h1)
	}

	refused, err := Parse(read(t, "refused.txt"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if refused.Status.S2xx != 0 || refused.Errors() != 10 || refused.Protocol != "" {
		t.Errorf("refused run: %+v, %d errors", refused, refused.Errors())
	}

	if _, err := Parse([]byte("starting benchmark...\n"), nil); err == nil || !strings.Contains(err.Error(), "finished in") {
		t.Errorf("no report: err = %v", err)
	}
	if _, err := Parse(read(t, "h2-m4.txt"), []byte("1\t200\tnot-a-number\n")); err == nil {
		t.Error("a bad log line was accepted")
	}
}

func TestNearestRank(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for p, want := range map[int]float64{50: 5, 90: 9, 99: 10, 1: 1} {
		if got := nearestRank(xs, p); got != want {
			t.Errorf("p%d = %v, want %v", p, got, want)
		}
	}
}

func TestArgs(t *testing.T) {
	tests := []struct {
		o       Options
		want    []string
		wantErr string
	}{
		{Options{URL: "https://x/", Connections: 32, Streams: 16, Requests: 1000}, []string{"-t", "1", "-c", "32", "-m", "16", "-n", "1000", "https://x/"}, ""},
		{Options{URL: "https://x/", Connections: 32, Streams: 1, Duration: 4 * time.Second, WarmUp: time.Second, Inactivity: 2500 * time.Millisecond, HTTP1: true, LogFile: "/tmp/l", Headers: []string{"A: b"}},
			[]string{"-t", "1", "-c", "32", "-m", "1", "-D", "4", "--warm-up-time=1", "-N", "2.5", "--h1", "-H", "A: b", "--log-file=/tmp/l", "https://x/"}, ""},
		{Options{Connections: 1, Streams: 1, Requests: 1}, nil, "no URL"},
		{Options{URL: "https://x/", Connections: 1, Streams: 0, Requests: 1}, nil, "positive"},
		{Options{URL: "https://x/", Connections: 1, Streams: 1}, nil, "neither"},
		{Options{URL: "https://x/", Connections: 1, Streams: 1, Duration: time.Millisecond}, nil, "shorter"},
	}
	for _, tt := range tests {
		got, err := tt.o.Args()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%+v: err %v, want %q", tt.o, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%+v: %q, %v; want %q", tt.o, got, err, tt.want)
		}
	}
}
