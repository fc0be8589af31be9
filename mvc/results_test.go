package mvc_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/mvc"
)

// fakeEngine renders "layout|name|data" and fails for "broken".
type fakeEngine struct{}

func (fakeEngine) Name() string { return "fake" }
func (fakeEngine) Ext() string  { return ".html" }
func (fakeEngine) Load() error  { return nil }
func (fakeEngine) ExecuteWriter(w io.Writer, name, layout string, data any) error {
	if name == "broken" {
		return errors.New("template broken failed")
	}
	_, err := fmt.Fprintf(w, "%s|%s|%v", layout, name, data)
	return err
}

type point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type label string

// resultsController returns every kind of result.
type resultsController struct{}

func (c *resultsController) GetString() string { return "text" }
func (c *resultsController) GetLabel() label   { return "named string" }
func (c *resultsController) GetHTML(ctx core.Context) string {
	ctx.SetContentType("text/html; charset=utf-8")
	return "<b>html</b>"
}
func (c *resultsController) GetBytes() []byte   { return []byte("raw bytes") }
func (c *resultsController) GetCreated() int    { return http.StatusCreated }
func (c *resultsController) GetMissing() int    { return http.StatusNotFound }
func (c *resultsController) GetZero() int       { return 0 }
func (c *resultsController) GetBadStatus() int  { return 42 }
func (c *resultsController) GetNilError() error { return nil }
func (c *resultsController) GetForbidden() error {
	return core.NewHTTPError(http.StatusForbidden, "not yours")
}
func (c *resultsController) GetInternal() error          { return errors.New("secret database detail") }
func (c *resultsController) GetStruct() point            { return point{1, 2} }
func (c *resultsController) GetPointer() *point          { return &point{3, 4} }
func (c *resultsController) GetMap() map[string]int      { return map[string]int{"a": 1} }
func (c *resultsController) GetSlice() []point           { return []point{{5, 6}} }
func (c *resultsController) GetNumber() float64          { return 2.5 }
func (c *resultsController) GetNothing(ctx core.Context) { ctx.WriteString("by hand") }
func (c *resultsController) GetEmpty()                   {}
func (c *resultsController) GetView() mvc.View {
	return mvc.View{Name: "page.html", Layout: "main.html", Data: "d", Code: http.StatusAccepted}
}
func (c *resultsController) GetViewPtr() *mvc.View   { return &mvc.View{Name: "p.html"} }
func (c *resultsController) GetViewNil() *mvc.View   { return nil }
func (c *resultsController) GetViewNoName() mvc.View { return mvc.View{} }
func (c *resultsController) GetViewBroken() mvc.View { return mvc.View{Name: "broken"} }
func (c *resultsController) GetRedirect() mvc.Response {
	return mvc.Response{Path: "/elsewhere"}
}
func (c *resultsController) GetRedirectPermanent() mvc.Response {
	return mvc.Response{Path: "/moved", Code: http.StatusMovedPermanently}
}
func (c *resultsController) GetObject() mvc.Response {
	return mvc.Response{Code: http.StatusAccepted, Object: point{7, 8}}
}
func (c *resultsController) GetXML() *mvc.Response {
	return &mvc.Response{ContentType: "application/xml", Object: point{9, 10}}
}
func (c *resultsController) GetText() mvc.Response {
	return mvc.Response{Code: http.StatusTeapot, Text: "short and stout"}
}
func (c *resultsController) GetContent() mvc.Response {
	return mvc.Response{ContentType: "image/svg+xml", Content: []byte("<svg/>")}
}
func (c *resultsController) GetResponseErr() mvc.Response {
	return mvc.Response{Err: core.NewHTTPError(http.StatusConflict, "taken"), Text: "ignored"}
}
func (c *resultsController) GetPairErrBy(fail bool) (string, error) {
	if fail {
		return "", core.NewHTTPError(http.StatusBadGateway, "upstream")
	}
	return "pair ok", nil
}
func (c *resultsController) GetPairStatus() (point, int) { return point{1, 1}, http.StatusCreated }
func (c *resultsController) GetPairFoundBy(id int) (string, bool) {
	if id != 1 {
		return "", false
	}
	return "found 1", true
}
func (c *resultsController) GetAnyBy(kind string) any {
	switch kind {
	case "text":
		return "any text"
	case "json":
		return point{0, 1}
	case "status":
		return http.StatusNoContent
	case "label":
		return label("any label")
	case "error":
		return core.NewHTTPError(http.StatusGone, "gone")
	}
	return nil
}
func (c *resultsController) GetCustomErr() *customErr { return &customErr{} }
func (c *resultsController) GetCustomNil() *customErr { return nil }

type customErr struct{}

func (*customErr) Error() string   { return "custom" }
func (*customErr) StatusCode() int { return http.StatusPaymentRequired }

