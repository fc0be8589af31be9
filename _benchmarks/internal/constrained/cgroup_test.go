// Tests of the constrained profile where this machine can apply it: a server
// started through the wrapper runs inside the new group with the limits set,
// and the group is removed when the server stops. Elsewhere the Limiter must
// say why it cannot apply the profile.
package constrained

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
)

func TestLimiter(t *testing.T) {
	l := New(40, 256<<20)
	lim := l.Limit()
	if lim.CPUQuotaPercent != 40 || lim.MemoryMaxBytes != 256<<20 {
		t.Errorf("limit %+v", lim)
	}
	switch l.method {
	case "none":
		if lim.Applied || lim.Note == "" {
			t.Errorf("unapplicable profile reported as %+v", lim)
		}
		t.Skipf("no cgroup control here: %s", l.note)
	case "systemd-run":
		t.Skip("systemd-run scopes are left to systemd; the direct cgroupfs paths are tested where systemd is not init")
	}
	port, err := benchtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	// A server that prints the readiness lines and waits.
	script := `printf '` + benchtest.ReadyListening + `\n%s\n' "$PORT" '` + benchtest.ReadyStarted + `'; exec sleep 60`
	spec := proc.Spec{Name: "test", Argv: []string{"/bin/sh", "-c", script}, Port: port}
	argv, cg, err := l.Wrap("test", spec.Argv)
	if err != nil {
		t.Fatal(err)
	}
	spec.Argv, spec.Env = argv, append(spec.Env, cg.Env()...)
	var g proc.Group
	defer g.StopAll()
	p, err := g.Start(context.Background(), spec, 10*time.Second)
	if err != nil {
		cg.Remove()
		t.Fatal(err)
	}
	p.Limit = cg
	data, err := os.ReadFile("/proc/" + strconv.Itoa(p.Pid()) + "/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	group := filepath.Base(cg.dirs[0])
	if !strings.Contains(string(data), group) {
		t.Errorf("server not in group %s:\n%s", group, data)
	}
	quotaFile := filepath.Join(cg.dirs[0], "cpu.cfs_quota_us")
	want := "40000"
	if l.method == "cgroup2" {
		quotaFile, want = filepath.Join(cg.dirs[0], "cpu.max"), "40000 100000"
	}
	if q, _ := os.ReadFile(quotaFile); strings.TrimSpace(string(q)) != want {
		t.Errorf("%s = %q, want %q", quotaFile, q, want)
	}
	if cg.MemoryPeak() <= 0 {
		t.Error("no cgroup memory peak")
	}
	dirs := cg.dirs
	g.StopAll()
	for _, d := range dirs {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("group %s left behind", d)
		}
	}
}
