// This file compares a live response with an Endpoint of the contract. The
// comparison is exact (status, Content-Type, every body byte) because the
// suite's claim is that every stack does the same work; a mismatch is
// explained with the first differing line so it can be fixed, not guessed at.
package benchtest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxBody bounds how much of a response Verify reads: the expected bodies are
// a few kilobytes, so anything much larger is a mismatch anyway.
const maxBody = 1 << 20

// Verify sends ep's request to baseURL (such as "http://127.0.0.1:5000") with
// client and returns nil when the response has ep's status, Content-Type and
// body, and a Set-Cookie header if ep asks for one. The request carries no
// cookie, so a sessions app must start a new session and set its cookie.
func Verify(client *http.Client, baseURL string, ep Endpoint) error {
	_, err := VerifyWithCookies(client, baseURL, ep, nil)
	return err
}

// VerifyWithCookies is Verify for a request carrying cookies; it returns the
// cookies the response set, so a caller can send a session cookie back. A
// Set-Cookie header is only required when the request has no cookie.
func VerifyWithCookies(client *http.Client, baseURL string, ep Endpoint, cookies []*http.Cookie) ([]*http.Cookie, error) {
	var reqBody io.Reader
	if ep.RequestBody != nil {
		reqBody = bytes.NewReader(ep.RequestBody)
	}
	req, err := http.NewRequest(ep.Method, strings.TrimSuffix(baseURL, "/")+ep.Path, reqBody)
	if err != nil {
		return nil, err
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	for _, h := range ep.Headers {
		k, v, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var problems []string
	var r io.Reader = resp.Body
	if got := resp.Header.Get("Content-Encoding"); got != ep.ContentEncoding {
		problems = append(problems, fmt.Sprintf("Content-Encoding: got %q, want %q", got, ep.ContentEncoding))
	} else if got == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return nil, fmt.Errorf("%s %s: gzip body: %w", ep.Method, ep.Path, err)
		}
		r = zr
	}
	body, err := io.ReadAll(io.LimitReader(r, maxBody))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the body: %w", ep.Method, ep.Path, err)
	}
	for _, h := range ep.RequireHeaders {
		if resp.Header.Get(h) == "" {
			problems = append(problems, "missing response header "+h)
		}
	}
	if resp.StatusCode != ep.Status {
		problems = append(problems, fmt.Sprintf("status: got %d, want %d", resp.StatusCode, ep.Status))
	}
	if got := resp.Header.Get("Content-Type"); got != ep.ContentType {
		problems = append(problems, fmt.Sprintf("Content-Type: got %q, want %q", got, ep.ContentType))
	}
	if ep.SetCookie && len(cookies) == 0 && len(resp.Cookies()) == 0 {
		problems = append(problems, "Set-Cookie: missing on a request without a cookie")
	}
	if !bytes.Equal(body, ep.Body) {
		problems = append(problems, "body: "+Diff(ep.Body, body))
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s %s%s:\n  %s", ep.Method, baseURL, ep.Path, strings.Join(problems, "\n  "))
	}
	return resp.Cookies(), nil
}

// Diff describes how got differs from want: their lengths, the first
// differing byte and the line it is on, quoted so that whitespace shows.
// It returns "" when they are equal.
func Diff(want, got []byte) string {
	if bytes.Equal(want, got) {
		return ""
	}
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	line := 1 + bytes.Count(want[:i], []byte("\n"))
	return fmt.Sprintf("got %d bytes, want %d; first difference at byte %d (line %d):\n    want %q\n    got  %q",
		len(got), len(want), i, line, lineAt(want, i), lineAt(got, i))
}

// lineAt returns the line of b that holds offset i (clamped to b), with its
// newline, so a missing or extra newline is visible in the quoted output.
func lineAt(b []byte, i int) string {
	if i > len(b) {
		i = len(b)
	}
	start := bytes.LastIndexByte(b[:i], '\n') + 1
	end := len(b)
	if j := bytes.IndexByte(b[i:], '\n'); j >= 0 {
		end = i + j + 1
	}
	return string(b[start:end])
}
