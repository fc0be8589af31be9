package mvc_test

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/mvc"
)

// ISBN is a named type: a bare By of it is named after it.
type ISBN string

// namesController has one method per naming rule.
type namesController struct {
	routes []string
}

func (c *namesController) Get() string                  { return "index" }
func (c *namesController) GetBy(id int) string          { return "id " + strconv.Itoa(id) }
func (c *namesController) GetProfileBy(n string) string { return "profile " + n }
func (c *namesController) PostLogin() string            { return "login" }
func (c *namesController) GetUserFollowersBy(id int64) string {
	return "followers " + strconv.FormatInt(id, 10)
}
func (c *namesController) GetItemByID(id int) string { return "item " + strconv.Itoa(id) }
func (c *namesController) GetPostByIDByCommentID(id int, cid uint64) string {
	return fmt.Sprintf("post %d comment %d", id, cid)
}
func (c *namesController) GetPairByIDByID(a, b int) string { return fmt.Sprintf("pair %d %d", a, b) }
func (c *namesController) GetBookBy(isbn ISBN) string      { return "book " + string(isbn) }
func (c *namesController) GetFlagBy(b bool) string         { return "flag " + strconv.FormatBool(b) }
func (c *namesController) GetSizeBy(u uint) string {
	return "size " + strconv.FormatUint(uint64(u), 10)
}
func (c *namesController) GetSmallBy(n int8) string { return "small " + strconv.Itoa(int(n)) }
func (c *namesController) GetRatioBy(f float64) string {
	return "ratio " + strconv.FormatFloat(f, 'g', -1, 64)
}
func (c *namesController) GetFilesByWildcard(p string) string {
	return "files " + p
}
func (c *namesController) GetAPIKeys() string     { return "api keys" }
func (c *namesController) GetUserID() string      { return "user id" }
func (c *namesController) AnyPing() string        { return "pong" }
func (c *namesController) PutBy(id int) string    { return "put " + strconv.Itoa(id) }
func (c *namesController) PatchBy(id int) string  { return "patch " + strconv.Itoa(id) }
func (c *namesController) DeleteBy(id int) string { return "delete " + strconv.Itoa(id) }
func (c *namesController) HeadStatus() int        { return http.StatusNoContent }
func (c *namesController) OptionsItems() string   { return "options" }
func (c *namesController) TraceEcho() string      { return "trace" }
func (c *namesController) ConnectTunnel() string  { return "connect" }
func (c *namesController) Helper() string         { return "not a route" }
func (c *namesController) Getter() string         { return "not a route either" }
func (c *namesController) Gettext() string        { return "nor this" }
func (c *namesController) AfterRegister(a mvc.Registration) {
	c.routes = routeList(a.Routes())
}