func TestResults(t *testing.T) {
	app := quietApp()
	if err := app.RegisterView(fakeEngine{}); err != nil {
		t.Fatal(err)
	}
	if err := mvc.Register(mvc.New(app.Group("/r")), new(resultsController)); err != nil {
		t.Fatal(err)
	}
	text := map[string]string{"Content-Type": "text/plain; charset=utf-8"}
	jsonCT := map[string]string{"Content-Type": "application/json; charset=utf-8"}
	check(t, app, []request{
		{method: "GET", target: "/r/string", status: 200, want: "text", headers: text},
		{method: "GET", target: "/r/label", status: 200, want: "named string", headers: text},
		{method: "GET", target: "/r/html", status: 200, want: "<b>html</b>", headers: map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		{method: "GET", target: "/r/bytes", status: 200, want: "raw bytes"},
		{method: "GET", target: "/r/created", status: 201, want: ""},
		{method: "GET", target: "/r/missing", status: 404, want: "Not Found"},
		{method: "GET", target: "/r/zero", status: 200, want: ""},
		{method: "GET", target: "/r/bad/status", status: 500, want: "Internal Server Error"},
		{method: "GET", target: "/r/nil/error", status: 200, want: ""},
		{method: "GET", target: "/r/forbidden", status: 403, want: "Forbidden: not yours"},
		{method: "GET", target: "/r/internal", status: 500, want: "Internal Server Error"},
		{method: "GET", target: "/r/struct", status: 200, want: `{"x":1,"y":2}`, headers: jsonCT},
		{method: "GET", target: "/r/pointer", status: 200, want: `{"x":3,"y":4}`, headers: jsonCT},
		{method: "GET", target: "/r/map", status: 200, want: `{"a":1}`, headers: jsonCT},
		{method: "GET", target: "/r/slice", status: 200, want: `[{"x":5,"y":6}]`, headers: jsonCT},
		{method: "GET", target: "/r/number", status: 200, want: `2.5`, headers: jsonCT},
		{method: "GET", target: "/r/nothing", status: 200, want: "by hand"},
		{method: "GET", target: "/r/empty", status: 200, want: ""},
		{method: "GET", target: "/r/view", status: 202, want: "main.html|page.html|d",
			headers: map[string]string{"Content-Type": "text/html; charset=utf-8"}},
		{method: "GET", target: "/r/view/ptr", status: 200, want: "|p.html|<nil>"},
		{method: "GET", target: "/r/view/nil", status: 200, want: ""},
		{method: "GET", target: "/r/view/no/name", status: 500, want: "Internal Server Error"},
		{method: "GET", target: "/r/view/broken", status: 500, want: "Internal Server Error"},
		{method: "GET", target: "/r/redirect", status: 302, contain: "/elsewhere", headers: map[string]string{"Location": "/elsewhere"}},
		{method: "GET", target: "/r/redirect/permanent", status: 301, contain: "/moved", headers: map[string]string{"Location": "/moved"}},
		{method: "GET", target: "/r/object", status: 202, want: `{"x":7,"y":8}`, headers: jsonCT},
		{method: "GET", target: "/r/xml", status: 200, contain: "<point><X>9</X><Y>10</Y></point>", headers: map[string]string{"Content-Type": "application/xml"}},
		{method: "GET", target: "/r/text", status: 418, want: "short and stout", headers: text},
		{method: "GET", target: "/r/content", status: 200, want: "<svg/>", headers: map[string]string{"Content-Type": "image/svg+xml"}},
		{method: "GET", target: "/r/response/err", status: 409, want: "Conflict: taken"},
		{method: "GET", target: "/r/pair/err/false", status: 200, want: "pair ok"},
		{method: "GET", target: "/r/pair/err/true", status: 502, want: "Bad Gateway: upstream"},
		{method: "GET", target: "/r/pair/status", status: 201, want: `{"x":1,"y":1}`, headers: jsonCT},
		{method: "GET", target: "/r/pair/found/1", status: 200, want: "found 1"},
		{method: "GET", target: "/r/pair/found/2", status: 404, want: "Not Found"},
		{method: "GET", target: "/r/any/text", status: 200, want: "any text", headers: text},
		{method: "GET", target: "/r/any/json", status: 200, want: `{"x":0,"y":1}`, headers: jsonCT},
		{method: "GET", target: "/r/any/status", status: 204, want: ""},
		{method: "GET", target: "/r/any/label", status: 200, want: "any label", headers: text},
		{method: "GET", target: "/r/any/error", status: 410, want: "Gone: gone"},
		{method: "GET", target: "/r/any/none", status: 200, want: ""},
		{method: "GET", target: "/r/custom/err", status: 402, want: "Payment Required: custom"},
		{method: "GET", target: "/r/custom/nil", status: 200, want: ""},
	})
}

// TestErrorDetails checks that the text of internal errors reaches the
// client only with core.WithErrorDetails.
func TestErrorDetails(t *testing.T) {
	app := quietApp(core.WithErrorDetails())
	if err := mvc.Register(mvc.New(app.Group("/r")), new(resultsController)); err != nil {
		t.Fatal(err)
	}
	check(t, app, []request{
		{method: "GET", target: "/r/internal", status: 500, want: "Internal Server Error: secret database detail"},
	})
}
