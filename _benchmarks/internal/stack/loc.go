// Lines of code of an app: the non-blank lines of its source and template
// files that are not entirely comment. Tests, lock files, manifests
// (package.json, *.csproj), dependencies (node_modules) and build output
// (bin, obj) are not the app's code and are left out.
//
// Comments are recognised per file type by their line markers (// ...) and
// block delimiters (/* */, <!-- -->, @* *@, {# #}, <%# %>). This is a line
// classifier, not a parser: a comment opener inside a string literal would be
// taken for a comment, which the benchmark apps do not contain.
package stack

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type commentSyntax struct {
	line   []string    // line comment markers
	blocks [][2]string // block comment open/close pairs
}

var (
	cLike  = commentSyntax{line: []string{"//"}, blocks: [][2]string{{"/*", "*/"}}}
	markup = commentSyntax{blocks: [][2]string{{"<!--", "-->"}}}

	// syntaxByExt lists the file types counted as an app's code.
	syntaxByExt = map[string]commentSyntax{
		".go":     cLike,
		".js":     cLike,
		".mjs":    cLike,
		".cjs":    cLike,
		".ts":     cLike,
		".cs":     cLike,
		".css":    {blocks: [][2]string{{"/*", "*/"}}},
		".html":   {blocks: [][2]string{{"<!--", "-->"}, {"{{/*", "*/}}"}, {"{#", "#}"}}},
		".tmpl":   {blocks: [][2]string{{"<!--", "-->"}, {"{{/*", "*/}}"}}},
		".django": {blocks: [][2]string{{"<!--", "-->"}, {"{#", "#}"}}},
		".ejs":    {blocks: [][2]string{{"<!--", "-->"}, {"<%#", "%>"}}},
		".cshtml": {blocks: [][2]string{{"<!--", "-->"}, {"@*", "*@"}}},
		".pug":    {line: []string{"//-"}},
		".hbs":    markup,
	}
)

// skippedDirs are never an app's own code.
var skippedDirs = map[string]bool{"node_modules": true, "bin": true, "obj": true, ".git": true}

// LinesOfCode counts the code lines of the app in dir and returns the total
// and the counted files relative to dir.
func LinesOfCode(dir string) (int, []string, error) {
	total := 0
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && skippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), "_test.go") || strings.Contains(d.Name(), ".test.") {
			return nil
		}
		syn, ok := syntaxByExt[filepath.Ext(d.Name())]
		if !ok {
			return nil
		}
		n, err := countFile(path, syn)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files = append(files, rel)
		total += n
		return nil
	})
	sort.Strings(files)
	return total, files, err
}

func countFile(path string, syn commentSyntax) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	closer := "" // the close delimiter of the block comment we are in
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var code bool
		code, closer = classifyLine(sc.Text(), syn, closer)
		if code {
			n++
		}
	}
	return n, sc.Err()
}

// classifyLine reports whether line holds code outside comments, given the
// block comment it starts in (closer, "" for none), and returns the block
// comment it ends in.
func classifyLine(line string, syn commentSyntax, closer string) (bool, string) {
	code := false
	for {
		if closer != "" {
			i := strings.Index(line, closer)
			if i < 0 {
				return code, closer
			}
			line, closer = line[i+len(closer):], ""
		}
		// Find the earliest comment start in the rest of the line.
		first, isLine, opener := -1, false, [2]string{}
		for _, m := range syn.line {
			if i := strings.Index(line, m); i >= 0 && (first < 0 || i < first) {
				first, isLine = i, true
			}
		}
		for _, b := range syn.blocks {
			if i := strings.Index(line, b[0]); i >= 0 && (first < 0 || i < first) {
				first, isLine, opener = i, false, b
			}
		}
		if first < 0 {
			return code || strings.TrimSpace(line) != "", ""
		}
		if strings.TrimSpace(line[:first]) != "" {
			code = true
		}
		if isLine {
			return code, ""
		}
		line, closer = line[first+len(opener[0]):], opener[1]
	}
}
