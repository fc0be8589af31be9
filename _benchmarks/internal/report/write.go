// Writing a run's report directory: results.json, one chart per comparison
// with measured apps (requests per second, or instructions per request in an
// instructions report), and RESULTS.md referencing those charts.
package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Files names the files WriteDir produced.
type Files struct {
	JSON     string
	Markdown string
	Charts   []string
}

// WriteDir summarizes every comparison of res and writes the report into dir,
// which it creates.
func WriteDir(dir string, res *Results) (Files, error) {
	var f Files
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return f, err
	}
	for i := range res.Comparisons {
		Summarize(&res.Comparisons[i])
		for j := range res.Comparisons[i].Apps {
			if fp := res.Comparisons[i].Apps[j].Footprint; fp != nil {
				fp.Summarize()
			}
		}
	}
	res.Schema = SchemaVersion

	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return f, fmt.Errorf("report: encoding results.json: %w", err)
	}
	f.JSON = filepath.Join(dir, "results.json")
	if err := os.WriteFile(f.JSON, append(data, '\n'), 0o644); err != nil {
		return f, err
	}

	charts := make(map[string]string)
	for i := range res.Comparisons {
		c := &res.Comparisons[i]
		name, draw := c.Key()+".png", WriteChart
		if res.Measures(MeasureInstructions) {
			name, draw = c.Key()+"-instructions.png", WriteInstructionsChart
		}
		if res.Measures(MeasureFootprint) {
			name, draw = c.Key()+"-cold-start.png", WriteColdStartChart
		}
		path := filepath.Join(dir, name)
		err := draw(c, path)
		if errors.Is(err, ErrNoData) {
			continue
		}
		if err != nil {
			return f, fmt.Errorf("report: chart of %s: %w", c.Key(), err)
		}
		charts[c.Key()] = name
		f.Charts = append(f.Charts, path)
	}

	var md bytes.Buffer
	if err := WriteMarkdown(&md, res, charts); err != nil {
		return f, err
	}
	f.Markdown = filepath.Join(dir, "RESULTS.md")
	return f, os.WriteFile(f.Markdown, md.Bytes(), 0o644)
}

// ReadResults decodes a results.json file.
func ReadResults(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var res Results
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("report: %s: %w", path, err)
	}
	if res.Schema != SchemaVersion && res.Schema != schemaV2 && res.Schema != schemaV1 {
		return nil, fmt.Errorf("report: %s: schema %q, want %q (or %q, %q)", path, res.Schema, SchemaVersion, schemaV2, schemaV1)
	}
	return &res, nil
}
