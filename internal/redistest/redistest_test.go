package redistest

import (
	"reflect"
	"testing"
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
