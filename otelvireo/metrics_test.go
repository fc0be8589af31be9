// Tests of the metrics: the four instruments, their attributes by route,
// and series that stay bounded under a flood of distinct paths and methods.

package otelvireo_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vireo-go/vireo/core"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

func TestMetrics(t *testing.T) {
	r := newRig(t)
	r.app.Get("/users/{id}", func(ctx core.Context) { ctx.WriteString("user " + ctx.Param("id")) })
	r.app.Post("/users", func(ctx core.Context) { b, _ := ctx.ReadBody(); ctx.SetStatus(201); ctx.Write(b) })
	for i := range 3 {
		r.app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", fmt.Sprintf("/users/%d", i), nil))
	}
	r.app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/users", strings.NewReader("0123456789")))
	r.app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/missing", nil))

	m := r.metrics(t)
	dur, ok := m["http.server.request.duration"].Data.(metricdata.Histogram[float64])
	if !ok || m["http.server.request.duration"].Unit != "s" {
		t.Fatalf("duration: %+v", m["http.server.request.duration"])
	}
	counts := map[string]uint64{}
	for _, dp := range dur.DataPoints {
		a := attrMap(dp.Attributes.ToSlice())
		counts[a["http.request.method"]+" "+a["http.route"]+" "+a["http.response.status_code"]+" "+a["url.scheme"]] += dp.Count
		if len(dp.Bounds) != 14 || dp.Bounds[0] != 0.005 || dp.Bounds[13] != 10 {
			t.Errorf("buckets %v, want the 14 recommended ones", dp.Bounds)
		}
	}
	want := map[string]uint64{"GET /users/{id} 200 http": 3, "POST /users 201 http": 1, "GET  404 http": 1}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Fatalf("duration series %v, want %v", counts, want)
	}

	sizes := func(name string) map[string]int64 {
		h := m[name].Data.(metricdata.Histogram[int64])
		out := map[string]int64{}
		for _, dp := range h.DataPoints {
			a := attrMap(dp.Attributes.ToSlice())
			out[a["http.request.method"]+" "+a["http.route"]] += dp.Sum
		}
		return out
	}
	if got := sizes("http.server.request.body.size"); got["POST /users"] != 10 || got["GET /users/{id}"] != 0 {
		t.Errorf("request sizes %v", got)
	}
	if got := sizes("http.server.response.body.size"); got["POST /users"] != 10 || got["GET /users/{id}"] != 18 || got["GET "] != int64(len("Not Found")) {
		t.Errorf("response sizes %v", got)
	}
	active := m["http.server.active_requests"].Data.(metricdata.Sum[int64])
	for _, dp := range active.DataPoints {
		if dp.Value != 0 {
			t.Errorf("active requests %d after every request ended (%v)", dp.Value, dp.Attributes.ToSlice())
		}
		if a := attrMap(dp.Attributes.ToSlice()); a["http.route"] != "" || a["http.request.method"] == "" {
			t.Errorf("active_requests attributes %v", a)
		}
	}
}

func TestActiveRequestsDuringRequest(t *testing.T) {
	r := newRig(t)
	var during int64
	r.app.Get("/", func(ctx core.Context) {
		for _, dp := range r.metrics(t)["http.server.active_requests"].Data.(metricdata.Sum[int64]).DataPoints {
			during += dp.Value
		}
	})
	r.app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if during != 1 {
		t.Fatalf("active requests %d while one ran", during)
	}
}

// TestSeriesBoundedUnderFlood sends 10,000 distinct paths (matched by one
// parameter route, unmatched, and with invented methods) and checks that
// the number of series does not grow with them.
func TestSeriesBoundedUnderFlood(t *testing.T) {
	r := newRig(t)
	r.app.Get("/users/{id}", func(ctx core.Context) { ctx.WriteString("ok") })
	methods := []string{"GET", "GET", "BREW", "PROPFIND-" + "x"}
	for i := range 10_000 {
		var path string
		switch i % 3 {
		case 0:
			path = fmt.Sprintf("/users/%d", i)
		case 1:
			path = fmt.Sprintf("/random/%d/deep/%x", i, i*7919)
		default:
			path = fmt.Sprintf("/%d", i)
		}
		method := methods[i%len(methods)]
		if i%4 == 3 {
			method = fmt.Sprintf("M%d", i) // a new method every time
		}
		r.app.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, path, nil))
	}
	m := r.metrics(t)
	total := 0
	for name, md := range m {
		points := dataPoints(md)
		n := len(points)
		for _, dp := range points {
			if strings.Contains(dp, "/users/1") || strings.Contains(dp, "/random/") || strings.Contains(dp, "M1") {
				t.Fatalf("%s has a raw path or method in a series: %s", name, dp)
			}
		}
		if n > 8 {
			t.Errorf("%s: %d series after 10,000 distinct paths", name, n)
		}
		total += n
	}
	// GET/_OTHER x matched 200 / unmatched 404 / 405 for duration and
	// the two sizes, GET and _OTHER for active requests.
	if total == 0 || total > 20 {
		t.Fatalf("%d series in all", total)
	}
	if got := len(r.spans.GetSpans()); got != 10_000 {
		t.Fatalf("%d spans, want 10000", got)
	}
}

// dataPoints renders the attribute sets of md's data points.
func dataPoints(md metricdata.Metrics) []string {
	var out []string
	switch d := md.Data.(type) {
	case metricdata.Histogram[float64]:
		for _, dp := range d.DataPoints {
			out = append(out, fmt.Sprint(dp.Attributes.ToSlice()))
		}
	case metricdata.Histogram[int64]:
		for _, dp := range d.DataPoints {
			out = append(out, fmt.Sprint(dp.Attributes.ToSlice()))
		}
	case metricdata.Sum[int64]:
		for _, dp := range d.DataPoints {
			out = append(out, fmt.Sprint(dp.Attributes.ToSlice()))
		}
	}
	return out
}
