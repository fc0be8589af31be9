// Server resource figures read from /proc: CPU seconds and resident memory of
// a server's whole process group (a node:cluster primary and its workers).
//
// CPU time is utime+stime of every live member plus cutime+cstime (children
// already reaped) of each, so work done by short-lived children counts too.
// Peak RSS is VmHWM (the kernel's high-water mark) for a single process; for a
// group it is the largest sum of VmRSS seen by a sampler polling during the
// load, since the kernel keeps no high-water mark across processes.
package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SampleInterval is how often the memory of a server under load is sampled;
// it only matters for process groups, as VmHWM covers a single process.
const SampleInterval = 200 * time.Millisecond

// clockTicks is USER_HZ, the unit of the times in /proc/<pid>/stat; it is 100
// on every Linux architecture Go supports.
const clockTicks = 100

// procStat holds the fields of /proc/<pid>/stat the runner uses.
type procStat struct {
	pid, pgid                    int
	utime, stime, cutime, cstime int64
}

// readStat parses /proc/<pid>/stat. The command name (field 2) may contain
// spaces and parentheses, so parsing starts after its last ')'.
func readStat(pid int) (procStat, bool) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, false
	}
	return parseStat(pid, string(data))
}

func parseStat(pid int, s string) (procStat, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, false
	}
	// After ")": state(3) ppid(4) pgrp(5) ... utime(14) stime(15) cutime(16) cstime(17).
	f := strings.Fields(s[i+1:])
	if len(f) < 15 {
		return procStat{}, false
	}
	num := func(k int) int64 { // k is the field number in proc(5)
		v, _ := strconv.ParseInt(f[k-3], 10, 64)
		return v
	}
	return procStat{pid: pid, pgid: int(num(5)), utime: num(14), stime: num(15), cutime: num(16), cstime: num(17)}, true
}

// GroupMembers returns the pids of the live processes in process group pgid.
func GroupMembers(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok && st.pgid == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// GroupCPUSeconds is the CPU time of the process group pgid so far.
func GroupCPUSeconds(pgid int) float64 {
	var ticks int64
	for _, pid := range GroupMembers(pgid) {
		if st, ok := readStat(pid); ok {
			ticks += st.utime + st.stime + st.cutime + st.cstime
		}
	}
	return float64(ticks) / clockTicks
}

// StatusKB returns a "kB" field (VmRSS, VmHWM) of /proc/<pid>/status in bytes.
func StatusKB(pid int, field string) int64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// MemSampler tracks the peak resident memory of a process group.
type MemSampler struct {
	pgid int
	mu   sync.Mutex
	peak int64
	stop chan struct{}
	done chan struct{}
}

// NewMemSampler returns a sampler of process group pgid with one sample taken.
func NewMemSampler(pgid int) *MemSampler {
	m := &MemSampler{pgid: pgid}
	m.sample()
	return m
}

// sample adds one observation: the group's summed VmRSS, and the leader's
// VmHWM, which also covers peaks between two samples.
func (m *MemSampler) sample() {
	var sum int64
	members := GroupMembers(m.pgid)
	for _, pid := range members {
		sum += StatusKB(pid, "VmRSS")
	}
	if hwm := StatusKB(m.pgid, "VmHWM"); len(members) <= 1 && hwm > sum {
		sum = hwm
	}
	m.mu.Lock()
	if sum > m.peak {
		m.peak = sum
	}
	m.mu.Unlock()
}

// Start polls every interval until Stop.
func (m *MemSampler) Start(interval time.Duration) {
	m.stop, m.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(m.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-m.stop:
				return
			case <-t.C:
				m.sample()
			}
		}
	}()
}

// Stop ends the polling Start began and takes one last sample.
func (m *MemSampler) Stop() {
	if m.stop != nil {
		close(m.stop)
		<-m.done
		m.stop = nil
	}
	m.sample()
}

// Peak returns the largest resident memory observed so far.
func (m *MemSampler) Peak() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peak
}

// GroupRSS is the resident memory of the live processes of group pgid.
func GroupRSS(pgid int) int64 {
	var sum int64
	for _, pid := range GroupMembers(pgid) {
		sum += StatusKB(pid, "VmRSS")
	}
	return sum
}
