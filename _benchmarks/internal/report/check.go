// Structural checks of a written report, used by the tests and by
// `bench check`: every table row has as many cells as its header, every
// comparison has a section, every referenced chart exists and decodes as PNG.
// Throughput and instructions reports are told apart by results.json.
package report

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

var imageRef = regexp.MustCompile(`!\[[^\]]*\]\(([^)]+)\)`)

// CheckDir checks the report in dir: results.json decodes with the current
// schema, RESULTS.md is well formed and agrees with it, and every chart it
// references decodes as a PNG image. It returns the decoded results.
func CheckDir(dir string) (*Results, error) {
	res, err := ReadResults(filepath.Join(dir, "results.json"))
	if err != nil {
		return nil, err
	}
	md, err := os.ReadFile(filepath.Join(dir, "RESULTS.md"))
	if err != nil {
		return nil, err
	}
	if err := CheckMarkdown(string(md), res); err != nil {
		return nil, err
	}
	for _, m := range imageRef.FindAllStringSubmatch(string(md), -1) {
		if err := checkPNG(filepath.Join(dir, m[1])); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func checkPNG(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Errorf("report: %s: %w", path, err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
		return fmt.Errorf("report: %s: implausibly small image %v", path, b)
	}
	return nil
}

// CheckMarkdown checks that md is a well-formed RESULTS.md for res: a section
// per comparison whose table has a row per app, rows as wide as the header,
// skipped apps shown with their reason and measured apps with numbers.
func CheckMarkdown(md string, res *Results) error {
	if res.Settings.Quick {
		// A quick report opens with the smoke-test banner, then its title.
		var ok bool
		if md, ok = strings.CutPrefix(md, QuickBanner+"\n\n"); !ok {
			return fmt.Errorf("report: RESULTS.md of a -quick run does not open with the smoke-test banner")
		}
	}
	if !strings.HasPrefix(md, "# ") {
		return fmt.Errorf("report: RESULTS.md does not start with a title")
	}
	if res.Measures(MeasureFootprint) {
		return checkFootprintMarkdown(md, res)
	}
	tables := parseTables(md)
	if len(tables) != len(res.Comparisons) {
		return fmt.Errorf("report: RESULTS.md has %d tables, want one per comparison (%d)", len(tables), len(res.Comparisons))
	}
	instructions := res.Measures(MeasureInstructions)
	for i, c := range res.Comparisons {
		t := tables[i]
		if !strings.Contains(t.heading, c.Name) || !strings.Contains(t.heading, c.Path) {
			return fmt.Errorf("report: table %d is under %q, want comparison %s", i, t.heading, c.Key())
		}
		if instructions {
			if err := checkInstructionsTable(t, &c); err != nil {
				return err
			}
			continue
		}
		if len(t.header) != len(tableHeader) {
			return fmt.Errorf("report: %s: header has %d cells, want %d", c.Key(), len(t.header), len(tableHeader))
		}
		if len(t.rows) != len(c.Apps) {
			return fmt.Errorf("report: %s: %d rows, want one per app (%d)", c.Key(), len(t.rows), len(c.Apps))
		}
		for j, row := range t.rows {
			a := c.Apps[j]
			if len(row) != len(t.header) {
				return fmt.Errorf("report: %s: row %q has %d cells, want %d", c.Key(), a.Name, len(row), len(t.header))
			}
			if row[0] != Label(a.Name) && row[0] != a.Name { // reports written before Label show the name
				return fmt.Errorf("report: %s: row %d is %q, want %q", c.Key(), j, row[0], Label(a.Name))
			}
			switch {
			case a.Skipped != "":
				if !strings.HasPrefix(row[1], "skipped: ") {
					return fmt.Errorf("report: %s: skipped app %s shows %q", c.Key(), a.Name, row[1])
				}
			case a.Failed != "":
				if !strings.HasPrefix(row[1], "failed: ") {
					return fmt.Errorf("report: %s: failed app %s shows %q", c.Key(), a.Name, row[1])
				}
			case a.Measured():
				if !strings.HasSuffix(row[1], "/s") || row[2] == "–" || row[5] == "–" {
					return fmt.Errorf("report: %s: measured app %s has no figures: %q", c.Key(), a.Name, row)
				}
			}
		}
	}
	return nil
}

// checkInstructionsTable checks the table of comparison c in an
// instructions report: its header, a row per app, the reason of every app
// not counted and a number for every app counted.
func checkInstructionsTable(t mdTable, c *Comparison) error {
	if len(t.header) != len(instructionsHeader) || t.header[1] != instructionsHeader[1] {
		return fmt.Errorf("report: %s: header %q is not that of an instructions table", c.Key(), t.header)
	}
	if len(t.rows) != len(c.Apps) {
		return fmt.Errorf("report: %s: %d rows, want one per app (%d)", c.Key(), len(t.rows), len(c.Apps))
	}
	for j, row := range t.rows {
		a := c.Apps[j]
		if len(row) != len(t.header) {
			return fmt.Errorf("report: %s: row %q has %d cells, want %d", c.Key(), a.Name, len(row), len(t.header))
		}
		if row[0] != Label(a.Name) && row[0] != a.Name { // reports written before Label show the name
			return fmt.Errorf("report: %s: row %d is %q, want %q", c.Key(), j, row[0], Label(a.Name))
		}
		switch {
		case a.Skipped != "":
			if !strings.HasPrefix(row[1], "not measured: ") {
				return fmt.Errorf("report: %s: app %s not counted shows %q", c.Key(), a.Name, row[1])
			}
		case a.Failed != "":
			if !strings.HasPrefix(row[1], "failed: ") {
				return fmt.Errorf("report: %s: failed app %s shows %q", c.Key(), a.Name, row[1])
			}
		case a.InstructionsMeasured():
			if n, err := strconv.ParseFloat(row[1], 64); err != nil || n <= 0 || row[2] == "–" {
				return fmt.Errorf("report: %s: counted app %s has no figures: %q", c.Key(), a.Name, row)
			}
		}
	}
	return nil
}

type mdTable struct {
	heading string
	header  []string
	rows    [][]string
}

// parseTables returns the pipe tables of md with the "## " heading above each.
func parseTables(md string) []mdTable {
	var tables []mdTable
	heading := ""
	var cur *mdTable
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "## ") {
			heading = line
		}
		if !strings.HasPrefix(line, "|") {
			cur = nil
			continue
		}
		cells := splitRow(line)
		switch {
		case cur == nil:
			tables = append(tables, mdTable{heading: heading, header: cells})
			cur = &tables[len(tables)-1]
		case isSeparator(cells):
		default:
			cur.rows = append(cur.rows, cells)
		}
	}
	return tables
}

func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

func isSeparator(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, ":-") != "" {
			return false
		}
	}
	return true
}
