// This file compares a fortunes page with TechEmpower's valid page after
// their normalisation (toolset/test_types/fortune/fortune_html_parser.py):
//
//   - the page is read as a stream of tags, declarations, character and
//     entity references and text; comments are dropped;
//   - a tag keeps only its lower-cased name (attributes are dropped); a
//     self-closing tag counts as its start and end tag;
//   - meta, link, script, thead and tbody tags are dropped, and so is
//     everything between <script> and </script>;
//   - text that is only white space is dropped; in other text ', " and >
//     become &apos;, &quot; and &gt; (they need no escaping between tags);
//   - the numeric references of ", ', +, >, <, /, ( and ) become &quot;,
//     &apos;, +, &gt;, &lt;, /, ( and ); any other numeric reference is
//     dropped (so a message written as numeric references fails); &mdash;
//     becomes —, every other named reference stays as written;
//   - a line break follows <html>, <table>, </head> and each </tr>.
//
// The result must equal validFortunes byte for byte; a mismatch is
// reported with the first line that differs.
package tfb

import (
	"fmt"
	"strings"
)

// validFortunes is the normalised form of the one valid page: the 12 rows
// and the one added at request time, sorted by message, escaped.
const validFortunes = `<!doctype html><html>
<head><title>Fortunes</title></head>
<body><table>
<tr><th>id</th><th>message</th></tr>
<tr><td>11</td><td>&lt;script&gt;alert(&quot;This should not be displayed in a browser alert box.&quot;);&lt;/script&gt;</td></tr>
<tr><td>4</td><td>A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1</td></tr>
<tr><td>5</td><td>A computer program does what you tell it to do, not what you want it to do.</td></tr>
<tr><td>2</td><td>A computer scientist is someone who fixes things that aren&apos;t broken.</td></tr>
<tr><td>8</td><td>A list is only as strong as its weakest link. — Donald Knuth</td></tr>
<tr><td>0</td><td>Additional fortune added at request time.</td></tr>
<tr><td>3</td><td>After enough decimal places, nobody gives a damn.</td></tr>
<tr><td>7</td><td>Any program that runs right is obsolete.</td></tr>
<tr><td>10</td><td>Computers make very fast, very accurate mistakes.</td></tr>
<tr><td>6</td><td>Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen</td></tr>
<tr><td>9</td><td>Feature: A bug with seniority.</td></tr>
<tr><td>1</td><td>fortune: No such file or directory</td></tr>
<tr><td>12</td><td>フレームワークのベンチマーク</td></tr>
</table></body></html>`

// numericRefs maps the accepted numeric references (lower-cased, without
// "&#" and ";") to their normal form.
var numericRefs = map[string]string{
	"34": "&quot;", "034": "&quot;", "x22": "&quot;",
	"39": "&apos;", "039": "&apos;", "x27": "&apos;",
	"43": "+", "043": "+", "x2b": "+",
	"62": "&gt;", "062": "&gt;", "x3e": "&gt;",
	"60": "&lt;", "060": "&lt;", "x3c": "&lt;",
	"47": "/", "047": "/", "x2f": "/",
	"40": "(", "040": "(", "x28": "(",
	"41": ")", "041": ")", "x29": ")",
}

var ignoredTags = map[string]bool{"meta": true, "link": true, "script": true, "thead": true, "tbody": true}

// normalizer collects the normal form.
type normalizer struct {
	out      strings.Builder
	inScript bool
}

func (n *normalizer) emit(s string, tag string) {
	if tag == "<script>" {
		n.inScript = true
	}
	if n.inScript {
		if tag == "</script>" {
			n.inScript = false
		}
		return
	}
	name := strings.Trim(tag, "</>")
	if tag != "" && ignoredTags[name] {
		return
	}
	n.out.WriteString(s)
}

func (n *normalizer) start(name string) {
	t := "<" + name + ">"
	n.emit(t, t)
	if name == "table" || name == "html" {
		n.emit("\n", "")
	}
}

