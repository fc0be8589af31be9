// Package report holds the schema of results.json, the statistics drawn from
// the raw runs (medians, per-round ratios to the baseline) and the writers of
// RESULTS.md and the per-comparison bar charts.
//
// results.json keeps every raw figure: each bombardier result as decoded, the
// server's CPU seconds and peak RSS per run, the machine, the versions and the
// settings. The summaries are derived from those raw figures by Summarize, so
// a reader can recompute them.
package report

import (
	"time"
)

// SchemaVersion names the layout of results.json; it changes when a field
// changes meaning or is added. Version 2 added the instruction counts
// (Settings.Measure and Instructions, Versions.Valgrind, App.Instructions);
// a version 1 file is a throughput report without them and still reads.
// Version 3 added other load generators than bombardier (Run's "h2load"
// next to "bombardier", Comparison.Generator, Streams, Protocol and TLS,
// Versions.H2load) and App.Unsupported; version 2 files still read.
const SchemaVersion = "vireo-bench/3"

// schemaV1 and schemaV2 are the earlier layouts, which ReadResults still
// accepts.
const (
	schemaV1 = "vireo-bench/1"
	schemaV2 = "vireo-bench/2"
)

// What a report measured (Settings.Measure).
const (
	// MeasureThroughput: bombardier runs, requests per second and latency
	// (the default; version 1 files leave Measure empty).
	MeasureThroughput = "throughput"
	// MeasureInstructions: instructions per request counted by callgrind.
	MeasureInstructions = "instructions"
)

// Results is the content of results.json.
type Results struct {
	Schema      string       `json:"schema"`
	StartedAt   time.Time    `json:"startedAt"`
	FinishedAt  time.Time    `json:"finishedAt"`
	Command     string       `json:"command"`
	Settings    Settings     `json:"settings"`
	Machine     Machine      `json:"machine"`
	Versions    Versions     `json:"versions"`
	Comparisons []Comparison `json:"comparisons"`
	// Failures lists what made the run fail (a build error, a verify
	// mismatch, a crashed server); the process exits non-zero when it is
	// not empty.
	Failures []string `json:"failures,omitempty"`
}

// Measures reports whether res holds measurements of kind m
// (MeasureThroughput or MeasureInstructions).
func (res *Results) Measures(m string) bool {
	if res.Settings.Measure == "" {
		return m == MeasureThroughput
	}
	return res.Settings.Measure == m
}

// Settings are the flags and derived settings the run used.
type Settings struct {
	// Measure is MeasureThroughput or MeasureInstructions; empty in
	// version 1 files, which are throughput reports.
	Measure     string `json:"measure,omitempty"`
	Mode        string `json:"mode"` // "interleaved" or "sequential"
	Quick       bool   `json:"quick"`
	Repeats     int    `json:"repeats"`
	Connections int    `json:"connections"`
	// Requests is the -n of every run when set on the command line; zero
	// means each comparison's own count (see Comparison.Requests) or, when
	// Duration is set, a timed run.
	Requests   int64  `json:"requests,omitempty"`
	Duration   string `json:"duration,omitempty"`
	Warmup     string `json:"warmup"`
	Timeout    string `json:"timeout"`
	ServerCPUs string `json:"serverCPUs"`
	LoadCPUs   string `json:"loadCPUs"`
	Pinned     bool   `json:"pinned"`
	PinNote    string `json:"pinNote,omitempty"`
	// GOMAXPROCS is the value the Go apps ran with: -gomaxprocs when
	// GOMAXPROCSSet, else Go's default for the server CPUs (and, since Go
	// 1.25, the cgroup CPU limit of the constrained profile). Version 2
	// files before it was recorded hold 0 for "Go's default".
	GOMAXPROCS    int      `json:"gomaxprocs"`
	GOMAXPROCSSet bool     `json:"gomaxprocsSet,omitempty"`
	NodeWorkers   int      `json:"nodeWorkers"` // WORKERS for Node apps
	Baseline      string   `json:"baseline"`
	Apps          []string `json:"apps,omitempty"` // app filter, empty for all
	Profile       string   `json:"profile"`        // "default" or "constrained"
	Constraint    *Limit   `json:"constraint,omitempty"`
	BasePort      int      `json:"basePort"`
	CookieMethod  string   `json:"cookieMethod,omitempty"`
	// DotnetProperties are the extra MSBuild properties of every dotnet
	// publish (-dotnet-property), such as PublishReadyToRun=true.
	DotnetProperties []string `json:"dotnetProperties,omitempty"`
	// Instructions describes how the instruction counts were taken, in an
	// instructions report.
	Instructions *InstructionSettings `json:"instructions,omitempty"`
	// Footprint describes how a start-up and footprint report measured.
	Footprint *FootprintSettings `json:"footprint,omitempty"`
}

