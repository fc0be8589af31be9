package redistest

import (
	"reflect"
	"testing"
	"time"
)

// TestDo: the RESP2 replies the helpers read, from a real redis-server.
func TestDo(t *testing.T) {
	s := StartServer(t)
	for _, tc := range []struct {
		args []string
		want any
		err  bool
	}{
		{[]string{"SET", "k", "v\r\nwith a line break"}, "OK", false},
		{[]string{"GET", "k"}, "v\r\nwith a line break", false},
		{[]string{"GET", "missing"}, nil, false},
		{[]string{"RPUSH", "l", "a", "b"}, int64(2), false},
		{[]string{"LRANGE", "l", "0", "-1"}, []any{"a", "b"}, false},
		{[]string{"NOSUCHCOMMAND"}, nil, true},
	} {
		got, err := Do(s.Addr(), tc.args...)
		if (err != nil) != tc.err || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %#v, %v; want %#v (error %v)", tc.args, got, err, tc.want, tc.err)
		}
	}
	if Field(Info(s.Addr(), "replication"), "role") != "master" {
		t.Error("INFO replication: no role:master")
	}
}

func TestAdmitted(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms ...int) []time.Time {
		var ts []time.Time
		for _, m := range ms {
			ts = append(ts, t0.Add(time.Duration(m)*time.Millisecond))
		}
		return ts
	}
	for _, tc := range []struct {
		name  string
		times []time.Time
		want  int
	}{
		{"a burst of 5 at once, burst 3", at(0, 0, 0, 0, 0), 3},
		{"spaced by the rate", at(0, 100, 200, 300, 400), 5},
		{"out of order", at(300, 0, 0, 0, 0, 100), 5}, // 3 at 0, one at 100ms, one at 300ms
	} {
		if got := Admitted(tc.times, 10, 3); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
