// Tests of the lines-of-code count: comment and blank line classification per
// file type, and which files of an app directory are counted.
package stack

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestClassifyLine(t *testing.T) {
	tests := []struct {
		line       string
		syn        commentSyntax
		closer     string
		wantCode   bool
		wantCloser string
	}{
		{"x := 1", cLike, "", true, ""},
		{"   ", cLike, "", false, ""},
		{"// comment", cLike, "", false, ""},
		{"x := 1 // trailing", cLike, "", true, ""},
		{"/* start", cLike, "", false, "*/"},
		{"inside", cLike, "*/", false, "*/"},
		{"end */ y := 2", cLike, "*/", true, ""},
		{"end */", cLike, "*/", false, ""},
		{"/* a */ /* b */", cLike, "", false, ""},
		{"/* a */ x /* b", cLike, "", true, "*/"},
		{`s := "http://x"`, cLike, "", true, ""},
		{"<!-- note -->", markup, "", false, ""},
		{"<p>hi</p> <!-- open", markup, "", true, "-->"},
		{"@* razor *@", syntaxByExt[".cshtml"], "", false, ""},
		{"<%# ejs comment %>", syntaxByExt[".ejs"], "", false, ""},
		{"{# django #}", syntaxByExt[".django"], "", false, ""},
		{"{{/* go template */}}", syntaxByExt[".html"], "", false, ""},
	}
	for _, tt := range tests {
		code, closer := classifyLine(tt.line, tt.syn, tt.closer)
		if code != tt.wantCode || closer != tt.wantCloser {
			t.Errorf("classifyLine(%q, in %q) = %v, %q; want %v, %q", tt.line, tt.closer, code, closer, tt.wantCode, tt.wantCloser)
		}
	}
}

func TestLinesOfCode(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.go":                     "// Package main.\npackage main\n\n/*\nblock\n*/\nfunc main() {} // run\n",
		"main_test.go":                "package main\n",
		"server.js":                   "'use strict';\n// comment\nconst x = 1;\n",
		"views/index.ejs":             "<%# note %>\n<p><%= title %></p>\n",
		"Program.cs":                  "var b = 1;\n",
		"package.json":                `{"name":"x"}`,
		"package-lock.json":           `{}`,
		"App.csproj":                  "<Project/>",
		"node_modules/express/i.js":   "module.exports = 1;\n",
		"bin/Release/x.cs":            "class X {}\n",
		"obj/project.assets.json":     "{}",
		"Views/Shared/_Layout.cshtml": "@* layout *@\n<html>@RenderBody()</html>\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n, counted, err := LinesOfCode(dir)
	if err != nil {
		t.Fatal(err)
	}
	wantFiles := []string{"Program.cs", "Views/Shared/_Layout.cshtml", "main.go", "server.js", "views/index.ejs"}
	if !reflect.DeepEqual(counted, wantFiles) {
		t.Errorf("counted files %v, want %v", counted, wantFiles)
	}
	// main.go 2, server.js 2, index.ejs 1, Program.cs 1, _Layout.cshtml 1.
	if n != 7 {
		t.Errorf("LinesOfCode = %d, want 7", n)
	}
}
