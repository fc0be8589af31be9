// Package callgrind reads the totals, the call counts and the functions'
// own instructions of callgrind output files (the "callgrind format" that
// `valgrind --tool=callgrind` writes) and turns two dumps of one process
// into the instructions executed between them.
//
// A window's figure comes from the header and the totals: a file names its
// events ("events: Ir ..."), gives callgrind's running total in a
// "summary:" line near the top, and ends each part with a "totals:" line,
// the sum of the costs in the file. The two agree to a few instructions
// (those of the functions active at the dump), so a file's cost is taken
// from "totals:" (or from "summary:" when a writer left "totals:" out),
// never from both added together, which would double it. A dump also
// records the span of the program it covers in "desc: Timerange: Basic
// block <first> - <last>"; since callgrind zeroes its counters on each
// dump, the dump that follows another covers exactly the time between
// them, and Window checks from the spans that two dumps are consecutive.
//
// The call counts (File.Calls) come from the "calls=" lines, each of which
// follows the "cfn=" line that names the function called. Names are
// compressed: the first "fn=" or "cfn=" of a name gives it an id, "(12)
// runtime.gcStart", and later lines give the id alone; fn and cfn share one
// table. Summing a callee's "calls=" counts over every caller gives how
// often it ran in the dump, which is how the runner counts the collector's
// cycles in a window (one runtime.gcMarkTermination a cycle).
//
// A function's own instructions (File.Self) are the cost lines that follow
// its "fn=" line: each starts with the position columns the "positions:"
// line names (one, "line", unless it says more), then the events' costs.
// The cost line right after a "calls=" line is the inclusive cost of that
// call, already counted in the callee's own lines, so it is skipped. The
// functions' own instructions add up to the part's totals, which is how
// the runner splits a window between the Go runtime and the rest.
package callgrind

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// EventIr is callgrind's name for executed instructions ("instruction
// reads"), the event every callgrind run collects.
const EventIr = "Ir"

// Part is one part of a callgrind output file: the costs of one dump.
type Part struct {
	// Number is the "part:" number (1 when the file has no such line).
	Number int
	// Trigger is why the dump was written: "Program termination", "dump"
	// (callgrind_control -d) and so on; empty when the file does not say.
	Trigger string
	// FirstBB and LastBB are the basic-block counts at the start and the end
	// of the span the part covers; HasRange is false when the file has no
	// "desc: Timerange:" line.
	FirstBB, LastBB int64
	HasRange        bool
	// Events are the names of the cost columns, Totals their sums in the
	// same order.
	Events []string
	Totals []int64
	// FromSummary is set when the part has no "totals:" line and Totals
	// come from its "summary:" line.
	FromSummary bool
}

// Total returns the part's total of event, and false when the part does not
// collect it.
func (p *Part) Total(event string) (int64, bool) {
	for i, e := range p.Events {
		if e == event && i < len(p.Totals) {
			return p.Totals[i], true
		}
	}
	return 0, false
}

// File is a parsed callgrind output file.
type File struct {
	// Command is the profiled command line ("cmd:").
	Command string
	// Pid is the profiled process ("pid:").
	Pid   int
	Parts []Part
	// calls are the "calls=" counts summed by callee name, over every
	// caller and part.
	calls map[string]int64
	// self are the functions' own instructions (Ir), by name, summed over
	// the parts.
	self map[string]int64
}

// Calls returns how many times the function fn was called in the dump,
// summed over its callers (a function that was never called, or that
// callgrind did not see as a call, counts 0).
func (f *File) Calls(fn string) int64 { return f.calls[fn] }

// Self returns the instructions (Ir) executed in the functions for which
// match reports true, each function's own instructions only (not those of
// the functions it called), summed over the file's parts. With a match
// that takes every function it is Instructions' total.
func (f *File) Self(match func(fn string) bool) int64 {
	var sum int64
	for fn, n := range f.self {
		if match(fn) {
			sum += n
		}
	}
	return sum
}

// Instructions returns the executed instructions (Ir) summed over the
// file's parts.
func (f *File) Instructions() (int64, error) {
	if len(f.Parts) == 0 {
		return 0, errors.New("callgrind: no part with costs")
	}
	var sum int64
	for i := range f.Parts {
		n, ok := f.Parts[i].Total(EventIr)
		if !ok {
			return 0, fmt.Errorf("callgrind: part %d does not count %s (events %v)", f.Parts[i].Number, EventIr, f.Parts[i].Events)
		}
		sum += n
	}
	return sum, nil
}

