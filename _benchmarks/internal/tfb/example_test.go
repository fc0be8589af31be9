package tfb_test

import (
	"fmt"

	"github.com/vireo-go/vireo/_benchmarks/internal/tfb"
)

// The six test types, their request paths and whether they need the
// database.
func ExampleType_Path() {
	for _, t := range tfb.Types {
		fmt.Println(t, t.Path(), t.NeedsDB())
	}
	// Output:
	// plaintext /plaintext false
	// json /json false
	// db /db true
	// queries /queries?queries= true
	// fortunes /fortunes true
	// updates /updates?queries= true
}

// A failure names the rule it broke; Failed keeps the failures only.
func ExampleFailed() {
	ps := []tfb.Problem{
		{Severity: tfb.Warn, Rule: "JSON", URL: "/db", Detail: "extra keys in the World object"},
		{Severity: tfb.Fail, Rule: "cached Date", URL: "/json", Detail: `Date "Tue, 01 Dec 2026 10:00:00 GMT" on two requests 3s apart`},
	}
	for _, p := range tfb.Failed(ps) {
		fmt.Println(p)
	}
	// Output:
	// fail: cached Date: Date "Tue, 01 Dec 2026 10:00:00 GMT" on two requests 3s apart (/json)
}
