// Package testtool finds the external programs that tests run for real
// (redis-server, nginx, prometheus, postgres, h2load, chromium, ...), and
// installs them from Debian's packages when the test runs as root on a
// machine with apt-get.
//
// The rule it enforces is the repository's: a test that cannot have its
// program skips with a line that says which program and how to get it,
// except under CI (CI=true), where a missing program fails the test, so a
// green CI run never hides an unchecked step. The one exception is a
// runtime the machine is declared not to have: VIREO_NOT_HERE lists such
// programs (comma-separated, e.g. "dotnet"), and tests needing them skip
// with a "not run here:" line even under CI, which test.sh collects into
// its end-of-run summary.
//
// Installs are serialised across test processes by an exclusive lock on a
// file in the temporary directory, so parallel packages never run two
// apt-get at once.
package testtool

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// extraDirs are searched after PATH: Debian puts some daemons outside it.
var extraDirs = []string{"/usr/sbin", "/sbin", "/usr/lib/postgresql/*/bin"}

// aptUpdated is set once a process has run apt-get update.
var aptUpdated sync.Once

// failed holds, by program, the error of an install that failed in this
// process, so that the next test needing the program fails or skips at
// once instead of running apt-get again.
var failed sync.Map

// CI reports whether the tests run under CI (CI=true), where a missing
// program is a failure rather than a skip.
func CI() bool { return os.Getenv("CI") == "true" }

// NotHere reports whether program is declared absent from this machine by
// VIREO_NOT_HERE.
func NotHere(program string) bool {
	for _, p := range strings.Split(os.Getenv("VIREO_NOT_HERE"), ",") {
		if strings.TrimSpace(p) == program {
			return true
		}
	}
	return false
}

// Look returns the path of program, searching PATH and the directories
// where Debian installs daemons, or "" when it is not installed.
func Look(program string) string {
	if p, err := exec.LookPath(program); err == nil {
		return p
	}
	for _, d := range extraDirs {
		matches, _ := filepath.Glob(filepath.Join(d, program))
		for i := len(matches) - 1; i >= 0; i-- { // the newest version sorts last
			if st, err := os.Stat(matches[i]); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
				return matches[i]
			}
		}
	}
	return ""
}

// Install installs the Debian packages when program is missing and the
// process may run apt-get (root). It returns the program's path, or an
// error saying why it is not available.
func Install(program string, packages ...string) (string, error) {
	if p := Look(program); p != "" {
		return p, nil
	}
	if err, ok := failed.Load(program); ok {
		return "", err.(error)
	}
	p, err := install(program, packages...)
	if err != nil {
		failed.Store(program, err)
	}
	return p, err
}

// install is Install without the memo of failures.
func install(program string, packages ...string) (string, error) {
	if len(packages) == 0 {
		packages = []string{program}
	}
	if _, err := exec.LookPath("apt-get"); err != nil || os.Geteuid() != 0 {
		return "", fmt.Errorf("%s not found (install the Debian package %s)", program, strings.Join(packages, " "))
	}
	unlock, err := lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	if p := Look(program); p != "" { // another process installed it meanwhile
		return p, nil
	}
	var out []byte
	aptUpdated.Do(func() {
		out, err = exec.Command("apt-get", "update", "-qq").CombinedOutput()
	})
	if err != nil {
		return "", fmt.Errorf("%s not found; apt-get update failed: %v: %s", program, err, lastLine(out))
	}
	cmd := exec.Command("apt-get", append([]string{"install", "-y", "-qq", "--no-install-recommends"}, packages...)...)
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s not found; apt-get install %s failed: %v: %s", program, strings.Join(packages, " "), err, lastLine(out))
	}
	if p := Look(program); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("%s still not found after installing %s", program, strings.Join(packages, " "))
}

// Require returns the path of program, installing packages (default: the
// program's name) when it is missing. When it cannot be had, the test
// fails under CI and skips, saying why, elsewhere; a program listed in
// VIREO_NOT_HERE skips with a "not run here:" line in both cases.
func Require(t testing.TB, program string, packages ...string) string {
	t.Helper()
	if NotHere(program) {
		t.Skipf("not run here: %s: no %s on this machine (VIREO_NOT_HERE)", t.Name(), program)
	}
	p, err := Install(program, packages...)
	if err == nil {
		return p
	}
	if CI() {
		t.Fatalf("CI=true and a program this test needs is missing: %v", err)
	}
	t.Skipf("skipping: %v", err)
	return ""
}

// Chromium returns the browser for a headless-browser test: $CHROME_PATH,
// else chromium, chromium-browser or google-chrome on PATH, else Debian's
// chromium package as Require installs it.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CHROME_PATH"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return Require(t, "chromium")
}

// Want is Require for a test that also checks what its code does without
// the program (a runner that reports a stack as skipped): it returns the
// program's path, or the reason it cannot be had for the test to go on
// with. Under CI a missing program fails the test, unless it is declared
// absent by VIREO_NOT_HERE; then Want logs a "not run here:" line, which
// test.sh lists in its summary, since part of the test was not run.
func Want(t testing.TB, program string, packages ...string) (string, error) {
	t.Helper()
	if NotHere(program) {
		t.Logf("not run here: %s (what needs %s): no %s on this machine (VIREO_NOT_HERE)", t.Name(), program, program)
		return "", fmt.Errorf("%s not found (declared absent by VIREO_NOT_HERE)", program)
	}
	p, err := Install(program, packages...)
	if err != nil && CI() {
		t.Fatalf("CI=true and a program this test needs is missing: %v", err)
	}
	return p, err
}

func lock() (func(), error) {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "vireo-testtool-apt.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
