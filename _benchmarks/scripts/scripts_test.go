// Package scripts_test checks the load scripts without generating load: in
// dry-run mode they must print the original command lines, and the wrk Lua
// script must keep one session per connection (run under luajit with a
// stand-in for wrk's API, where luajit is installed).
package scripts_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/internal/testtool"
)

func dryRun(t *testing.T, script string, args ...string) string {
	t.Helper()
	cmd := exec.Command("bash", append([]string{script, "--dry-run", "--cpus", "1"}, args...)...)
	cmd.Env = append(os.Environ(), "TOOL=", "URL=", "CONNECTIONS=", "REQUESTS=", "DURATION=", "THREADS=", "COOKIES=", "LOAD_CPUS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", script, args, err, out)
	}
	return string(out)
}

func TestDryRun(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	tests := []struct {
		script string
		args   []string
		want   string
	}{
		{"simple.sh", nil, "bombardier -c 125 -n 1000000 http://localhost:5000/api/values/5"},
		{"mvc.sh", nil, "bombardier -c 125 -n 5000000 http://localhost:5000/api/values/5"},
		{"templates.sh", nil, "bombardier -c 125 -n 1000000 http://localhost:5000/"},
		{"sessions.sh", nil, "bombardier -c 125 -n 5000000 http://localhost:5000/setget"},
		{"simple.sh", []string{"--wrk"}, "wrk -t 1 -c 125 -d 10s --latency http://localhost:5000/api/values/5"},
		{"templates.sh", []string{"--wrk", "-t", "2", "-c", "64", "-d", "30s"}, "wrk -t 2 -c 64 -d 30s --latency http://localhost:5000/"},
		{"sessions.sh", []string{"--wrk", "--cookies", "-t", "2", "-c", "10"}, "sessions-cookie.lua http://localhost:5000/setget -- 5"},
		{"sessions.sh", []string{"--cookies"}, `-H Cookie:\ \<name\>=\<value\> http://localhost:5000/setget`},
		{"simple.sh", []string{"--url", "http://127.0.0.1:5001/", "-n", "10"}, "-c 125 -n 10 http://127.0.0.1:5001/api/values/5"},
	}
	for _, tt := range tests {
		out := dryRun(t, tt.script, tt.args...)
		if !strings.Contains(out, tt.want) {
			t.Errorf("%s %v printed\n%s\nwant a line containing %q", tt.script, tt.args, out, tt.want)
		}
		if !strings.Contains(out, "+ taskset -c 1 ") {
			t.Errorf("%s %v: the load generator is not pinned:\n%s", tt.script, tt.args, out)
		}
	}
}

func TestRejectsUnknownOptions(t *testing.T) {
	for _, args := range [][]string{{"--bogus"}, {"--cookies"}} {
		cmd := exec.Command("bash", append([]string{"simple.sh", "--dry-run"}, args...)...)
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Errorf("simple.sh %v succeeded:\n%s", args, out)
		}
	}
}

// luaHarness stands in for wrk: one thread with three connections whose
// first requests leave before any response, then six more requests.
const luaHarness = `
wrk = { headers = { Host = "h" } }
function wrk.format(method, path, headers)
  return "Cookie=" .. tostring((headers or {}).Cookie)
end
dofile(arg[1])
setup({ get = function(self, k) return _G[k] end })
init({ "3" })
for i = 1, 3 do assert(request() == "Cookie=nil") end
for i = 1, 3 do response(200, { ["Set-Cookie"] = "sid=s" .. i .. "; Path=/; HttpOnly" }, "value") end
local want = { "sid=s1", "sid=s2", "sid=s3", "sid=s1", "sid=s2", "sid=s3" }
for i = 1, 6 do
  local got = request()
  assert(got == "Cookie=" .. want[i], "request " .. i .. ": " .. got)
end
response(200, { ["Set-Cookie"] = "sid=extra" }, "value")
assert(obtained == 3, "kept more sessions than connections")
done()
`

func TestSessionsCookieLua(t *testing.T) {
	luajit := testtool.Require(t, "luajit")
	harness := filepath.Join(t.TempDir(), "harness.lua")
	if err := os.WriteFile(harness, []byte(luaHarness), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("sessions-cookie.lua")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(luajit, harness, script).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "3 sessions kept by the clients") {
		t.Errorf("done() printed %q", out)
	}
}

// perfSamples is perf script -F ip,sym,dso output of six samples, one for
// each case share.awk tells apart.
const perfSamples = `	ffffffff8206d0e6 tcp_sendmsg_locked ([kernel.kallsyms])
	ffffffff81000130 entry_SYSCALL_64_after_hwframe ([kernel.kallsyms])
	b34e internal/runtime/syscall/linux.Syscall6 (/bin/app)
	2658b6 net/http.(*response).finishRequest (/bin/app)

	ffffffff82260674 irqentry_exit_to_user_mode ([kernel.kallsyms])
	ffffffff81000e06 asm_sysvec_apic_timer_interrupt ([kernel.kallsyms])
	224aea net/textproto.canonicalMIMEHeaderKey (/bin/app)
	266434 net/http.(*conn).serve (/bin/app)

	a80540 github.com/vireo-go/vireo/core.(*state).reset (/bin/app)
	266434 net/http.(*conn).serve (/bin/app)

	1234 runtime.mallocgc (/bin/app)
	5678 main.handler (/bin/app)

	9abc runtime.findRunnable (/bin/app)
	9abd runtime.schedule (/bin/app)

	ffffffff8206d0e6 native_safe_halt ([kernel.kallsyms])
`

// TestShareClassifier feeds share.awk a sample of each kind: a system call
// made by net/http (kernel), a timer interrupt on net/http's code
// (net/http), Vireo under net/http and the runtime under the app's handler
// (app), the scheduler (runtime), and kernel frames only (kernel).
func TestShareClassifier(t *testing.T) {
	awk := testtool.Require(t, "awk")
	cmd := exec.Command(awk, "-f", "share.awk")
	cmd.Stdin = strings.NewReader(perfSamples)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := map[string]string{"kernel": "2", "app": "2", "net/http": "1", "runtime": "1"}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 3 {
			t.Fatalf("line %q", line)
		}
		got[f[0]] = f[1]
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s samples, want %s\n%s", k, got[k], v, out)
		}
	}
}
