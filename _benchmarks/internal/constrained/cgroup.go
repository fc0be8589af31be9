// Package constrained applies the constrained profile of a throughput run: the server gets a share of one CPU and a memory
// maximum, like docker's `cpus: 0.40, mem_limit: 256m` in the original
// comparisons. The first method that works on this machine is used:
//
//  1. systemd-run --scope -p CPUQuota=40% -p MemoryMax=256M (needs systemd as
//     init; systemd-run execs the command, so the pid stays the server's);
//  2. a cgroup v2 directory written directly (cpu.max, memory.max);
//  3. cgroup v1 cpu and memory directories written directly
//     (cpu.cfs_quota_us, memory.limit_in_bytes).
//
// For 2 and 3 the server is started through `sh -c` which writes its own pid
// into cgroup.procs and then execs the server, so the server and everything it
// forks are inside the limits from their first instruction. When none works
// the run goes on unconstrained and the report says so on every page.
package constrained

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/report"
)

// cgroupFS is where cgroup hierarchies are mounted.
const cgroupFS = "/sys/fs/cgroup"

// Limiter applies the constrained profile to servers.
type Limiter struct {
	method   string // "systemd-run", "cgroup2", "cgroup1" or "none"
	quota    int    // percent of one CPU
	memory   int64  // bytes
	note     string
	v2Parent string   // cgroup2: directory the per-server groups are created in
	v1Parent []string // cgroup1: the cpu and the memory directories
	seq      int
}

// New finds how this machine can limit a server.
func New(quota int, memory int64) *Limiter {
	l := &Limiter{quota: quota, memory: memory}
	var reasons []string
	if ok, why := systemdUsable(); ok {
		l.method = "systemd-run"
		return l
	} else {
		reasons = append(reasons, why)
	}
	if dir, why := cgroup2Parent(); dir != "" {
		l.method, l.v2Parent = "cgroup2", dir
		return l
	} else {
		reasons = append(reasons, why)
	}
	if dirs, why := cgroup1Parents(); dirs != nil {
		l.method, l.v1Parent = "cgroup1", dirs
		return l
	} else {
		reasons = append(reasons, why)
	}
	l.method = "none"
	l.note = "cannot limit CPU and memory here: " + strings.Join(reasons, "; ")
	return l
}

// Method is how l limits a server: "systemd-run", "cgroup2", "cgroup1",
// or "none" when this machine offers no way (Note says why).
func (l *Limiter) Method() string { return l.method }

// Note says why the profile cannot be applied, when Method is "none".
func (l *Limiter) Note() string { return l.note }

// Limit describes l for the report.
func (l *Limiter) Limit() *report.Limit {
	return &report.Limit{CPUQuotaPercent: l.quota, MemoryMaxBytes: l.memory, Method: l.method, Applied: l.method != "none", Note: l.note}
}

func systemdUsable() (bool, string) {
	if _, err := exec.LookPath("systemd-run"); err != nil {
		return false, "systemd-run not found"
	}
	if st, err := os.Stat("/run/systemd/system"); err != nil || !st.IsDir() {
		return false, "systemd is not the init system (no /run/systemd/system)"
	}
	// Creating a scope needs privileges (root or polkit): try one.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "systemd-run", "--scope", "--quiet", "--collect",
		"-p", "CPUQuota=40%", "-p", "MemoryMax=268435456", "--", "true").CombinedOutput()
	if err != nil {
		return false, "systemd-run cannot create a scope: " + strings.TrimSpace(string(out))
	}
	return true, ""
}

// ScopeGroup returns the cgroup systemd-run placed pid in, so that its
// memory peak can be read; nothing is removed afterwards (--collect does it).
func ScopeGroup(pid int) *Group {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		return nil
	}
	for _, line := range strings.Split(string(data), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[1] == "" && parts[0] == "0":
			if _, err := os.Stat(filepath.Join(cgroupFS, "cgroup.controllers")); err == nil {
				return &Group{peakFile: filepath.Join(cgroupFS, parts[2], "memory.peak")}
			}
		case hasWords(strings.ReplaceAll(parts[1], ",", " "), "memory"):
			if mount := v1Mount("memory"); mount != "" {
				return &Group{peakFile: filepath.Join(mount, parts[2], "memory.max_usage_in_bytes")}
			}
		}
	}
	return nil
}