// InstructionSettings describe an instructions run: each Go app runs under
// Command (valgrind's callgrind tool) pinned to the server CPUs, is verified,
// gets WarmupRequests requests, is dumped (callgrind_control -d, which also
// zeroes callgrind's counters), gets Requests requests over Connections
// connections and is dumped again; the second dump's instructions divided by
// the requests is the figure.
type InstructionSettings struct {
	Command        string `json:"command"` // valgrind and its options, before the app
	Env            string `json:"env"`     // added to the app's environment (GODEBUG=asyncpreemptoff=1)
	Requests       int64  `json:"requests"`
	Connections    int    `json:"connections"`
	WarmupRequests int64  `json:"warmupRequests"`
	// Counted says what the figure includes and what it leaves out.
	Counted string `json:"counted"`
}

// Limit describes the CPU and memory limit of the constrained profile and
// whether the machine could apply it.
type Limit struct {
	CPUQuotaPercent int    `json:"cpuQuotaPercent"`
	MemoryMaxBytes  int64  `json:"memoryMaxBytes"`
	Method          string `json:"method"` // "systemd-run", "cgroup2", "cgroup1" or "none"
	Applied         bool   `json:"applied"`
	Note            string `json:"note,omitempty"`
}

// Machine describes the host the run measured.
type Machine struct {
	CPUModel string `json:"cpuModel"`
	Cores    int    `json:"cores"`
	// VM is set when the CPU flags include "hypervisor" (the machine is a
	// virtual machine); Hypervisor names it where the system says
	// (systemd-detect-virt or /sys/class/dmi/id/sys_vendor).
	VM         bool   `json:"vm"`
	Hypervisor string `json:"hypervisor,omitempty"`
	// Governor is CPU 0's cpufreq scaling governor, "" where not readable
	// (often the case in VMs).
	Governor      string `json:"governor,omitempty"`
	OS            string `json:"os"`
	Kernel        string `json:"kernel"`
	Arch          string `json:"arch"`
	MemTotalBytes int64  `json:"memTotalBytes"`
}

// Versions are the versions of the runtimes and tools; an empty string
// means "not found".
type Versions struct {
	Go         string `json:"go"`
	Dotnet     string `json:"dotnet"`     // the SDK (dotnet --version)
	AspNetCore string `json:"aspnetcore"` // the Microsoft.AspNetCore.App runtime
	// DotnetRuntime is the Microsoft.NETCore.App runtime the apps run on.
	DotnetRuntime string `json:"dotnetRuntime,omitempty"`
	Node          string `json:"node"`
	Npm           string `json:"npm"`
	Express       string `json:"express"`
	Bombardier    string `json:"bombardier"`
	H2load        string `json:"h2load,omitempty"`   // reports with h2load runs
	Valgrind      string `json:"valgrind,omitempty"` // instructions reports
}

// Comparison is one comparison (simple, mvc, templates, sessions) and the
// apps measured in it. The sessions comparison appears twice, with Variant
// "cookie-less" and "cookie-keeping".
type Comparison struct {
	Name        string `json:"name"`
	Variant     string `json:"variant,omitempty"`
	Method      string `json:"method"`
	Path        string `json:"path"`
	Connections int    `json:"connections"`
	Requests    int64  `json:"requests,omitempty"`
	Duration    string `json:"duration,omitempty"`
	Baseline    string `json:"baseline"`
	// CookieMethod says how clients keep their session cookie in the
	// cookie-keeping variant.
	CookieMethod string `json:"cookieMethod,omitempty"`
	// Generator is the load generator of the runs ("h2load"); empty for
	// bombardier, the generator of every comparison before schema 3.
	Generator string `json:"generator,omitempty"`
	// Streams is h2load's -m: concurrent streams per HTTP/2 connection.
	Streams int `json:"streams,omitempty"`
	// Protocol is the protocol every run used, checked by ALPN ("h2",
	// "http/1.1"); TLS is set when the apps served over TLS.
	Protocol string `json:"protocol,omitempty"`
	TLS      bool   `json:"tls,omitempty"`
	Apps     []App  `json:"apps"`
}

// Key is the comparison's name with its variant, used for file names.
func (c *Comparison) Key() string {
	if c.Variant == "" {
		return c.Name
	}
	return c.Name + "-" + c.Variant
}

// App is one app of a comparison and everything measured about it.
type App struct {
	Name  string `json:"name"`
	Stack string `json:"stack"` // "go", "node" or "dotnet"
	// Skipped is the reason the app was not measured because something it
	// needs is missing (a runtime, the app itself); it has no numbers.
	Skipped string `json:"skipped,omitempty"`
	// Unsupported is why the app's framework cannot serve what the
	// comparison measures (Express and HTTP/2); it is not run and has no
	// numbers, and Skipped repeats the reason.
	Unsupported string `json:"unsupported,omitempty"`
	// Failed is the reason the app was excluded because it misbehaved (a
	// build error, a verify mismatch, a crash); the run fails.
	Failed       string            `json:"failed,omitempty"`
	LinesOfCode  int               `json:"linesOfCode,omitempty"`
	SourceFiles  []string          `json:"sourceFiles,omitempty"`
	Dependencies map[string]string `json:"dependencies,omitempty"`
	BuildSeconds float64           `json:"buildSeconds,omitempty"`
	// Runtime holds the settings the app stated at start in its
	// "Runtime: ..." line (the .NET apps: GC mode, processor count,
	// environment); nil for apps that print none.
	Runtime map[string]string `json:"runtime,omitempty"`
	Runs    []Run             `json:"runs,omitempty"`
	Summary *Summary          `json:"summary,omitempty"`
	// Instructions is the app's instruction count in an instructions
	// report.
	Instructions *Instructions `json:"instructions,omitempty"`
	// Footprint is the app's start-up, size, memory and unsaturated
	// latency in a footprint report (footprint.go).
	Footprint *Footprint `json:"footprint,omitempty"`
}

