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