// Complete reports whether every part ends with its "totals:" line, which
// callgrind writes last: a dump still being written lacks it.
func (f *File) Complete() bool {
	for i := range f.Parts {
		if f.Parts[i].FromSummary {
			return false
		}
	}
	return len(f.Parts) > 0
}

// Span returns the first basic block of the first part and the last of the
// last part; ok is false when a part has no time range.
func (f *File) Span() (first, last int64, ok bool) {
	if len(f.Parts) == 0 {
		return 0, 0, false
	}
	for i := range f.Parts {
		if !f.Parts[i].HasRange {
			return 0, 0, false
		}
	}
	return f.Parts[0].FirstBB, f.Parts[len(f.Parts)-1].LastBB, true
}

// Parse reads a callgrind output file. It fails on a file that is not in
// the callgrind format or whose parts have no totals, which is also what a
// file still being written looks like.
func Parse(r io.Reader) (*File, error) {
	f := &File{calls: map[string]int64{}, self: map[string]int64{}}
	names := map[string]string{} // compressed function names: "(12)" -> name
	callee := ""                 // the function of the last cfn= line
	fn := ""                     // the function of the last fn= line
	// A cost line has the position columns, then the events' costs; ir
	// is the column of Ir (-1: not collected). inclusive marks the cost
	// line of a call, which follows its calls= line.
	positions, ir, inclusive := 1, 0, false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var cur *Part
	// summary holds a part's "summary:" figures until its "totals:" line,
	// which wins when both are present.
	var summary []int64
	hasTotals := false
	finish := func() error {
		if cur == nil {
			return nil
		}
		if !hasTotals {
			if summary == nil {
				return fmt.Errorf("callgrind: part %d has neither a totals nor a summary line", cur.Number)
			}
			cur.Totals, cur.FromSummary = summary, true
		}
		if len(cur.Totals) > len(cur.Events) || len(cur.Events) == 0 {
			return fmt.Errorf("callgrind: part %d has %d totals for events %v", cur.Number, len(cur.Totals), cur.Events)
		}
		f.Parts = append(f.Parts, *cur)
		cur, summary, hasTotals = nil, nil, false
		return nil
	}
	begin := func(number int) {
		var events []string
		if n := len(f.Parts); n > 0 {
			// A later part repeats "events:" only when they change.
			events = f.Parts[n-1].Events
		}
		cur = &Part{Number: number, Events: events}
	}
	line, sawFormat := 0, false
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if line == 1 && strings.HasPrefix(text, "# callgrind format") {
			sawFormat = true
			continue
		}
		if k, v, ok := strings.Cut(text, "="); ok && !strings.ContainsAny(k, " :\t") {
			switch k {
			case "fn":
				fn = functionName(names, v)
			case "cfn":
				callee = functionName(names, v)
			case "calls":
				n, err := strconv.ParseInt(strings.Fields(v + " x")[0], 10, 64)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("callgrind: line %d: bad calls %q", line, v)
				}
				f.calls[callee] += n
				inclusive = true
			}
			continue // a name assignment (fl=, ob=, ...) or the calls= above
		}
		if isCostLine(text) {
			if inclusive {
				inclusive = false
				continue
			}
			n, err := ownCost(text, positions, ir)
			if err != nil {
				return nil, fmt.Errorf("callgrind: line %d: %w", line, err)
			}
			f.self[fn] += n
			continue
		}
		key, value, ok := strings.Cut(text, ":")
		if !ok || strings.ContainsAny(key, " =\t") {
			continue
		}
		value = strings.TrimSpace(value)
		switch key {
		case "version", "creator":
			sawFormat = sawFormat || key == "version"
		case "positions":
			positions = len(strings.Fields(value))
		case "cmd":
			f.Command = value
		case "pid":
			f.Pid, _ = strconv.Atoi(value)
		case "part":
			n, err := strconv.Atoi(value)
			if err != nil {
				return nil, fmt.Errorf("callgrind: line %d: bad part %q", line, value)
			}
			if cur != nil && !hasTotals && summary == nil {
				// Header lines before the first "part:" belong to it.
				cur.Number = n
				continue
			}
			if err := finish(); err != nil {
				return nil, err
			}
			begin(n)
		case "desc":
			if cur == nil {
				begin(1)
			}
			parseDesc(cur, value)
		case "events":
			if cur == nil {
				begin(1)
			}
			cur.Events = strings.Fields(value)
			ir = slices.Index(cur.Events, EventIr)
		case "summary", "totals":
			if cur == nil {
				begin(1)
			}
			nums, err := parseCosts(value)
			if err != nil {
				return nil, fmt.Errorf("callgrind: line %d: %s: %w", line, key, err)
			}
			if key == "totals" {
				cur.Totals, hasTotals = nums, true
			} else {
				summary = nums
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("callgrind: %w", err)
	}
	if !sawFormat {
		return nil, errors.New("callgrind: not a callgrind output file (no \"# callgrind format\" or version: line)")
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(f.Parts) == 0 {
		return nil, errors.New("callgrind: no totals")
	}
	return f, nil
}

// functionName resolves the value of an fn= or cfn= line: "(id) name"
// records the id and returns the name, "(id)" returns the name recorded
// for it, and a name without an id (--compress-strings=no) is itself.
func functionName(names map[string]string, v string) string {
	if !strings.HasPrefix(v, "(") {
		return v
	}
	id, name, ok := strings.Cut(v, ")")
	if !ok {
		return v
	}
	id += ")"
	if name = strings.TrimSpace(name); name != "" {
		names[id] = name
		return name
	}
	return names[id]
}

// ParseFile parses the callgrind output file at path.
func ParseFile(path string) (*File, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := Parse(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// parseDesc reads the descriptions Window needs: the trigger of the dump
// and the span of basic blocks it covers.
func parseDesc(p *Part, value string) {
	name, v, ok := strings.Cut(value, ":")
	if !ok {
		return
	}
	v = strings.TrimSpace(v)
	switch strings.TrimSpace(name) {
	case "Trigger":
		p.Trigger = v
	case "Timerange":
		// "Basic block 0 - 168018177"
		var first, last int64
		if _, err := fmt.Sscanf(v, "Basic block %d - %d", &first, &last); err == nil && first <= last {
			p.FirstBB, p.LastBB, p.HasRange = first, last, true
		}
	}
}

// isCostLine reports whether text is a cost line: it starts with a
// position, a number, "+" or "-" and a number (relative to the last one),
// or "*" (the same).
func isCostLine(text string) bool {
	if text == "" {
		return false
	}
	switch c := text[0]; {
	case c >= '0' && c <= '9', c == '*':
		return true
	case c == '+' || c == '-':
		return len(text) > 1 && text[1] >= '0' && text[1] <= '9'
	}
	return false
}

// ownCost returns the Ir of a cost line: the column ir after the given
// number of position columns; a line that leaves it out (trailing zero
// costs may be omitted) costs 0.
func ownCost(text string, positions, ir int) (int64, error) {
	if ir < 0 {
		return 0, nil
	}
	fields := strings.Fields(text)
	if positions+ir >= len(fields) {
		return 0, nil
	}
	v := fields[positions+ir]
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("bad cost %q", v)
	}
	return n, nil
}

func parseCosts(s string) ([]int64, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, errors.New("no figures")
	}
	nums := make([]int64, len(fields))
	for i, f := range fields {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad figure %q", f)
		}
		nums[i] = n
	}
	return nums, nil
}

