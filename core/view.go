// Views.
//
// View renders through the registered ViewEngine into a pooled buffer and
// copies it to the client only when rendering succeeded: a missing
// template, an execution error or a panic in a template func becomes a 500
// with nothing of the page on the wire, and the error is logged with the
// template's name.
//
// The buffers are the encoded bodies' (bodyBuffers, render.go).

package core

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
)

// ViewEngine is what View needs from a template engine. The engines of the
// view package implement it; core declares it so that an application
// without views links no template engine.
type ViewEngine interface {
	// Name returns a short name of the engine, such as "html", for messages.
	Name() string
	// Load reads and parses the templates; RegisterView calls it once.
	Load() error
	// ExecuteWriter renders the template called name into w, wrapped in
	// layout: "" selects the engine's default layout, the view package's
	// NoLayout none.
	ExecuteWriter(w io.Writer, name, layout string, data any) error
}

// ErrNoViewEngine is returned by View when no engine was registered.
var ErrNoViewEngine = errors.New("vireo: no view engine registered (use RegisterView)")

// RegisterView sets the application's view engine and loads its templates;
// the load error (a parse error names file and line) is returned and also
// reported by Build.
func (app *Application) RegisterView(engine ViewEngine) error {
	if engine == nil {
		return app.recordError("", "", errors.New("RegisterView: nil engine"))
	}
	if err := engine.Load(); err != nil {
		return app.recordError("", "", fmt.Errorf("loading %s views: %w", engine.Name(), err))
	}
	app.view = engine
	return nil
}

// ViewEngine returns the registered view engine, or nil.
func (app *Application) ViewEngine() ViewEngine { return app.view }

// SetViewLayout overrides the layout of the next View call in this request;
// the view package's NoLayout renders without one.
func (c Context) SetViewLayout(layout string) {
	run(c, func(s *state) {
		s.setViewLayout(layout)
	})
}

func (c *state) setViewLayout(layout string) {
	c.viewLayout = layout
}

// SetViewData sets a value that View merges into its data, so middleware
// can provide data (a user, a CSRF token) that every page sees. When View's
// data is a map[string]any, its own keys win; when it is nil, the map of
// SetViewData's values is the data; other data types are rendered as
// given, and the values are then available only through ViewData.
func (c Context) SetViewData(key string, value any) {
	run(c, func(s *state) {
		s.setViewData(key, value)
	})
}

func (c *state) setViewData(key string, value any) {
	if c.viewData == nil {
		c.viewData = make(map[string]any)
	}
	c.viewData[key] = value
}

// ViewData returns the values set with SetViewData in this request. The
// map belongs to the Context and is cleared when the request ends: copy
// what must outlive the handler.
func (c Context) ViewData() map[string]any {
	return with(c, nil, func(s *state) map[string]any {
		return s.viewDataMap()
	})
}

func (c *state) viewDataMap() map[string]any {
	return c.viewData
}

// View renders the named template with data and writes it as text/html.
// On failure nothing is written but the error status: the error is logged
// and the chain is stopped with a 500 whose cause StopError returns.
func (c Context) View(name string, data any) {
	run(c, func(s *state) {
		s.view(name, data)
	})
}

func (c *state) view(name string, data any) {
	engine := c.app.view
	if engine == nil {
		c.stopWithError(&HTTPError{Code: http.StatusInternalServerError, Err: ErrNoViewEngine})
		return
	}
	data = c.mergeViewData(data)
	buf := bodyBuffers.Get()
	defer bodyBuffers.Put(buf)
	if err := executeView(engine, buf, name, c.viewLayout, data); err != nil {
		c.app.logger.Error("vireo: rendering view", "template", name, "layout", c.viewLayout, "err", err)
		c.stopWithError(&HTTPError{Code: http.StatusInternalServerError, Err: err})
		return
	}
	c.writeBuffered(textHTMLUTF8, buf.Bytes())
}

func (c *state) mergeViewData(data any) any {
	if len(c.viewData) == 0 {
		return data
	}
	switch d := data.(type) {
	case nil:
		return c.viewData
	case map[string]any:
		merged := make(map[string]any, len(d)+len(c.viewData))
		for k, v := range c.viewData {
			merged[k] = v
		}
		for k, v := range d {
			merged[k] = v
		}
		return merged
	}
	return data
}

// executeView runs the engine, turning a panic into an error.
func executeView(engine ViewEngine, buf *bytes.Buffer, name, layout string, data any) (err error) {
	defer func() {
		if rec := recover(); rec != nil {
			err = fmt.Errorf("view %q: panic: %v\n%s", name, rec, debug.Stack())
		}
	}()
	return engine.ExecuteWriter(buf, name, layout, data)
}
