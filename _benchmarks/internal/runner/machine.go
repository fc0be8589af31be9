// The machine and the versions a report records: CPU model, cores, OS and
// kernel from /proc and /etc/os-release; the versions of Go, .NET, Node.js and
// npm from their own commands; Express from the apps' package-lock.json; the
// versions of bombardier and of the Go frameworks from the build information
// embedded in the binaries (go version -m), so they are what actually ran.
package runner

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vireo-go/vireo/_benchmarks/internal/report"
	"github.com/vireo-go/vireo/_benchmarks/internal/stack"
)

// machineInfo describes this machine.
func machineInfo() report.Machine {
	m := report.Machine{Cores: runtime.NumCPU(), Arch: runtime.GOARCH}
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.CPUModel, m.VM = parseCPUInfo(string(data))
	}
	if m.VM {
		m.Hypervisor = hypervisor()
	}
	if data, err := os.ReadFile("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"); err == nil {
		m.Governor = strings.TrimSpace(string(data))
	}
	if data, err := os.ReadFile("/etc/os-release"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				m.OS = strings.Trim(v, `"`)
			}
		}
	}
	if m.OS == "" {
		m.OS = runtime.GOOS
	}
	if data, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(data))
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				m.MemTotalBytes = kb << 10
			}
		}
	}
	return m
}

// parseCPUInfo returns the first CPU's model name from /proc/cpuinfo and
// whether its flags include "hypervisor", which CPUs set when they run
// under a hypervisor.
func parseCPUInfo(cpuinfo string) (model string, vm bool) {
	for _, line := range strings.Split(cpuinfo, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			if model == "" {
				model = strings.TrimSpace(v)
			}
		case "flags":
			if slices.Contains(strings.Fields(v), "hypervisor") {
				vm = true
			}
		}
	}
	return model, vm
}

// hypervisor names the hypervisor of a VM: systemd-detect-virt's answer,
// else the DMI system vendor, else "".
func hypervisor() string {
	if out, err := exec.Command("systemd-detect-virt", "--vm").Output(); err == nil {
		if v := strings.TrimSpace(string(out)); v != "" && v != "none" {
			return v
		}
	}
	if data, err := os.ReadFile("/sys/class/dmi/id/sys_vendor"); err == nil {
		return strings.TrimSpace(string(data))
	}
	return ""
}

// versions collects the runtime versions; Express and bombardier are filled
// in by the caller once the apps and bombardier are built.
func versions(ctx context.Context) report.Versions {
	v := report.Versions{
		Go:     stack.ToolVersion(ctx, "go", "env", "GOVERSION"),
		Dotnet: stack.ToolVersion(ctx, "dotnet", "--version"),
		Node:   stack.ToolVersion(ctx, "node", "--version"),
		Npm:    stack.ToolVersion(ctx, "npm", "--version"),
	}
	if v.Dotnet != "" {
		v.AspNetCore = dotnetRuntime(ctx, "Microsoft.AspNetCore.App")
		v.DotnetRuntime = dotnetRuntime(ctx, "Microsoft.NETCore.App")
	}
	return v
}

// dotnetRuntime returns the newest version of the shared framework name
// (Microsoft.AspNetCore.App, Microsoft.NETCore.App) that `dotnet
// --list-runtimes` lists: the one a net10.0 app rolls forward to.
func dotnetRuntime(ctx context.Context, name string) string {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "dotnet", "--list-runtimes").Output()
	if err != nil {
		return ""
	}
	latest := ""
	for line := range strings.Lines(string(out)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == name {
			latest = f[1] // listed in ascending order
		}
	}
	return latest
}
