// Tests of the callgrind output parser against real dumps of valgrind
// 3.19's callgrind (testdata/: two consecutive `callgrind_control -d` dumps
// of one small process and the dump written at its exit) and against
// hand-written variants for the cases those do not cover, and of the
// window and per-request arithmetic.
package callgrind

import (
	"math"
	"strings"
	"testing"
)

// The real dumps: `valgrind --tool=callgrind --callgrind-out-file=... sh -c
// 'sleep 1; echo one; sleep 1; echo two; sleep 1'` with callgrind_control
// -d after 0.7s and 1.7s, and the dump written when it ended.
const (
	sampleDump1 = "testdata/callgrind.out.1"
	sampleDump2 = "testdata/callgrind.out.2"
	sampleFinal = "testdata/callgrind.out"
)

func mustParseFile(t *testing.T, path string) *File {
	t.Helper()
	f, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestParseRealDumps(t *testing.T) {
	for _, tt := range []struct {
		path    string
		trigger string
	}{
		{sampleDump1, "dump"},
		{sampleDump2, "dump"},
		{sampleFinal, "Program termination"},
	} {
		f := mustParseFile(t, tt.path)
		if len(f.Parts) != 1 || !f.Complete() {
			t.Fatalf("%s: %d parts, complete %v", tt.path, len(f.Parts), f.Complete())
		}
		p := f.Parts[0]
		if p.Trigger != tt.trigger || !p.HasRange || strings.Join(p.Events, " ") != "Ir" || p.FromSummary {
			t.Errorf("%s: part %+v", tt.path, p)
		}
		n, err := f.Instructions()
		if err != nil || n <= 0 {
			t.Errorf("%s: Instructions = %d, %v", tt.path, n, err)
		}
		if f.Pid <= 0 || f.Command == "" {
			t.Errorf("%s: pid %d, command %q", tt.path, f.Pid, f.Command)
		}
	}
}

// TestRealDumpsFollowEachOther checks callgrind's behaviour the runner
// relies on, on real dumps: each dump starts where the previous one ended
// (the counters were zeroed), so the window is the later dump's total.
func TestRealDumpsFollowEachOther(t *testing.T) {
	d1, d2, final := mustParseFile(t, sampleDump1), mustParseFile(t, sampleDump2), mustParseFile(t, sampleFinal)
	if got, err := Window(d1, d2); err != nil || got != 5560 {
		t.Errorf("Window(dump 1, dump 2) = %d, %v; want 5560", got, err)
	}
	if got, err := Window(d2, final); err != nil || got != 5842 {
		t.Errorf("Window(dump 2, final) = %d, %v; want 5842", got, err)
	}
	// Out of order, or with one left out, they are not consecutive dumps.
	if _, err := Window(d2, d1); err == nil {
		t.Error("Window accepted dumps in the wrong order")
	}
	if _, err := Window(d1, final); err == nil {
		t.Error("Window accepted dumps with one missing in between")
	}
}

// dump builds a callgrind file in the layout callgrind 3.19 writes.
func dump(pid, part, first, last string, summary, totals string) string {
	var b strings.Builder
	b.WriteString("# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: " + pid + "\ncmd:  /bin/app\npart: " + part + "\n\n\n")
	b.WriteString("desc: I1 cache: \ndesc: D1 cache: \ndesc: LL cache: \n\n")
	if first != "" {
		b.WriteString("desc: Timerange: Basic block " + first + " - " + last + "\n")
	}
	b.WriteString("desc: Trigger: dump\n\npositions: line\nevents: Ir\n")
	if summary != "" {
		b.WriteString("summary: " + summary + "\n")
	}
	b.WriteString("\n\nob=(3) /usr/lib/x86_64-linux-gnu/libc.so.6\nfl=(107) ./string/memcmp.h\nfn=(364) std::bcmp\n34 5\n+1 2\ncalls=8 -21 \n* 225\n\n")
	if totals != "" {
		b.WriteString("totals: " + totals + "\n")
	}
	return b.String()
}

func parse(t *testing.T, s string) *File {
	t.Helper()
	f, err := Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestParseTotalsNotSummed(t *testing.T) {
	// summary: and totals: carry (nearly) the same figure; adding both
	// would double it.
	f := parse(t, dump("7", "1", "0", "100", "766658513", "766658513"))
	if n, err := f.Instructions(); err != nil || n != 766658513 {
		t.Errorf("Instructions = %d, %v; want 766658513", n, err)
	}
	if f.Parts[0].FromSummary || !f.Complete() {
		t.Error("a file with totals: is taken from summary:")
	}
	// Without totals: (a writer may omit it) the summary counts, but the
	// file is not complete as a dump of callgrind 3.19 would be.
	f = parse(t, dump("7", "1", "0", "100", "5000", ""))
	if n, _ := f.Instructions(); n != 5000 || !f.Parts[0].FromSummary || f.Complete() {
		t.Errorf("summary only: %d, from summary %v, complete %v", n, f.Parts[0].FromSummary, f.Complete())
	}
}

func TestParseSeveralEventsAndParts(t *testing.T) {
	s := "# callgrind format\nversion: 1\npid: 9\nevents: Dr Ir Dw\npart: 1\ndesc: Timerange: Basic block 0 - 10\n" +
		"summary: 1 2 3\nfn=(1) main\n1 1 2 3\ntotals: 1 2 3\n" +
		"part: 2\ndesc: Timerange: Basic block 10 - 30\nfn=(1)\n1 4 40 4\ntotals: 4 40 4\n"
	f := parse(t, s)
	if len(f.Parts) != 2 {
		t.Fatalf("%d parts", len(f.Parts))
	}
	if n, err := f.Instructions(); err != nil || n != 42 {
		t.Errorf("Instructions = %d, %v; want the Ir column summed over parts, 42", n, err)
	}
	if first, last, ok := f.Span(); !ok || first != 0 || last != 30 {
		t.Errorf("Span = %d, %d, %v", first, last, ok)
	}
}

func TestParseRejects(t *testing.T) {
	for name, s := range map[string]string{
		"empty":            "",
		"not callgrind":    "hello: world\ntotals: 5\n",
		"no totals":        dump("7", "1", "0", "10", "", ""),
		"bad figure":       dump("7", "1", "0", "10", "", "12x"),
		"negative":         dump("7", "1", "0", "10", "", "-5"),
		"more totals":      dump("7", "1", "0", "10", "", "1 2"),
		"bad part":         strings.Replace(dump("7", "1", "0", "10", "", "5"), "part: 1", "part: one", 1),
		"no events at all": "# callgrind format\nversion: 1\ntotals: 5\n",
	} {
		if f, err := Parse(strings.NewReader(s)); err == nil {
			t.Errorf("%s: accepted: %+v", name, f)
		}
	}
	// A file that does not count Ir (--collect-... without it) has no
	// instructions to report.
	f := parse(t, strings.Replace(dump("7", "1", "0", "10", "", "5"), "events: Ir", "events: Dr", 1))
	if _, err := f.Instructions(); err == nil {
		t.Error("Instructions of a file without Ir succeeded")
	}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		want          int64
		wantErr       bool
	}{
		{"consecutive dumps", dump("7", "1", "0", "1000", "", "900"), dump("7", "2", "1000", "5000", "", "4000"), 4000, false},
		{"gap between the dumps", dump("7", "1", "0", "1000", "", "900"), dump("7", "3", "2000", "5000", "", "3000"), 0, true},
		{"second from the start", dump("7", "1", "0", "1000", "", "900"), dump("7", "2", "0", "5000", "", "4900"), 0, true},
		{"two processes", dump("7", "1", "0", "1000", "", "900"), dump("8", "2", "1000", "5000", "", "4000"), 0, true},
		{"no time range", dump("7", "1", "", "", "", "900"), dump("7", "2", "", "", "", "4000"), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Window(parse(t, tt.before), parse(t, tt.after))
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("Window = %d, %v; want %d, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestPerRequest(t *testing.T) {
	// The lead's hand measurement of nethttp: 766658513 instructions in a
	// dump after 20000 requests, 1602794 for start-up alone.
	got, err := PerRequest(766658513-1602794, 20000)
	if err != nil || math.Abs(got-38252.786) > 0.001 {
		t.Errorf("PerRequest = %v, %v", got, err)
	}
	if _, err := PerRequest(100, 0); err == nil {
		t.Error("PerRequest with no requests succeeded")
	}
	if _, err := PerRequest(-1, 10); err == nil {
		t.Error("PerRequest of a negative count succeeded")
	}
}

// TestCallsRealDump counts calls in a real dump, as awk over its cfn= and
// calls= lines counted them.
func TestCallsRealDump(t *testing.T) {
	f := mustParseFile(t, sampleDump1)
	for fn, want := range map[string]int64{"_dl_lookup_symbol_x": 183, "__ctype_b_loc": 551, "strcmp": 351} {
		if got := f.Calls(fn); got != want {
			t.Errorf("Calls(%q) = %d, want %d", fn, got, want)
		}
	}
	if got := f.Calls("no.such.function"); got != 0 {
		t.Errorf("Calls of an unknown function = %d", got)
	}
}

// TestCalls checks the name compression: an id defined by fn= serves a
// later cfn=, an id alone names what it was defined as, names without ids
// count too, and a callee's calls add up over callers and parts.
func TestCalls(t *testing.T) {
	s := "# callgrind format\nversion: 1\npid: 9\nevents: Ir\npart: 1\ndesc: Timerange: Basic block 0 - 10\n" +
		"fn=(1) runtime.gcStart\n1 10\n" +
		"fn=(2) runtime.mallocgc\n1 5\ncfn=(1)\ncalls=2 7\n3 40\ncfn=(3) runtime.gcMarkTermination\ncalls=1 9 \n4 90\n" +
		"fn=(4) main.handler\ncfn=(3)\ncalls=5 9\n1 100\ncfn=plain.name\ncalls=4 1\n1 1\ntotals: 246\n" +
		"part: 2\ndesc: Timerange: Basic block 10 - 30\nfn=(2)\ncfn=(1)\ncalls=3 7\n1 40\ntotals: 40\n"
	f := parse(t, s)
	for fn, want := range map[string]int64{
		"runtime.gcStart":           5, // 2 in part 1, 3 in part 2
		"runtime.gcMarkTermination": 6, // from two callers
		"plain.name":                4,
		"runtime.mallocgc":          0, // a caller, never called
	} {
		if got := f.Calls(fn); got != want {
			t.Errorf("Calls(%q) = %d, want %d", fn, got, want)
		}
	}
	if _, err := Parse(strings.NewReader(strings.Replace(s, "calls=5 9", "calls=five 9", 1))); err == nil {
		t.Error("a calls= line without a count was accepted")
	}
}

// TestSelfAddsUpToTotals checks on the real dumps that the functions' own
// instructions add up to the file's totals: no cost line is missed or
// counted twice (the inclusive lines after calls= are skipped).
func TestSelfAddsUpToTotals(t *testing.T) {
	for _, path := range []string{sampleDump1, sampleDump2, sampleFinal} {
		f := mustParseFile(t, path)
		want, err := f.Instructions()
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Self(func(string) bool { return true }); got != want {
			t.Errorf("%s: own instructions add up to %d, totals %d", path, got, want)
		}
		if got := f.Self(func(string) bool { return false }); got != 0 {
			t.Errorf("%s: Self of no function = %d", path, got)
		}
	}
}

// TestSelf checks the cost lines on hand-written dumps: the inclusive line
// after calls= is not the caller's own cost, names are compressed, costs
// add up over parts, the position columns of "positions: instr line"
// (hexadecimal, relative, "*") are skipped, Ir is found among other
// events, and a line that leaves Ir out costs nothing.
func TestSelf(t *testing.T) {
	s := "# callgrind format\nversion: 1\npid: 9\npositions: instr line\nevents: Dr Ir\npart: 1\ndesc: Timerange: Basic block 0 - 10\n" +
		"fn=(1) runtime.mallocgc\n0x4000 12 3 10\n+4 * 1 5\n" +
		"fn=(2) main.handler\n0x5000 7 2 100\ncfn=(1)\ncalls=2 0x4000 12\n+8 9 9 15\n-2 8 1 7\n+1 9 4\n" +
		"totals: 19 122\n" +
		"part: 2\ndesc: Timerange: Basic block 10 - 30\nfn=(1)\n0x4000 12 0 40\ntotals: 0 40\n"
	f := parse(t, s)
	for _, tt := range []struct {
		name  string
		match func(string) bool
		want  int64
	}{
		{"runtime", func(fn string) bool { return strings.HasPrefix(fn, "runtime.") }, 10 + 5 + 40},
		{"handler", func(fn string) bool { return fn == "main.handler" }, 100 + 7},
		{"all", func(string) bool { return true }, 162},
	} {
		if got := f.Self(tt.match); got != tt.want {
			t.Errorf("Self(%s) = %d, want %d", tt.name, got, tt.want)
		}
	}
	if n, _ := f.Instructions(); n != 162 {
		t.Errorf("Instructions = %d, want the totals' 162", n)
	}
	if _, err := Parse(strings.NewReader(strings.Replace(s, "+4 * 1 5", "+4 * 1 x5", 1))); err == nil {
		t.Error("a cost line with a bad Ir was accepted")
	}
}
