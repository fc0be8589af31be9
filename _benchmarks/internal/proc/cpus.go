// CPU sets for Pinning: the server and bombardier run on disjoint CPU sets
// (taskset -c), so the load generator never steals the server's cycles and
// the figures measure the server on the CPUs it was given.
package proc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
)

// ParseCPUList parses a CPU list in taskset/cpuset syntax ("0", "0-3",
// "0,2-3") into sorted, distinct CPU numbers.
func ParseCPUList(s string) ([]int, error) {
	seen := map[int]bool{}
	for _, part := range strings.Split(strings.TrimSpace(s), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("proc: CPU list %q has an empty element", s)
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, fmt.Errorf("proc: CPU list %q: bad CPU %q", s, lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("proc: CPU list %q: bad range %q", s, part)
			}
		}
		for i := a; i <= b; i++ {
			seen[i] = true
		}
	}
	cpus := make([]int, 0, len(seen))
	for c := range seen {
		cpus = append(cpus, c)
	}
	sort.Ints(cpus)
	return cpus, nil
}

// FormatCPUList is the inverse of ParseCPUList, with ranges collapsed.
func FormatCPUList(cpus []int) string {
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(cpus[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// allowedCPUs returns the CPUs this process may run on (its affinity mask),
// or 0..n-1 when /proc does not say.
func allowedCPUs(n int) []int {
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
				if cpus, err := ParseCPUList(v); err == nil && len(cpus) > 0 {
					return cpus
				}
			}
		}
	}
	cpus := make([]int, n)
	for i := range cpus {
		cpus[i] = i
	}
	return cpus
}

// DefaultCPUSplit gives the server the first half of the allowed CPUs and
// bombardier the rest (on 2 cores: server 0, load 1). With a single CPU both
// are empty: nothing can be separated.
func DefaultCPUSplit(n int) (server, load string) {
	cpus := allowedCPUs(n)
	if len(cpus) < 2 {
		return "", ""
	}
	half := len(cpus) / 2
	return FormatCPUList(cpus[:half]), FormatCPUList(cpus[half:])
}

// CheckCPUSplit parses both lists and checks that each is non-empty, that
// they are disjoint and that every CPU is one this process may use.
func CheckCPUSplit(server, load string, n int) ([]int, []int, error) {
	s, err := ParseCPUList(server)
	if err != nil {
		return nil, nil, err
	}
	l, err := ParseCPUList(load)
	if err != nil {
		return nil, nil, err
	}
	allowed := map[int]bool{}
	for _, c := range allowedCPUs(n) {
		allowed[c] = true
	}
	inServer := map[int]bool{}
	for _, c := range s {
		if !allowed[c] {
			return nil, nil, fmt.Errorf("proc: server CPU %d is not available (allowed: %s)", c, FormatCPUList(allowedCPUs(n)))
		}
		inServer[c] = true
	}
	for _, c := range l {
		if !allowed[c] {
			return nil, nil, fmt.Errorf("proc: load CPU %d is not available (allowed: %s)", c, FormatCPUList(allowedCPUs(n)))
		}
		if inServer[c] {
			return nil, nil, fmt.Errorf("proc: CPU %d is in both the server (%s) and the load (%s) set", c, server, load)
		}
	}
	return s, l, nil
}

// Pinning holds the taskset prefixes of the server and the load generator.
type Pinning struct {
	Server, Load []string // command prefixes, empty when not pinned
	Note         string   // why not, when not
}

// NewPinning returns the taskset prefixes for the two CPU sets, or empty
// prefixes and a note when Pinning is impossible.
func NewPinning(server, load string) Pinning {
	if server == "" || load == "" {
		return Pinning{Note: "a single CPU is available: server and bombardier share it"}
	}
	ts, err := exec.LookPath("taskset")
	if err != nil {
		return Pinning{Note: "taskset not found (install util-linux)"}
	}
	return Pinning{Server: []string{ts, "-c", server}, Load: []string{ts, "-c", load}}
}

// Pinned reports whether servers and load run on separate CPUs.
func (p Pinning) Pinned() bool { return len(p.Server) > 0 }

// PinSelf moves every thread of the runner itself onto the load CPUs, so its
// own work (sampling /proc, reading bombardier's output) never takes cycles
// from the server. Threads created later inherit the mask.
func (p Pinning) PinSelf(ctx context.Context, load string) error {
	if !p.Pinned() {
		return nil
	}
	out, err := exec.CommandContext(ctx, p.Load[0], "-a", "-p", "-c", load, strconv.Itoa(os.Getpid())).CombinedOutput()
	if err != nil {
		return fmt.Errorf("proc: pinning the runner to CPUs %s: %v: %s", load, err, out)
	}
	return nil
}