// ownCgroup returns this process's cgroup path in the hierarchy whose
// /proc/self/cgroup line matches (v2: controllers == "").
func ownCgroup(match func(controllers string) bool) string {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) == 3 && match(parts[1]) {
			return parts[2]
		}
	}
	return ""
}

// cgroup2Parent returns a cgroup v2 directory in which groups with the cpu and
// memory controllers can be created: this process's own cgroup or, if its
// subtree cannot enable them (the no-internal-processes rule), the root.
func cgroup2Parent() (string, string) {
	controllers, err := os.ReadFile(filepath.Join(cgroupFS, "cgroup.controllers"))
	if err != nil {
		return "", "no cgroup v2 hierarchy at " + cgroupFS
	}
	if !hasWords(string(controllers), "cpu", "memory") {
		return "", "cgroup v2 lacks the cpu or memory controller"
	}
	own := ownCgroup(func(c string) bool { return c == "" })
	for _, dir := range []string{filepath.Join(cgroupFS, own), cgroupFS} {
		sub := filepath.Join(dir, "cgroup.subtree_control")
		data, err := os.ReadFile(sub)
		if err != nil {
			continue
		}
		if hasWords(string(data), "cpu", "memory") || os.WriteFile(sub, []byte("+cpu +memory"), 0) == nil {
			if probe(dir) {
				return dir, ""
			}
		}
	}
	return "", "cannot create a cgroup v2 group with cpu and memory (not root, or a read-only cgroupfs)"
}

// cgroup1Parents returns this process's own directories in the v1 cpu and
// memory hierarchies, if groups can be created there.
func cgroup1Parents() ([]string, string) {
	var dirs []string
	for _, ctl := range []string{"cpu", "memory"} {
		mount := v1Mount(ctl)
		if mount == "" {
			return nil, "no cgroup v1 " + ctl + " hierarchy"
		}
		own := ownCgroup(func(c string) bool { return hasWords(strings.ReplaceAll(c, ",", " "), ctl) })
		dir := filepath.Join(mount, own)
		if !probe(dir) {
			return nil, "cannot create a group under " + dir + " (not root, or a read-only cgroupfs)"
		}
		dirs = append(dirs, dir)
	}
	return dirs, ""
}

// v1Mount returns the mount point of the cgroup v1 hierarchy holding ctl.
func v1Mount(ctl string) string {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(data)) {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(qf) < 3 || qf[0] != "cgroup" {
			continue
		}
		if hasWords(strings.ReplaceAll(qf[2], ",", " "), ctl) {
			return pf[4]
		}
	}
	return ""
}

// probe reports whether a group can be created and removed in dir.
func probe(dir string) bool {
	p := filepath.Join(dir, fmt.Sprintf("vireo-bench-probe-%d", os.Getpid()))
	if err := os.Mkdir(p, 0o755); err != nil {
		return false
	}
	return os.Remove(p) == nil
}

func hasWords(s string, words ...string) bool {
	have := map[string]bool{}
	for _, w := range strings.Fields(s) {
		have[w] = true
	}
	for _, w := range words {
		if !have[w] {
			return false
		}
	}
	return true
}

// Group is the group one server runs in.
type Group struct {
	dirs     []string // group directories to remove afterwards
	procs    []string // cgroup.procs files the server joins
	peakFile string   // memory.peak or memory.max_usage_in_bytes
}

