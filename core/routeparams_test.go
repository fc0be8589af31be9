package core

import (
	"reflect"
	"testing"
)

func TestRouteParams(t *testing.T) {
	app := New()
	api := app.Group("/api/{tenant:alpha}")
	h := func(Context) {}
	tests := []struct {
		name  string
		route *Route
		want  []RouteParam
	}{
		{"static", app.Get("/about", h), nil},
		{"plain and typed", app.Get("/users/{name}/posts/{id:int}", h),
			[]RouteParam{{"name", ParamString}, {"id", ParamInt}}},
		{"every type", app.Get("/t/{a:string}/{b:bool}/{c:uint}/{d:int64}/{e:uint64}/{f:uuid}/{g...}", h),
			[]RouteParam{{"a", ParamString}, {"b", ParamBool}, {"c", ParamUint}, {"d", ParamInt64}, {"e", ParamUint64}, {"f", ParamUUID}, {"g", ParamPath}}},
		{"group prefix included", api.Get("/files/{rest:path}", h),
			[]RouteParam{{"tenant", ParamAlpha}, {"rest", ParamPath}}},
		{"invalid pattern", app.Get("/x/{id:nope}", h), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.route.Params(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Params() = %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("the caller's copy", func(t *testing.T) {
		rt := tests[1].route
		rt.Params()[0].Name = "changed"
		if rt.Params()[0].Name != "name" {
			t.Fatal("Params returned the route's own slice")
		}
	})
}

func TestRouterParams(t *testing.T) {
	app := New()
	tests := []struct {
		name   string
		router *Router
		want   []RouteParam
	}{
		{"root", app.Router, nil},
		{"static prefix", app.Group("/api"), nil},
		{"nested groups", app.Group("/users/{uid:int}").Group("/posts/{slug}"),
			[]RouteParam{{"uid", ParamInt}, {"slug", ParamString}}},
		{"invalid prefix", app.Group("/x/{a:nope}"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.router.Params(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Params() = %v, want %v", got, tt.want)
			}
		})
	}
}