func TestNamingRoutes(t *testing.T) {
	app := quietApp()
	c := new(namesController)
	if err := mvc.Register(mvc.New(app.Group("/api")), c); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"GET /api",
		"GET /api/{param1:int}",
		"GET /api/profile/{param1}",
		"POST /api/login",
		"GET /api/user/followers/{param1:int64}",
		"GET /api/item/{id:int}",
		"GET /api/post/{id:int}/{commentID:uint64}",
		"GET /api/pair/{id:int}/{id2:int}",
		"GET /api/book/{isbn}",
		"GET /api/flag/{param1:bool}",
		"GET /api/size/{param1:uint}",
		"GET /api/small/{param1:int}",
		"GET /api/ratio/{param1}",
		"GET /api/files/{path:path}",
		"GET /api/api/keys",
		"GET /api/user/id",
		"PUT /api/{param1:int}",
		"PATCH /api/{param1:int}",
		"DELETE /api/{param1:int}",
		"HEAD /api/status",
		"OPTIONS /api/items",
		"TRACE /api/echo",
		"CONNECT /api/tunnel",
	}
	for _, m := range core.AnyMethods() {
		want = append(want, m+" /api/ping")
	}
	got := append([]string(nil), c.routes...)
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("routes:\n got %q\nwant %q", got, want)
	}

	reqs := []request{
		{method: "GET", target: "/api", status: 200, want: "index"},
		{method: "GET", target: "/api/5", status: 200, want: "id 5"},
		{method: "GET", target: "/api/-7", status: 200, want: "id -7"},
		{method: "GET", target: "/api/abc", status: 404, want: "Not Found"},
		{method: "GET", target: "/api/profile/bob", status: 200, want: "profile bob"},
		{method: "POST", target: "/api/login", status: 200, want: "login"},
		{method: "GET", target: "/api/login", status: 405, want: "Method Not Allowed"},
		{method: "GET", target: "/api/user/followers/9000000000", status: 200, want: "followers 9000000000"},
		{method: "GET", target: "/api/item/3", status: 200, want: "item 3"},
		{method: "GET", target: "/api/post/3/18446744073709551615", status: 200, want: "post 3 comment 18446744073709551615"},
		{method: "GET", target: "/api/post/3/-1", status: 404, want: "Not Found"},
		{method: "GET", target: "/api/pair/1/2", status: 200, want: "pair 1 2"},
		{method: "GET", target: "/api/book/978-3", status: 200, want: "book 978-3"},
		{method: "GET", target: "/api/flag/true", status: 200, want: "flag true"},
		{method: "GET", target: "/api/flag/yes", status: 404, want: "Not Found"},
		{method: "GET", target: "/api/size/42", status: 200, want: "size 42"},
		{method: "GET", target: "/api/small/100", status: 200, want: "small 100"},
		{method: "GET", target: "/api/small/300", status: 404, want: "Not Found"},
		{method: "GET", target: "/api/ratio/1.5", status: 200, want: "ratio 1.5"},
		{method: "GET", target: "/api/ratio/half", status: 404, want: "Not Found"},
		{method: "GET", target: "/api/files/a/b/c.txt", status: 200, want: "files a/b/c.txt"},
		{method: "GET", target: "/api/api/keys", status: 200, want: "api keys"},
		{method: "GET", target: "/api/user/id", status: 200, want: "user id"},
		{method: "PUT", target: "/api/8", status: 200, want: "put 8"},
		{method: "PATCH", target: "/api/8", status: 200, want: "patch 8"},
		{method: "DELETE", target: "/api/8", status: 200, want: "delete 8"},
		{method: "HEAD", target: "/api/status", status: 204},
		{method: "OPTIONS", target: "/api/items", status: 200, want: "options"},
		{method: "TRACE", target: "/api/echo", status: 200, want: "trace"},
		{method: "CONNECT", target: "/api/tunnel", status: 200, want: "connect"},
		{method: "GET", target: "/api/helper", status: 404, want: "Not Found"},
		{method: "GET", target: "/api/getter", status: 404, want: "Not Found"},
		{method: "GET", target: "/api/text", status: 404, want: "Not Found"},
	}
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"} {
		reqs = append(reqs, request{method: m, target: "/api/ping", status: 200, want: "pong"})
	}
	check(t, app, reqs)
}

// valuesController is the benchmark suite's controller.
type valuesController struct{}

func (c *valuesController) GetBy(id int) string { return "value" }

func TestValuesRoute(t *testing.T) {
	app := quietApp()
	if err := mvc.Register(mvc.New(app.Group("/api/values")), new(valuesController)); err != nil {
		t.Fatal(err)
	}
	check(t, app, []request{
		{method: "GET", target: "/api/values/5", status: 200, want: "value",
			headers: map[string]string{"Content-Type": "text/plain; charset=utf-8"}},
		{method: "GET", target: "/api/values/abc", status: 404, want: "Not Found"},
		{method: "GET", target: "/api/values", status: 404, want: "Not Found"},
	})
}

// rootController is registered on the application's root router.
type rootController struct{}

func (c *rootController) Get() string      { return "home" }
func (c *rootController) GetAbout() string { return "about" }

func TestRootRouter(t *testing.T) {
	app := quietApp()
	if err := mvc.Register(mvc.New(app.Router), new(rootController)); err != nil {
		t.Fatal(err)
	}
	check(t, app, []request{
		{method: "GET", target: "/", status: 200, want: "home"},
		{method: "GET", target: "/about", status: 200, want: "about"},
	})
}

// partyParamController binds its leading parameter to the group's prefix.
type partyParamController struct{}

func (c *partyParamController) Get(uid int) string { return "user " + strconv.Itoa(uid) }
func (c *partyParamController) GetPostsBy(uid int, pid int) string {
	return fmt.Sprintf("user %d post %d", uid, pid)
}
func (c *partyParamController) GetNameBy(name string) string { return "name " + name }

func TestPartyParameters(t *testing.T) {
	app := quietApp()
	m := mvc.New(app.Group("/users/{param1:int}"))
	if err := mvc.Register(m, new(partyParamController)); err != nil {
		t.Fatal(err)
	}
	got := routeList(app.Routes())
	want := []string{"GET /users/{param1:int}", "GET /users/{param1:int}/name/{param2}", "GET /users/{param1:int}/posts/{param2:int}"}
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("routes %q, want %q", got, want)
	}
	check(t, app, []request{
		{method: "GET", target: "/users/7", status: 200, want: "user 7"},
		{method: "GET", target: "/users/7/posts/9", status: 200, want: "user 7 post 9"},
		{method: "GET", target: "/users/7/name/ann", status: 200, want: "name ann"},
	})
}
