// Dumps on request: `callgrind_control -d <pid>` asks a running callgrind
// to write its counters (and zero them), and Dump waits until that file is
// complete. callgrind_control's exit status does not say whether the dump
// happened (it exits 0 when it found no such process), so the complete file
// is the only proof; the wait ends early when the process exits.

package callgrind

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
)

// DumpPath is the n-th dump file of process pid; callgrind appends ".<n>"
// to the --callgrind-out-file name (in which %p became the pid) for each
// dump requested while the program runs.
func DumpPath(base string, pid, n int) string {
	return fmt.Sprintf("%s.%d.%d", base, pid, n)
}

// Dump runs control (callgrind_control) -d pid and returns the parsed dump
// at path once it is complete, within timeout. exited reports whether the
// process has ended, which ends the wait with an error; setup, when not
// nil, prepares the command (a process group of its own, say).
func Dump(ctx context.Context, control string, pid int, path string, timeout time.Duration,
	exited func() (bool, error), setup func(*exec.Cmd)) (*File, error) {
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(dctx, control, "-d", strconv.Itoa(pid))
	if setup != nil {
		setup(cmd)
	}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("callgrind_control -d %d: %w\n%s", pid, err, proc.Tail(string(out), 2000))
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		f, perr := ParseFile(path)
		if perr == nil && f.Complete() {
			return f, nil
		}
		if done, werr := exited(); done {
			return nil, fmt.Errorf("process %d exited (%v)", pid, werr)
		}
		select {
		case <-dctx.Done():
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("no complete %s within %v (%v); callgrind_control said:\n%s", filepath.Base(path), timeout, perr, proc.Tail(string(out), 2000))
		case <-tick.C:
		}
	}
}
