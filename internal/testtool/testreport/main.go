// Command testreport turns `go test -json` output into what test.sh shows
// and collects what was not checked, for the summary at the end of a run.
//
//	go test -json ./... 2>&1 | testreport -record FILE
//	testreport -summary FILE
//
// With -record it reads the test events: package lines (ok, FAIL, build
// errors) are printed as go test prints them; a test's own output is held
// and printed only when the test fails, so a run reads as a plain go test
// run does. Two kinds of lines are appended to FILE: "not run here: ...",
// the lines of tests (testtool.Require, testtool.Want) that a runtime
// declared absent from the machine (VIREO_NOT_HERE) kept from running,
// and "skipped: PACKAGE TEST: REASON" for every other test that skipped,
// so that no skip is hidden. It exits with 1 when a test or a package
// failed, or when the input held no test event at all.
//
// With -summary it prints FILE's lines, the "not run here:" ones grouped by
// reason ("not run here: TestA, TestB: no dotnet on this machine").
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// event is one line of test2json output.
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

const notRunHere = "not run here: "

func main() {
	record := flag.String("record", "", "read go test -json from stdin, append what was not checked to `file`")
	summary := flag.String("summary", "", "print the lines recorded in `file`, grouped")
	verbose := flag.Bool("v", false, "with -record: print every test's output, as go test -v does")
	flag.Parse()
	switch {
	case *record != "":
		f, err := os.OpenFile(*record, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(2)
		}
		ok := report(os.Stdin, os.Stdout, f, *verbose)
		if err := f.Close(); err != nil || !ok {
			os.Exit(1)
		}
	case *summary != "":
		data, err := os.ReadFile(*summary)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(2)
		}
		for _, l := range group(strings.Split(strings.TrimSpace(string(data)), "\n")) {
			fmt.Println(l)
		}
	default:
		flag.Usage()
		os.Exit(2)
	}
}

// report reads test events from in, prints the run to out and appends the
// lines of what was not checked to rec. It reports whether everything
// passed.
func report(in io.Reader, out, rec io.Writer, verbose bool) bool {
	held := map[string][]string{} // a running test's output, by package and name
	passed, events := true, 0
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		var e event
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil {
			fmt.Fprintln(out, line) // go's own messages (downloads, vet) pass as they are
			continue
		}
		events++
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "output" && e.Test == "":
			if e.Output != "PASS\n" {
				fmt.Fprint(out, e.Output)
			}
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
			if verbose {
				fmt.Fprint(out, e.Output)
			}
			if i := strings.Index(e.Output, notRunHere); i >= 0 {
				fmt.Fprintln(rec, strings.TrimSpace(e.Output[i:]))
			}
		case e.Action == "fail":
			passed = false
			for _, l := range held[key] {
				if !verbose { // else printed already
					fmt.Fprint(out, l)
				}
			}
			delete(held, key)
		case e.Action == "skip" && e.Test != "":
			if reason := skipReason(held[key]); !strings.HasPrefix(reason, notRunHere) {
				fmt.Fprintf(rec, "skipped: %s %s: %s\n", e.Package, e.Test, reason)
			}
			delete(held, key)
		case e.Action == "pass":
			delete(held, key)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(out, "testreport:", err)
		return false
	}
	if events == 0 {
		fmt.Fprintln(out, "testreport: no test events in the input (go test did not run)")
		return false
	}
	return passed
}

// skipReason returns the message a skipped test logged, from its output
// lines ("    file_test.go:12: message"), without the file and line.
func skipReason(lines []string) string {
	var msg []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		if _, after, ok := strings.Cut(t, ": "); ok && strings.Contains(t[:len(t)-len(after)], ".go:") {
			t = after
		}
		msg = append(msg, t)
	}
	if len(msg) == 0 {
		return "(no reason given)"
	}
	return strings.Join(msg, " ")
}

// group returns the recorded lines with the "not run here:" ones of one
// reason joined into one line, in the order they first came; duplicates
// are dropped.
func group(lines []string) []string {
	var out []string
	seen := map[string]bool{}
	names := map[string][]string{} // reason -> test names
	var reasons []string
	for _, l := range lines {
		if l == "" || seen[l] {
			continue
		}
		seen[l] = true
		rest, ok := strings.CutPrefix(l, notRunHere)
		if !ok {
			out = append(out, l)
			continue
		}
		name, reason, ok := strings.Cut(rest, ": ")
		if !ok {
			name, reason = "", rest
		}
		if _, ok := names[reason]; !ok {
			reasons = append(reasons, reason)
		}
		names[reason] = append(names[reason], name)
	}
	var grouped []string
	for _, r := range reasons {
		grouped = append(grouped, notRunHere+strings.Join(names[r], ", ")+": "+r)
	}
	return append(grouped, out...)
}
