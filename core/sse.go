// Server-sent events.
//
// SSE prepares a text/event-stream response and returns an EventStream
// whose Send writes one event and flushes it. Each data line gets its own
// "data:" field, so data may contain newlines; event names and IDs may not.
// An EventStream is a handle like its Context: kept past the request, its
// writes fail with ErrContextReleased.

package core

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// EventStream writes server-sent events; see Context.SSE.
type EventStream struct {
	c  Context
	rc *http.ResponseController
}

// ErrInvalidEventField is returned by Send for an event name or ID with a
// line break.
var ErrInvalidEventField = errors.New("vireo: SSE event name or id with a line break")

// SSE starts a server-sent events response: it sets Content-Type
// text/event-stream, Cache-Control no-cache and X-Accel-Buffering no (for
// nginx), sends the status and flushes. It fails when the writer cannot
// flush (under a request timeout, for example). The stream ends when the
// handler returns; watch Request().Context().Done() for the client leaving.
func (c Context) SSE() (*EventStream, error) {
	return with2(c, nil, ErrContextReleased, func(s *state) (*EventStream, error) {
		return s.startSSE(c)
	})
}

func (c *state) startSSE(ctx Context) (*EventStream, error) {
	h := c.out.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Del("Content-Length")
	rc := http.NewResponseController(c.out)
	c.out.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil {
		return nil, err
	}
	return &EventStream{c: ctx, rc: rc}, nil
}

// Send writes one event (event and id may be "") and flushes it. Every
// line of data (split at CRLF, LF or CR) becomes a data line.
func (s *EventStream) Send(event, id, data string) error {
	if strings.ContainsAny(event, "\r\n") || strings.ContainsAny(id, "\r\n") {
		return ErrInvalidEventField
	}
	var b strings.Builder
	if event != "" {
		b.WriteString("event: " + event + "\n")
	}
	if id != "" {
		b.WriteString("id: " + id + "\n")
	}
	// CRLF, LF and a lone CR all end a line in the SSE format: each becomes
	// a data line of its own, so data cannot end the event or add a field.
	data = strings.ReplaceAll(strings.ReplaceAll(data, "\r\n", "\n"), "\r", "\n")
	for _, line := range strings.Split(data, "\n") {
		b.WriteString("data: " + line + "\n")
	}
	b.WriteByte('\n')
	return s.write(b.String())
}

// Comment writes a comment line (a keep-alive for proxies) and flushes it.
func (s *EventStream) Comment(text string) error {
	return s.write(": " + lineBreaks.Replace(text) + "\n\n")
}

// lineBreaks turns the line breaks of a comment into spaces; built once, a
// strings.Replacer being safe for concurrent use.
var lineBreaks = strings.NewReplacer("\r", " ", "\n", " ")

// Retry tells the client how long to wait before reconnecting.
func (s *EventStream) Retry(d time.Duration) error {
	return s.write("retry: " + strconv.FormatInt(d.Milliseconds(), 10) + "\n\n")
}

// write writes p and flushes it, through the gate of the stream's Context:
// a stream kept past its request fails with ErrContextReleased.
func (s *EventStream) write(p string) error {
	return with(s.c, ErrContextReleased, func(c *state) error {
		if _, err := c.writeString(p); err != nil {
			return err
		}
		return s.rc.Flush()
	})
}