// Measured reports whether the app has runs and was neither skipped nor failed.
func (a *App) Measured() bool {
	return a.Skipped == "" && a.Failed == "" && len(a.Runs) > 0
}

// InstructionsMeasured reports whether the app has an instruction count and
// was neither skipped nor failed.
func (a *App) InstructionsMeasured() bool {
	return a.Skipped == "" && a.Failed == "" && a.Instructions != nil && a.Instructions.Requests > 0
}

// Instructions is what callgrind counted for one app: the user-space
// instructions of the app's process (its code, the Go runtime, net/http)
// while it served Requests requests, after its warm-up. Kernel work (the
// network stack, system calls) and other processes (a Redis server, the
// load generator) are not in it.
type Instructions struct {
	// Requests is the number of requests bombardier completed in the
	// measured window, all answered with a 2xx status.
	Requests int64 `json:"requests"`
	// Total is the instructions (callgrind's Ir) executed in the window.
	Total int64 `json:"total"`
	// PerRequest is Total divided by Requests.
	PerRequest float64 `json:"perRequest"`
	// StartupAndWarmup is the instructions from the program's start to the
	// end of the warm-up (the first dump), for reference.
	StartupAndWarmup int64 `json:"startupAndWarmup"`
	// DumpFile is the window's callgrind output file, relative to the
	// report directory (for callgrind_annotate).
	DumpFile string `json:"dumpFile,omitempty"`
	// RatioToBaseline is PerRequest divided by the baseline's (above 1: the
	// app executes more instructions per request than the baseline); nil
	// when the baseline has no count.
	RatioToBaseline *float64 `json:"ratioToBaseline,omitempty"`
}

// Run is one measured load run against one app.
type Run struct {
	Round     int       `json:"round"`
	StartedAt time.Time `json:"startedAt"`
	// Load is the generator's result as decoded (JSON "bombardier" or
	// "h2load").
	Load
	// ServerCPUSeconds is the user+system CPU time the server process tree
	// spent during the run.
	ServerCPUSeconds float64 `json:"serverCPUSeconds"`
	// ServerPeakRSSBytes is the server's peak resident set size since it
	// started, up to the end of this run: VmHWM for one process, the largest
	// sampled sum of VmRSS over the process tree when it has children.
	ServerPeakRSSBytes int64 `json:"serverPeakRSSBytes"`
	// CgroupMemoryPeakBytes is the cgroup's peak memory usage when the
	// constrained profile placed the server in a cgroup.
	CgroupMemoryPeakBytes int64 `json:"cgroupMemoryPeakBytes,omitempty"`
}

// Summary condenses an app's runs: medians over runs, and ratios to the
// baseline taken per round.
type Summary struct {
	Runs                   int     `json:"runs"`
	RequestsPerSec         Spread  `json:"requestsPerSec"`
	ThroughputBytesPerSec  float64 `json:"throughputBytesPerSec"`
	LatencyMeanMicros      float64 `json:"latencyMeanMicros"`
	LatencyP50Micros       float64 `json:"latencyP50Micros"`
	LatencyP90Micros       float64 `json:"latencyP90Micros"`
	LatencyP95Micros       float64 `json:"latencyP95Micros"`
	LatencyP99Micros       float64 `json:"latencyP99Micros"`
	LatencyMaxMicros       float64 `json:"latencyMaxMicros"`
	TimeTakenSeconds       float64 `json:"timeTakenSeconds"`
	TotalRequests          int64   `json:"totalRequests"`
	NonSuccess             int64   `json:"nonSuccess"`   // summed over runs
	SocketErrors           int64   `json:"socketErrors"` // summed over runs
	PeakRSSBytes           int64   `json:"peakRSSBytes"` // largest over runs
	CPUSecondsPerRun       float64 `json:"cpuSecondsPerRun"`
	CPUMicrosPerRequest    float64 `json:"cpuMicrosPerRequest"`
	CgroupMemoryPeakBytes  int64   `json:"cgroupMemoryPeakBytes,omitempty"`
	RatioToBaseline        *Ratio  `json:"ratioToBaseline,omitempty"`
	BaselineRatioToThisApp *Ratio  `json:"baselineRatioToThisApp,omitempty"`
}

// Spread is the median of a figure over runs and its minimum and maximum.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Ratio is a requests-per-second ratio computed per round (both apps measured
// in the same round, close in time), with the median and range of those
// per-round values.
type Ratio struct {
	PerRound []float64 `json:"perRound"`
	Median   float64   `json:"median"`
	Min      float64   `json:"min"`
	Max      float64   `json:"max"`
}
