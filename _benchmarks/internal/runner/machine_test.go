package runner

import (
	"testing"

	"github.com/vireo-go/vireo/_benchmarks/internal/proc"
)

func TestParseCPUInfo(t *testing.T) {
	tests := []struct {
		name, cpuinfo, model string
		vm                   bool
	}{
		{"vm", "processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu vme hypervisor lahf_lm\n\nprocessor\t: 1\nmodel name\t: AMD EPYC\n", "AMD EPYC", true},
		{"bare metal", "model name\t: Intel(R) Core(TM) i7\nflags\t\t: fpu vme sse2\n", "Intel(R) Core(TM) i7", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		model, vm := parseCPUInfo(tt.cpuinfo)
		if model != tt.model || vm != tt.vm {
			t.Errorf("%s: parseCPUInfo = %q, %v; want %q, %v", tt.name, model, vm, tt.model, tt.vm)
		}
	}
}

func TestGOMAXPROCSAndConnections(t *testing.T) {
	tests := []struct {
		name        string
		cfg         Config
		limited     bool
		plan        []Planned
		gomaxprocs  int
		connections int
	}{
		{"flag", Config{GOMAXPROCS: 3, ServerCPUs: "0", Profile: ProfileDefault}, false,
			[]Planned{{Connections: 125}, {Connections: 125}}, 3, 125},
		{"pinned default", Config{ServerCPUs: "0-1", Profile: ProfileDefault}, false,
			[]Planned{{Connections: 125}}, 2, 125},
		{"constrained to 40% of a CPU", Config{ServerCPUs: "0-3", Profile: ProfileConstrained, CPUQuotaPercent: 40}, true,
			[]Planned{{Connections: 125}, {Connections: 64}}, 2, 0},
		{"constrained, one CPU", Config{ServerCPUs: "0", Profile: ProfileConstrained, CPUQuotaPercent: 40}, true,
			nil, 1, 0},
		{"-c given", Config{ServerCPUs: "0", Connections: 16, Profile: ProfileDefault}, false,
			[]Planned{{Connections: 16}}, 1, 16},
	}
	for _, tt := range tests {
		if got := gomaxprocs(&tt.cfg, true, tt.limited); got != tt.gomaxprocs {
			t.Errorf("%s: gomaxprocs = %d, want %d", tt.name, got, tt.gomaxprocs)
		}
		s := &Session{Cfg: &tt.cfg, Plan: tt.plan, Pin: proc.Pinning{Server: []string{"taskset", "-c", tt.cfg.ServerCPUs}, Load: []string{"taskset"}}}
		if got := s.Settings().Connections; got != tt.connections {
			t.Errorf("%s: settings' connections = %d, want %d", tt.name, got, tt.connections)
		}
	}
}