// Wrap returns argv run inside a fresh group limited by l, and that group.
// For "none" it returns argv unchanged.
func (l *Limiter) Wrap(name string, argv []string) ([]string, *Group, error) {
	switch l.method {
	case "systemd-run":
		pre := []string{"systemd-run", "--scope", "--quiet", "--collect",
			"-p", fmt.Sprintf("CPUQuota=%d%%", l.quota),
			"-p", fmt.Sprintf("MemoryMax=%d", l.memory), "--"}
		return append(pre, argv...), nil, nil
	case "cgroup2", "cgroup1":
	default:
		return argv, nil, nil
	}
	l.seq++
	group := fmt.Sprintf("vireo-bench-%d-%d-%s", os.Getpid(), l.seq, name)
	cg := &Group{}
	period := 100000
	quota := period * l.quota / 100
	var writes [][2]string // file, value
	if l.method == "cgroup2" {
		dir := filepath.Join(l.v2Parent, group)
		cg.dirs = []string{dir}
		cg.procs = []string{filepath.Join(dir, "cgroup.procs")}
		cg.peakFile = filepath.Join(dir, "memory.peak")
		writes = [][2]string{
			{filepath.Join(dir, "cpu.max"), fmt.Sprintf("%d %d", quota, period)},
			{filepath.Join(dir, "memory.max"), strconv.FormatInt(l.memory, 10)},
			{filepath.Join(dir, "memory.swap.max"), "0"},
		}
	} else {
		cpu, mem := filepath.Join(l.v1Parent[0], group), filepath.Join(l.v1Parent[1], group)
		cg.dirs = []string{cpu, mem}
		cg.procs = []string{filepath.Join(cpu, "cgroup.procs"), filepath.Join(mem, "cgroup.procs")}
		cg.peakFile = filepath.Join(mem, "memory.max_usage_in_bytes")
		writes = [][2]string{
			{filepath.Join(cpu, "cpu.cfs_period_us"), strconv.Itoa(period)},
			{filepath.Join(cpu, "cpu.cfs_quota_us"), strconv.Itoa(quota)},
			{filepath.Join(mem, "memory.limit_in_bytes"), strconv.FormatInt(l.memory, 10)},
			{filepath.Join(mem, "memory.memsw.limit_in_bytes"), strconv.FormatInt(l.memory, 10)},
		}
	}
	for _, d := range cg.dirs {
		if err := os.Mkdir(d, 0o755); err != nil {
			cg.Remove()
			return nil, nil, fmt.Errorf("constrained: creating cgroup: %w", err)
		}
	}
	for _, w := range writes {
		if err := os.WriteFile(w[0], []byte(w[1]), 0); err != nil {
			if strings.Contains(w[0], "swap") || strings.Contains(w[0], "memsw") {
				continue // swap accounting is optional; without swap it does not matter
			}
			cg.Remove()
			return nil, nil, fmt.Errorf("constrained: writing %s: %w", w[0], err)
		}
	}
	// sh joins the groups, then becomes the server: same pid, inside the
	// limits before the server's first instruction.
	script := `for f in $VIREO_CGROUP_PROCS; do echo $$ > "$f" || exit 97; done; exec "$@"`
	wrapped := append([]string{"/bin/sh", "-c", script, "sh"}, argv...)
	return wrapped, cg, nil
}

// Env returns the environment the wrapper script needs.
func (cg *Group) Env() []string {
	if cg == nil {
		return nil
	}
	return []string{"VIREO_CGROUP_PROCS=" + strings.Join(cg.procs, " ")}
}

// MemoryPeak returns the group's peak memory usage in bytes, or 0.
func (cg *Group) MemoryPeak() int64 {
	if cg == nil {
		return 0
	}
	data, err := os.ReadFile(cg.peakFile)
	if err != nil {
		return 0
	}
	v, _ := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return v
}

// Remove deletes the group directories once the killed processes have left
// them, retrying briefly since SIGKILL is asynchronous.
func (cg *Group) Remove() {
	for _, d := range cg.dirs {
		for i := 0; i < 50; i++ {
			err := os.Remove(d)
			if err == nil || errors.Is(err, os.ErrNotExist) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}
