package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	const p = `"Package":"example.com/p"`
	in := strings.Join([]string{
		`go: downloading example.com/dep v1.0.0`,
		`{"Action":"start",` + p + `}`,
		`{"Action":"run",` + p + `,"Test":"TestOK"}`,
		`{"Action":"output",` + p + `,"Test":"TestOK","Output":"=== RUN   TestOK\n"}`,
		`{"Action":"output",` + p + `,"Test":"TestOK","Output":"    a_test.go:3: chatter\n"}`,
		`{"Action":"pass",` + p + `,"Test":"TestOK"}`,
		`{"Action":"output",` + p + `,"Test":"TestDotnet","Output":"    a_test.go:9: not run here: TestDotnet: no dotnet on this machine (VIREO_NOT_HERE)\n"}`,
		`{"Action":"output",` + p + `,"Test":"TestDotnet","Output":"--- SKIP: TestDotnet (0.00s)\n"}`,
		`{"Action":"skip",` + p + `,"Test":"TestDotnet"}`,
		`{"Action":"output",` + p + `,"Test":"TestLinks","Output":"    b_test.go:4: symlinks unavailable\n"}`,
		`{"Action":"skip",` + p + `,"Test":"TestLinks"}`,
		`{"Action":"output",` + p + `,"Test":"TestBad","Output":"    c_test.go:7: got 1, want 2\n"}`,
		`{"Action":"output",` + p + `,"Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}`,
		`{"Action":"fail",` + p + `,"Test":"TestBad"}`,
		`{"Action":"output",` + p + `,"Output":"PASS\n"}`,
		`{"Action":"output",` + p + `,"Output":"FAIL\texample.com/p\t0.01s\n"}`,
		`{"Action":"fail",` + p + `}`,
	}, "\n")
	var out, rec bytes.Buffer
	if report(strings.NewReader(in), &out, &rec, false) {
		t.Error("a run with a failing test reported success")
	}
	wantOut := "go: downloading example.com/dep v1.0.0\n" +
		"    c_test.go:7: got 1, want 2\n--- FAIL: TestBad (0.00s)\n" +
		"FAIL\texample.com/p\t0.01s\n"
	if out.String() != wantOut {
		t.Errorf("printed:\n%s\nwant:\n%s", out.String(), wantOut)
	}
	wantRec := "not run here: TestDotnet: no dotnet on this machine (VIREO_NOT_HERE)\n" +
		"skipped: example.com/p TestLinks: symlinks unavailable\n"
	if rec.String() != wantRec {
		t.Errorf("recorded:\n%s\nwant:\n%s", rec.String(), wantRec)
	}
}

func TestReportWithoutEvents(t *testing.T) {
	var out, rec bytes.Buffer
	if report(strings.NewReader("go: cannot find main module\n"), &out, &rec, false) {
		t.Error("input without test events reported success")
	}
}

func TestGroup(t *testing.T) {
	got := group([]string{
		"not run here: TestDotnetApps: no dotnet on this machine (VIREO_NOT_HERE)",
		"skipped: p TestX: why",
		"not run here: TestDotnetAOTApp: no dotnet on this machine (VIREO_NOT_HERE)",
		"not run here: TestDotnetApps: no dotnet on this machine (VIREO_NOT_HERE)",
		"not run here: step benchmark suite (.NET apps): no dotnet on this machine (VIREO_NOT_HERE)",
	})
	want := []string{
		"not run here: TestDotnetApps, TestDotnetAOTApp, step benchmark suite (.NET apps): no dotnet on this machine (VIREO_NOT_HERE)",
		"skipped: p TestX: why",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
