package tfb

import (
	"strings"
	"testing"
)

// TestNormalizeFortunes checks the normalisation's equivalences: pages that
// differ from the canonical one only in ways TechEmpower accepts pass,
// pages with a real difference fail.
func TestNormalizeFortunes(t *testing.T) {
	const row11 = `<tr><td>11</td><td>&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;</td></tr>`
	canonical := strings.ReplaceAll(validFortunes, "\n", "")
	for _, tc := range []struct {
		name string
		page string
		ok   bool
	}{
		{"canonical", canonical, true},
		{"with line breaks and indentation", strings.ReplaceAll(validFortunes, "<tr>", "\n  <tr>"), true},
		{"upper-case tags and doctype", strings.NewReplacer("<!doctype html>", "<!DOCTYPE html>", "<td>", "<TD>", "</td>", "</TD>").Replace(canonical), true},
		{"attributes, meta and tbody", strings.NewReplacer("<head>", `<head><meta charset="utf-8">`, "<table>", `<table class="x"><tbody>`, "</table>", "</tbody></table>").Replace(canonical), true},
		{"numeric references (html/template)", strings.NewReplacer("&quot;", "&#34;", "&apos;", "&#39;", "4.33e+67", "4.33e&#43;67").Replace(canonical), true},
		{"&mdash; for the dash", strings.ReplaceAll(canonical, "—", "&mdash;"), true},
		{"quotes left raw in text", strings.NewReplacer("&quot;", `"`, "&apos;", "'").Replace(canonical), true},
		{"a comment and a script", strings.Replace(canonical, "<body>", "<body><!-- x --><script>var a = '<b>';</script>", 1), true},
		{"unescaped script", strings.Replace(canonical, row11, `<tr><td>11</td><td><script>alert("This should not be displayed in a browser alert box.");</script></td></tr>`, 1), false},
		{"the extra fortune missing", strings.Replace(canonical, "<tr><td>0</td><td>Additional fortune added at request time.</td></tr>", "", 1), false},
		{"unsorted", strings.Replace(canonical, row11, "", 1) + row11, false},
		{"Japanese as numeric references", strings.ReplaceAll(canonical, "フレームワークのベンチマーク", "&#12501;&#12524;"), false},
		{"space inside a cell", strings.Replace(canonical, "<td>4</td>", "<td> 4</td>", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := checkFortunes(&response{url: "/fortunes", body: []byte(tc.page)})
			if ok := len(ps) == 0; ok != tc.ok {
				t.Errorf("passed = %v, want %v; %v\nnormalised:\n%s", ok, tc.ok, ps, normalizeFortunes(tc.page))
			}
		})
	}
}
