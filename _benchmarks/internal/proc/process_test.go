// Tests of process handling on real child processes: the test binary plays
// the child (TestMain), so readiness, pausing, stopping a whole process group
// (a forked grandchild included), cancellation and the /proc figures are
// tested without any other program.
package proc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/benchtest"
)

// childEnv selects what the test binary does when started as a child.
const childEnv = "RUNNER_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "ready":
		ready()
		time.Sleep(time.Minute)
	case "ready-fork":
		// A grandchild in the same process group, like a node:cluster worker.
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), childEnv+"=sleep")
		if err := cmd.Start(); err != nil {
			panic(err)
		}
		fmt.Printf("grandchild %d\n", cmd.Process.Pid)
		ready()
		time.Sleep(time.Minute)
	case "ready-alloc":
		b := make([]byte, 64<<20)
		for i := range b {
			b[i] = 1
		}
		// Burn some CPU so the CPU figure has something to measure.
		for start := time.Now(); time.Since(start) < 100*time.Millisecond; {
		}
		ready()
		time.Sleep(time.Minute)
		fmt.Println(b[len(b)-1])
	case "sleep", "silent":
		time.Sleep(time.Minute)
	case "exit":
		fmt.Println("cannot start")
		os.Exit(3)
	}
	os.Exit(0)
}

func ready() {
	fmt.Printf(benchtest.ReadyListening+"\n%s\n", mustPort(), benchtest.ReadyStarted)
}

func mustPort() int {
	p, err := strconv.Atoi(os.Getenv("PORT"))
	if err != nil {
		panic(err)
	}
	return p
}

func childSpec(t *testing.T, mode string) Spec {
	t.Helper()
	port, err := benchtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Name: mode, Argv: []string{os.Args[0]}, Env: []string{childEnv + "=" + mode}, Port: port}
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(s[i+1:], " Z")
}

func waitGone(t *testing.T, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d still alive", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func state(pid int) byte {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	return s[strings.LastIndexByte(s, ')')+2]
}

func TestStartStopGroup(t *testing.T) {
	var g Group
	defer g.StopAll()
	p, err := g.Start(context.Background(), childSpec(t, "ready-fork"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var grandchild int
	deadline := time.Now().Add(3 * time.Second)
	for grandchild == 0 && time.Now().Before(deadline) {
		for _, pid := range GroupMembers(p.Pid()) {
			if pid != p.Pid() {
				grandchild = pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if grandchild == 0 {
		t.Fatal("the grandchild is not in the server's process group")
	}
	p.Stop()
	waitGone(t, p.Pid(), grandchild)
	if exited, _ := p.Exited(); !exited {
		t.Error("Exited reports false after Stop")
	}
	p.Stop() // idempotent
}

func TestPauseResumeStop(t *testing.T) {
	var g Group
	p, err := g.Start(context.Background(), childSpec(t, "ready"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Pause(); err != nil {
		t.Fatal(err)
	}
	waitState(t, p.Pid(), 'T')
	if err := p.Resume(); err != nil {
		t.Fatal(err)
	}
	waitState(t, p.Pid(), 'S')
	if err := p.Pause(); err != nil {
		t.Fatal(err)
	}
	waitState(t, p.Pid(), 'T')
	// A paused server must still go away promptly: SIGCONT before SIGTERM.
	start := time.Now()
	g.StopAll()
	waitGone(t, p.Pid())
	if d := time.Since(start); d > stopGrace/2 {
		t.Errorf("stopping a paused server took %v: it waited for the SIGKILL", d)
	}
}

func waitState(t *testing.T, pid int, want byte) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for state(pid) != want {
		if time.Now().After(deadline) {
			t.Fatalf("process %d in state %c, want %c", pid, state(pid), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestStartFailures(t *testing.T) {
	tests := []struct {
		mode    string
		timeout time.Duration
		want    string
	}{
		{"exit", 10 * time.Second, "exited before printing the readiness lines"},
		{"silent", 300 * time.Millisecond, "no readiness lines"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			var g Group
			defer g.StopAll()
			_, err := g.Start(context.Background(), childSpec(t, tt.mode), tt.timeout)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if tt.mode == "exit" && !strings.Contains(err.Error(), "cannot start") {
				t.Errorf("the error lacks the app's output: %v", err)
			}
			for _, p := range g.procs {
				waitGone(t, p.Pid())
			}
		})
	}
}

func TestCancelledContextStopsChildren(t *testing.T) {
	// A server that never gets ready is killed when the context ends.
	var g Group
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := g.Start(ctx, childSpec(t, "silent"), time.Minute)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	for _, p := range g.procs {
		waitGone(t, p.Pid())
	}

	// A load generator (or build tool) is killed with its process group.
	ctx, cancel = context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=sleep")
	SetGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	cancel()
	_ = cmd.Wait()
	waitGone(t, pid)

	// What a run had started is gone after the deferred StopAll.
	ctx, cancel = context.WithCancel(context.Background())
	p, err := g.Start(ctx, childSpec(t, "ready-fork"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	members := GroupMembers(p.Pid())
	if err := p.Pause(); err != nil {
		t.Fatal(err)
	}
	cancel()
	g.StopAll()
	waitGone(t, members...)
}

func TestParseStat(t *testing.T) {
	line := "1234 (a (weird) name) S 1 1230 1230 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 1 0 100 1000 10\n"
	st, ok := parseStat(1234, line)
	if !ok {
		t.Fatal("not parsed")
	}
	if st.pgid != 1230 || st.utime != 250 || st.stime != 50 || st.cutime != 7 || st.cstime != 3 {
		t.Errorf("parsed %+v", st)
	}
	if _, ok := parseStat(1, "garbage"); ok {
		t.Error("garbage parsed")
	}
}

func TestResourceFigures(t *testing.T) {
	var g Group
	defer g.StopAll()
	p, err := g.Start(context.Background(), childSpec(t, "ready-alloc"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMemSampler(p.Pid())
	if peak := m.Peak(); peak < 64<<20 {
		t.Errorf("peak RSS %d, want at least the 64 MiB the child touched", peak)
	}
	if cpu := GroupCPUSeconds(p.Pid()); cpu <= 0 {
		t.Errorf("CPU seconds %v, want > 0", cpu)
	}
	if got := StatusKB(p.Pid(), "VmHWM"); got < 64<<20 {
		t.Errorf("VmHWM %d", got)
	}
}
