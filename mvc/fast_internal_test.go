package mvc

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

type myID int

// shapes has one method per signature of interest.
type shapes struct{ calls int }

func (s *shapes) None()                                  { s.calls++ }
func (s *shapes) Str() string                            { return "str" }
func (s *shapes) Bytes() []byte                          { return []byte("bytes") }
func (s *shapes) Status() int                            { return 201 }
func (s *shapes) Err() error                             { return nil }
func (s *shapes) View() View                             { return View{Name: "v"} }
func (s *shapes) Resp() Response                         { return Response{Text: "resp"} }
func (s *shapes) IntStr(n int) string                    { return "int" }
func (s *shapes) Int64Str(n int64) string                { return "int64" }
func (s *shapes) UintStr(n uint) string                  { return "uint" }
func (s *shapes) Uint64Str(n uint64) string              { return "uint64" }
func (s *shapes) StrStr(v string) string                 { return v }
func (s *shapes) BoolStr(b bool) string                  { return "bool" }
func (s *shapes) CtxNone(ctx *core.Context)              {}
func (s *shapes) SessStr(ss *sessions.Session) string    { return "session" }
func (s *shapes) NamedParam(id myID) string              { return "named" }
func (s *shapes) Int8Str(n int8) string                  { return "int8" }
func (s *shapes) Pair() (string, error)                  { return "", nil }
func (s *shapes) Two(a, b int) string                    { return "" }
func (s *shapes) JSON() map[string]int                   { return nil }
func (s *shapes) CtxStr(ctx *core.Context, n int) string { return "" }

func TestFastCallerSelection(t *testing.T) {
	fast := map[string]bool{
		"None": true, "Str": true, "Bytes": true, "Status": true, "Err": true, "View": true, "Resp": true,
		"IntStr": true, "Int64Str": true, "UintStr": true, "Uint64Str": true, "StrStr": true, "BoolStr": true,
		"CtxNone": true, "SessStr": true,
		"NamedParam": false, "Int8Str": false, "Pair": false, "Two": false, "JSON": false, "CtxStr": false,
	}
	recv := reflect.ValueOf(new(shapes))
	deps := newDependencies(nil)
	for name, want := range fast {
		m, ok := recv.Type().MethodByName(name)
		if !ok {
			t.Fatalf("no method %s", name)
		}
		ft := recv.Method(m.Index).Type()
		var ins []*input
		for i := 0; i < ft.NumIn(); i++ {
			in, ok := requestInput(ft.In(i), deps)
			if !ok {
				in = &input{kind: inPath, typ: ft.In(i)}
				in.bindPath(i)
			}
			ins = append(ins, in)
		}
		if got := fastCaller(m, ft, ins) != nil; got != want {
			t.Errorf("%s: specialised %v, want %v", name, got, want)
		}
	}
}

// TestFastCallerCalls runs the specialised callers on a live receiver and
// checks that the receiver and the argument reach the method.
func TestFastCallerCalls(t *testing.T) {
	s := new(shapes)
	recv := reflect.ValueOf(s)
	m, _ := recv.Type().MethodByName("None")
	call := fastCaller(m, recv.Method(m.Index).Type(), nil)
	call(nil, recv.UnsafePointer())
	call(nil, recv.UnsafePointer())
	if s.calls != 2 {
		t.Fatalf("None called %d times on the receiver, want 2", s.calls)
	}

	app := core.New()
	m, _ = recv.Type().MethodByName("StrStr")
	in := &input{kind: inPath, typ: reflect.TypeOf("")}
	in.bindPath(0)
	call = fastCaller(m, recv.Method(m.Index).Type(), []*input{in})
	app.Get("/echo/{v}", func(ctx *core.Context) { call(ctx, recv.UnsafePointer()) })
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/echo/hello", nil))
	if rec.Body.String() != "hello" {
		t.Errorf("StrStr wrote %q, want %q", rec.Body.String(), "hello")
	}
}
