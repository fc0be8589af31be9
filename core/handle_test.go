package core

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

// gateSkip are the Context methods TestGateUnpinsEveryMethod does not call
// with zero arguments, and why.
var gateSkip = map[string]string{
	"OnDone":          "a nil hook panics after the chain, outside any call",
	"OnBeforeWrite":   "a nil hook panics after the chain, outside any call",
	"NextWithTimeout": "runs the chain in a goroutine of its own",
}

// TestGateUnpinsEveryMethod calls every exported method of Context, and
// of the Params and Values it hands out, on a live handle, each in a
// request of its own, and checks that the call left no pin behind: the
// methods that unpin inline do it on every path, and those whose body
// panics (a nil cookie, a writer that panics) unpin in their defer. A pin
// left behind would make release wait releaseWait and give the state up.
func TestGateUnpinsEveryMethod(t *testing.T) {
	ctxType := reflect.TypeFor[Context]()
	calls := map[string]func(c Context){}
	for i := 0; i < ctxType.NumMethod(); i++ {
		m := ctxType.Method(i)
		if _, skip := gateSkip[m.Name]; skip {
			continue
		}
		calls[m.Name] = func(c Context) { callZero(c, m) }
	}
	ps := func(c Context) Params { return c.Params() }
	calls["Params.Get"] = func(c Context) { ps(c).Get("id") }
	calls["Params.Lookup"] = func(c Context) { ps(c).Lookup("id") }
	calls["Params.Len"] = func(c Context) { ps(c).Len() }
	calls["Params.At"] = func(c Context) { ps(c).At(0); ps(c).At(7) }
	calls["Params.All"] = func(c Context) {
		for range ps(c).All() {
		}
	}
	calls["Values.Set"] = func(c Context) { c.Values().Set("k", 1); c.Values().Set("k", 2) }
	calls["Values.Get"] = func(c Context) { c.Values().Set("k", 1); c.Values().Get("k"); c.Values().Get("none") }
	calls["Values.Delete"] = func(c Context) { c.Values().Set("k", 1); c.Values().Delete("k"); c.Values().Delete("k") }
	calls["Values.Len"] = func(c Context) { c.Values().Len() }
	calls["Values.Range"] = func(c Context) {
		c.Values().Set("k", 1)
		c.Values().Range(func(string, any) bool { panic("in Range") })
	}
	calls["WriteString through a panicking writer"] = func(c Context) {
		c.SetResponseWriter(panicWriter{c.ResponseWriter()})
		c.WriteString("x")
	}
	calls["SetResponseHeaders with a panicking update"] = func(c Context) {
		c.SetResponseHeaders(NewHeaderField("X-A", "1"), NewHeaderFieldFunc("Vary", func([]string) []string { panic("in update") }))
	}
	calls["SetStatus through a panicking writer"] = func(c Context) {
		c.SetResponseWriter(panicWriter{c.ResponseWriter()})
		c.SetStatus(http.StatusTeapot)
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			app := quietApp()
			var pins int32 = -1
			app.Get("/x/{id}", func(c Context) {
				defer func() {
					recover() // a zero argument may panic: its pin must still be gone
					pins = c.s.pins.Load()
				}()
				call(c)
			})
			app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x/1?q=v", nil))
			if pins != 0 {
				t.Errorf("%s left %d pins", name, pins)
			}
		})
	}
}

// callZero calls method m of c with zero arguments ("default" for
// strings), as callStale does on a stale handle.
func callZero(c Context, m reflect.Method) {
	ft := m.Type
	args := []reflect.Value{reflect.ValueOf(c)}
	for i := 1; i < ft.NumIn(); i++ {
		in := ft.In(i)
		switch {
		case ft.IsVariadic() && i == ft.NumIn()-1:
			args = append(args, reflect.Zero(in))
		case in.Kind() == reflect.String:
			args = append(args, reflect.ValueOf("default"))
		default:
			args = append(args, reflect.Zero(in))
		}
	}
	if ft.IsVariadic() {
		m.Func.CallSlice(args)
	} else {
		m.Func.Call(args)
	}
}

// panicWriter is middleware's ResponseWriter that panics on every write
// and status.
type panicWriter struct{ http.ResponseWriter }

func (panicWriter) Write([]byte) (int, error) { panic("panicWriter.Write") }
func (panicWriter) WriteHeader(int)           { panic("panicWriter.WriteHeader") }
