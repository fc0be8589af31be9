package redisconn

import (
	"strings"
	"testing"
	"time"
)

type settings struct{ conn Settings }

func (s *settings) Conn() *Settings { return &s.conn }

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		opt  func(*settings)
		want string // "" for no error
	}{
		{"addr", Addr[*settings]("127.0.0.1:7000"), ""},
		{"empty addr", Addr[*settings](""), "pkg: empty address"},
		{"no addrs", Addrs[*settings](), "pkg: no addresses"},
		{"negative db", DB[*settings](-1), "pkg: negative database index -1"},
		{"negative timeout", Timeouts[*settings](0, -time.Second, 0), "pkg: negative timeout"},
		{"negative pool", PoolSize[*settings](-2), "pkg: negative pool size -2"},
		{"retries", MaxRetries[*settings](-2), "pkg: max retries -2"},
		{"nil client", Client[*settings](nil), "pkg: nil client"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s settings
			s.conn.Init("pkg", time.Second, time.Second, time.Second, 0)
			tt.opt(&s)
			err := s.conn.Err()
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestTimeoutsKeepDefaults(t *testing.T) {
	var s settings
	s.conn.Init("pkg", 1*time.Second, 2*time.Second, 3*time.Second, -1)
	Timeouts[*settings](0, 5*time.Second, 0)(&s)
	o := s.conn.opts
	if o.DialTimeout != time.Second || o.ReadTimeout != 5*time.Second || o.WriteTimeout != 3*time.Second || o.MaxRetries != -1 {
		t.Fatalf("dial %v read %v write %v retries %d", o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.MaxRetries)
	}
	if s.conn.ReadTimeout() != 5*time.Second {
		t.Fatalf("ReadTimeout %v", s.conn.ReadTimeout())
	}
}

func TestOpenUnreachable(t *testing.T) {
	var s settings
	s.conn.Init("pkg", 50*time.Millisecond, 50*time.Millisecond, 50*time.Millisecond, -1)
	Addr[*settings]("127.0.0.1:1")(&s)
	c, own, err := s.conn.Open(nil)
	if err == nil || c != nil || own {
		t.Fatalf("Open = %v, %v, %v; want an error", c, own, err)
	}
	if want := "pkg: cannot reach Redis at 127.0.0.1:1"; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q, want %q", err, want)
	}
}