func (n *normalizer) end(name string) {
	t := "</" + name + ">"
	n.emit(t, t)
	if name == "tr" || name == "head" {
		n.emit("\n", "")
	}
}

func (n *normalizer) text(s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	s = strings.ReplaceAll(s, "'", "&apos;")
	s = strings.ReplaceAll(s, `"`, "&quot;")
	s = strings.ReplaceAll(s, ">", "&gt;")
	n.emit(s, "")
}

// normalizeFortunes returns the normal form of page.
func normalizeFortunes(page string) string {
	var n normalizer
	for len(page) > 0 {
		switch {
		case strings.HasPrefix(page, "<!--"):
			end := strings.Index(page, "-->")
			if end < 0 {
				return n.out.String()
			}
			page = page[end+3:]
		case strings.HasPrefix(page, "<!"):
			end := strings.IndexByte(page, '>')
			if end < 0 {
				return n.out.String()
			}
			n.emit("<!"+strings.ToLower(page[2:end])+">", "")
			page = page[end+1:]
		case strings.HasPrefix(page, "</"):
			end := strings.IndexByte(page, '>')
			if end < 0 {
				return n.out.String()
			}
			n.end(tagName(page[2:end]))
			page = page[end+1:]
		case page[0] == '<' && len(page) > 1 && isLetter(page[1]):
			end := tagEnd(page)
			if end < 0 {
				return n.out.String()
			}
			inner := page[1:end]
			name := tagName(inner)
			n.start(name)
			if strings.HasSuffix(inner, "/") {
				n.end(name)
			}
			page = page[end+1:]
		case page[0] == '&':
			ref, rest, ok := reference(page)
			if !ok {
				n.text("&")
				page = page[1:]
				continue
			}
			switch {
			case strings.HasPrefix(ref, "#"):
				if s, ok := numericRefs[strings.ToLower(ref[1:])]; ok {
					n.emit(s, "")
				}
			case ref == "mdash":
				n.emit("—", "")
			default:
				n.emit("&"+ref+";", "")
			}
			page = rest
		default:
			end := strings.IndexAny(page[1:], "<&")
			if end < 0 {
				n.text(page)
				return n.out.String()
			}
			n.text(page[:end+1])
			page = page[end+1:]
		}
	}
	return n.out.String()
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// tagName returns the lower-cased name at the start of a tag's inside.
func tagName(inner string) string {
	end := strings.IndexAny(inner, " \t\r\n/>")
	if end < 0 {
		end = len(inner)
	}
	return strings.ToLower(inner[:end])
}

// tagEnd returns the index of the '>' that ends the start tag at s[0],
// skipping quoted attribute values, or -1.
func tagEnd(s string) int {
	var quote byte
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return i
		}
	}
	return -1
}

// reference splits "&name;rest" or "&#nn;rest" into the reference and the
// rest; ok is false when s does not start with one.
func reference(s string) (ref, rest string, ok bool) {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 32 {
		return "", s, false
	}
	ref = s[1:end]
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		if !(isLetter(c) || c >= '0' && c <= '9' || i == 0 && c == '#') {
			return "", s, false
		}
	}
	return ref, s[end+1:], true
}

func checkFortunes(r *response) []Problem {
	if len(r.body) == 0 {
		return []Problem{{Fail, "body", r.url, "empty response"}}
	}
	got := normalizeFortunes(string(r.body))
	if got == validFortunes {
		return nil
	}
	want, have := strings.Split(validFortunes, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(want) || i < len(have); i++ {
		var w, h string
		if i < len(want) {
			w = want[i]
		}
		if i < len(have) {
			h = have[i]
		}
		if w != h {
			return []Problem{{Fail, "fortunes page", r.url, fmt.Sprintf("line %d of the normalised page is %q, should be %q", i+1, h, w)}}
		}
	}
	return nil
}
