// Runnable examples: a login that regenerates the session ID (vireo), and
// the same session operations in plain net/http code.

package sessions_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/vireo-go/vireo/core"
	"github.com/vireo-go/vireo/sessions"
)

// send serves one request with the given session cookie ("" for none) and
// returns the response.
func send(h http.Handler, method, target string, cookie *http.Cookie) *http.Response {
	req := httptest.NewRequest(method, target, nil)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

// cookieOf returns the response's cookie named name, or nil.
func cookieOf(res *http.Response, name string) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func body(res *http.Response) string {
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// A login gives the session a new ID (Regenerate) before storing the user:
// an ID an attacker planted or saw before the login is worthless after it.
func Example() {
	m := sessions.MustNew(sessions.WithCookie("sid"))
	defer m.Close()

	app := core.New()
	app.Use(m.Handler()) // every route has its session, found with sessions.Get
	app.Get("/visit", func(ctx core.Context) {
		sess := sessions.Get(ctx)
		sess.Set("visits", sess.GetInt("visits", 0)+1) // the first write creates the session
	})
	app.Post("/login", func(ctx core.Context) {
		sess, err := m.Regenerate(ctx)
		if err != nil {
			ctx.StopWithError(err) // 503 when the store is down
			return
		}
		sess.Set("user", ctx.Query("user"))
		ctx.Redirect("/me", http.StatusSeeOther)
	})
	app.Get("/me", func(ctx core.Context) {
		ctx.WriteString(sessions.Get(ctx).GetString("user", "anonymous"))
	})

	res := send(app, "GET", "/me", nil)
	fmt.Printf("GET /me: %s, %d cookies (reading creates nothing)\n", body(res), len(res.Cookies()))

	before := cookieOf(send(app, "GET", "/visit", nil), "sid")
	res = send(app, "POST", "/login?user=ann", before)
	after := cookieOf(res, "sid")
	fmt.Printf("POST /login: %d, new ID: %t\n", res.StatusCode, after.Value != before.Value)

	fmt.Println("GET /me with the new cookie:", body(send(app, "GET", "/me", after)))
	fmt.Println("GET /me with the old cookie:", body(send(app, "GET", "/me", before)))
	// Output:
	// GET /me: anonymous, 0 cookies (reading creates nothing)
	// POST /login: 303, new ID: true
	// GET /me with the new cookie: ann
	// GET /me with the old cookie: anonymous
}

// In net/http code, Wrap is the middleware, and GetHTTP, StartHTTP,
// RegenerateHTTP, DestroyHTTP and UpdateExpirationHTTP take the handler's
// w and r where the vireo forms take a Context.
func ExampleManager_Wrap() {
	m := sessions.MustNew()
	defer m.Close()

	mux := http.NewServeMux()
	mux.HandleFunc("POST /cart", func(w http.ResponseWriter, r *http.Request) {
		sess := sessions.GetHTTP(r)
		sess.Set("items", sess.GetInt("items", 0)+1)
		fmt.Fprintln(w, "added")
	})
	mux.HandleFunc("POST /checkout", func(w http.ResponseWriter, r *http.Request) {
		items := sessions.GetHTTP(r).GetInt("items", 0)
		if err := m.DestroyHTTP(w, r); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, "bought %d items\n", items)
	})
	h := m.Wrap(mux)

	cookie := cookieOf(send(h, "POST", "/cart", nil), sessions.DefaultCookie)
	send(h, "POST", "/cart", cookie)
	res := send(h, "POST", "/checkout", cookie)
	fmt.Print(body(res))
	fmt.Println("cookie expired:", cookieOf(res, sessions.DefaultCookie).MaxAge < 0)
	fmt.Print(body(send(h, "POST", "/checkout", cookie)))
	// Output:
	// bought 2 items
	// cookie expired: true
	// bought 0 items
}
