package core

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
)

// staleExceptions are the Context methods whose stale result is not the
// zero value or ErrContextReleased, with what they return instead. A new
// method is held to the rule unless it is added here, with its reason in
// its documentation.
var staleExceptions = map[string]func(t *testing.T, app *Application, out []reflect.Value) bool{
	"App": func(t *testing.T, app *Application, out []reflect.Value) bool { // stays valid after the request
		return out[0].Interface() == app
	},
	"Logger": func(t *testing.T, app *Application, out []reflect.Value) bool { // the application's logger
		return out[0].Interface() == app.logger
	},
	"IsStopped": func(t *testing.T, app *Application, out []reflect.Value) bool { // a request that is over is stopped
		return out[0].Bool()
	},
	"ResponseHeader": func(t *testing.T, app *Application, out []reflect.Value) bool { // a fresh map, unused
		h, _ := out[0].Interface().(http.Header)
		return h != nil && len(h) == 0
	},
	"ResponseWriter": func(t *testing.T, app *Application, out []reflect.Value) bool { // a writer that refuses
		w, _ := out[0].Interface().(http.ResponseWriter)
		_, err := w.Write([]byte("LEAKED"))
		return errors.Is(err, ErrContextReleased)
	},
	"Values": func(t *testing.T, app *Application, out []reflect.Value) bool { // a store of the stale handle: empty
		v := out[0].Interface().(Values)
		v.Set("k", "LEAKED")
		return v.Len() == 0 && v.Get("k") == nil
	},
	"Params": func(t *testing.T, app *Application, out []reflect.Value) bool { // parameters of the stale handle: none
		ps := out[0].Interface().(Params)
		return ps.Len() == 0 && ps.Get("id") == ""
	},
	"QueryDefault": func(t *testing.T, app *Application, out []reflect.Value) bool { // the default, as for a missing parameter
		return out[0].String() == "default"
	},
	"RequestContext": func(t *testing.T, app *Application, out []reflect.Value) bool { // a context that is done, carrying nothing
		ctx, _ := out[0].Interface().(context.Context)
		return ctx != nil && ctx.Err() != nil && ctx.Value(contextKey{}) == nil
	},
}

// callStale calls method m of the stale handle c with zero arguments (and
// "default" for string arguments) and checks its results against the rule:
// zero values, ErrContextReleased for errors, or the listed exception.
func callStale(t *testing.T, app *Application, c Context, m reflect.Method) {
	t.Helper()
	ft := m.Type
	args := []reflect.Value{reflect.ValueOf(c)}
	for i := 1; i < ft.NumIn(); i++ {
		in := ft.In(i)
		if ft.IsVariadic() && i == ft.NumIn()-1 {
			args = append(args, reflect.Zero(in))
			continue
		}
		switch in.Kind() {
		case reflect.String:
			args = append(args, reflect.ValueOf("default"))
		default:
			args = append(args, reflect.Zero(in))
		}
	}
	var out []reflect.Value
	if ft.IsVariadic() {
		out = m.Func.CallSlice(args)
	} else {
		out = m.Func.Call(args)
	}
	if check, ok := staleExceptions[m.Name]; ok {
		if !check(t, app, out) {
			t.Errorf("stale %s returned %v", m.Name, values(out))
		}
		return
	}
	errType := reflect.TypeFor[error]()
	for _, v := range out {
		if v.Type() == errType && !v.IsNil() {
			if !errors.Is(v.Interface().(error), ErrContextReleased) {
				t.Errorf("stale %s returned error %v, want ErrContextReleased", m.Name, v)
			}
			continue
		}
		if !v.IsZero() {
			t.Errorf("stale %s returned %v, want the zero value", m.Name, values(out))
		}
	}
}

func values(vs []reflect.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v.Interface()
	}
	return out
}

// TestStaleHandleEveryMethod calls every exported method of Context,
// found by reflection so that a new one cannot be left out, on a handle
// whose request is over while its pooled state serves the next request:
// from that request's own goroutine and from another goroutine. Each call
// gives zero results or ErrContextReleased (or its listed exception), and
// nothing reaches the live request: its response, its values and its chain
// are unchanged.
func TestStaleHandleEveryMethod(t *testing.T) {
	app := New(WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	var kept Context
	app.Get("/first/{id}", func(c Context) { kept = c; c.WriteString("first") })
	ctxType := reflect.TypeFor[Context]()
	if ctxType.NumMethod() < 60 {
		t.Fatalf("Context has %d exported methods: reflection found too few", ctxType.NumMethod())
	}
	run := func(c Context) {
		for i := 0; i < ctxType.NumMethod(); i++ {
			m := ctxType.Method(i)
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("stale %s panicked: %v", m.Name, r)
					}
				}()
				callStale(t, app, kept, m)
			}()
		}
	}
	tested := false
	app.Get("/second/{id}", func(c Context) {
		c.Values().Set("mine", "yes")
		if kept.s != c.s {
			c.WriteString("second") // another state: the test serves both again
			return
		}
		tested = true
		run(c) // the request's own goroutine
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); run(c) }() // another goroutine
		wg.Wait()
		if !c.Alive() || c.Param("id") != "2" || c.Values().GetString("mine") != "yes" || c.IsStopped() || c.Status() != 200 || c.Written() {
			t.Errorf("the live request was touched: param %q, values %d, stopped %v, status %d, written %v",
				c.Param("id"), c.Values().Len(), c.IsStopped(), c.Status(), c.Written())
		}
		c.WriteString("second")
	})
	// The pool may give the second request another state (under -race
	// sync.Pool drops some of what is put back): serve both again until the
	// stale handle's state is the live request's.
	for range 100 {
		w := httptest.NewRecorder()
		app.ServeHTTP(w, httptest.NewRequest("GET", "/first/1", nil))
		w = httptest.NewRecorder()
		app.ServeHTTP(w, httptest.NewRequest("GET", "/second/2", nil))
		if w.Code != 200 || w.Body.String() != "second" || len(w.Header()["X-Leak"]) != 0 {
			t.Errorf("second response %d %q %v", w.Code, w.Body, w.Header())
		}
		if tested {
			return
		}
	}
	t.Fatal("in 100 tries the pool never gave the second request the first one's state")
}