// Window returns the instructions a process executed between its dumps
// before and after: after's total, since callgrind zeroes its counters when
// it dumps. It checks that after is the dump that followed before (its range
// of basic blocks starts where before's ended), so that a missed, repeated
// or foreign dump is an error rather than a wrong window. (A dump that
// follows `callgrind_control -z` instead of a dump has its range start at
// the previous dump, or 0, though its counts start at the zeroing: the
// ranges cannot tell a zeroing, which is why the runner zeroes by dumping.)
func Window(before, after *File) (int64, error) {
	if _, err := before.Instructions(); err != nil {
		return 0, err
	}
	n, err := after.Instructions()
	if err != nil {
		return 0, err
	}
	if before.Pid != 0 && after.Pid != 0 && before.Pid != after.Pid {
		return 0, fmt.Errorf("callgrind: dumps of two processes (%d, %d)", before.Pid, after.Pid)
	}
	_, end, ok1 := before.Span()
	start, _, ok2 := after.Span()
	switch {
	case !ok1 || !ok2:
		return 0, errors.New("callgrind: a dump has no time range (desc: Timerange:), so the window it covers is unknown")
	case start != end:
		return 0, fmt.Errorf("callgrind: the second dump starts at basic block %d, not where the first ended (%d): not consecutive dumps", start, end)
	}
	return n, nil
}

// PerRequest divides the instructions of a window by the requests served in
// it; it returns an error for a window without requests.
func PerRequest(instructions, requests int64) (float64, error) {
	if requests <= 0 {
		return 0, fmt.Errorf("callgrind: %d requests in the window", requests)
	}
	if instructions < 0 {
		return 0, fmt.Errorf("callgrind: negative instruction count %d", instructions)
	}
	return float64(instructions) / float64(requests), nil
}
