package mvc

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/vireo-go/vireo/core"
)

type myID int

// shapes has one method per signature of interest.
type shapes struct{ calls int }

func (s *shapes) None()                                 { s.calls++ }
func (s *shapes) Str() string                           { return "str" }
func (s *shapes) Bytes() []byte                         { return []byte("bytes") }
func (s *shapes) Status() int                           { return 201 }
func (s *shapes) Err() error                            { return nil }
func (s *shapes) View() View                            { return View{Name: "v"} }
func (s *shapes) Resp() Response                        { return Response{Text: "resp"} }
func (s *shapes) IntStr(n int) string                   { return fmt.Sprint("int ", n) }
func (s *shapes) Int64Str(n int64) string               { return fmt.Sprint("int64 ", n) }
func (s *shapes) UintStr(n uint) string                 { return fmt.Sprint("uint ", n) }
func (s *shapes) Uint64Str(n uint64) string             { return fmt.Sprint("uint64 ", n) }
func (s *shapes) StrStr(v string) string                { return v }
func (s *shapes) BoolStr(b bool) string                 { return fmt.Sprint("bool ", b) }
func (s *shapes) CtxNone(ctx core.Context)              {}
func (s *shapes) NamedParam(id myID) string             { return "named" }
func (s *shapes) Int8Str(n int8) string                 { return "int8" }
func (s *shapes) Pair() (string, error)                 { return "", nil }
func (s *shapes) Two(a, b int) string                   { return "" }
func (s *shapes) JSON() map[string]int                  { return nil }
func (s *shapes) CtxStr(ctx core.Context, n int) string { return "" }

// classify classifies the parameters of method name of *shapes, binding
// path parameters from the end.
func classify(t *testing.T, name string) (reflect.Method, reflect.Type, []*input) {
	t.Helper()
	recv := reflect.ValueOf(new(shapes))
	m, ok := recv.Type().MethodByName(name)
	if !ok {
		t.Fatalf("no method %s", name)
	}
	ft := recv.Method(m.Index).Type()
	deps := newDependencies(nil)
	var ins []*input
	for i := 0; i < ft.NumIn(); i++ {
		in, ok := requestInput(ft.In(i), deps)
		if !ok {
			in = &input{kind: inPath, typ: ft.In(i)}
			in.bindPath(ft.NumIn() - i)
			in.placePath(ft.NumIn()) // the test routes have as many parameters as the method
		}
		ins = append(ins, in)
	}
	return m, ft, ins
}

func TestDirectCallerSelection(t *testing.T) {
	direct := map[string]bool{
		"None": true, "Str": true, "Bytes": true, "Status": true, "Err": true, "View": true, "Resp": true,
		"IntStr": true, "Int64Str": true, "UintStr": true, "Uint64Str": true, "StrStr": true, "BoolStr": true,
		"CtxNone":    true,
		"NamedParam": false, "Int8Str": false, "Pair": false, "Two": false, "JSON": false, "CtxStr": false,
	}
	for name, want := range direct {
		m, ft, ins := classify(t, name)
		if got := directCaller[shapes](m, ft, ins) != nil; got != want {
			t.Errorf("%s: direct %v, want %v", name, got, want)
		}
	}
}

// TestDirectMatchesReflect runs every shape with a direct caller both ways,
// directly and through reflect.Value.Call, and compares the responses.
func TestDirectMatchesReflect(t *testing.T) {
	tests := []struct{ method, path string }{
		{"None", "/x"}, {"Str", "/x"}, {"Bytes", "/x"}, {"Status", "/x"}, {"Err", "/x"},
		{"View", "/x"}, {"Resp", "/x"},
		{"IntStr", "/x/-12"}, {"IntStr", "/x/nope"}, {"Int64Str", "/x/9223372036854775807"},
		{"UintStr", "/x/7"}, {"UintStr", "/x/-7"}, {"Uint64Str", "/x/18446744073709551615"},
		{"StrStr", "/x/hello"}, {"BoolStr", "/x/true"}, {"BoolStr", "/x/maybe"},
		{"CtxNone", "/x"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			m, ft, ins := classify(t, tt.method)
			direct := directCaller[shapes](m, ft, ins)
			if direct == nil {
				t.Fatal("no direct caller")
			}
			write, err := resultsWriterFor(ft)
			if err != nil {
				t.Fatal(err)
			}
			s := new(shapes)
			serve := func(h core.Handler) *httptest.ResponseRecorder {
				app := core.New()
				app.Get("/x", h)
				app.Get("/x/{v}", h)
				rec := httptest.NewRecorder()
				app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
				return rec
			}
			got := serve(func(ctx core.Context) { direct(ctx, s) })
			mv := reflect.ValueOf(s).Method(m.Index)
			want := serve(func(ctx core.Context) { callReflect(ctx, mv, ins, write) })
			if got.Code != want.Code || got.Body.String() != want.Body.String() ||
				got.Header().Get("Content-Type") != want.Header().Get("Content-Type") {
				t.Errorf("direct: %d %q %q; reflect: %d %q %q",
					got.Code, got.Header().Get("Content-Type"), got.Body, want.Code, want.Header().Get("Content-Type"), want.Body)
			}
		})
	}
	t.Run("the receiver reaches the method", func(t *testing.T) {
		m, ft, ins := classify(t, "None")
		s := new(shapes)
		call := directCaller[shapes](m, ft, ins)
		call(core.Context{}, s)
		call(core.Context{}, s)
		if s.calls != 2 {
			t.Fatalf("None called %d times on the receiver, want 2", s.calls)
		}
	})
}
