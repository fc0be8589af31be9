package fast

import (
	"math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/valyala/fasthttp"
)

// TestHeaderStoreActsAsTheMap applies random sequences of the store's
// operations to a writer and to a header map (the operations the
// HeaderStore comments name), with Header called somewhere in the middle
// of some sequences (the list moved into the map), and checks that every
// read agrees, that the writer's map ends equal to the reference, that
// the headers reach fasthttp's response header alike whichever mode sent
// them, and that no slice given to the store was written to.
func TestHeaderStoreActsAsTheMap(t *testing.T) {
	keys := []string{"X-A", "X-B", "Vary", "Set-Cookie", "Content-Type"}
	rng := rand.New(rand.NewPCG(1, 2))
	w := newExchange().w
	for seq := range 3000 {
		w.reset()
		ref := http.Header{}
		var given [][]string // slices handed to the store, and copies
		var copies [][]string
		mapAt := -1
		if seq%3 == 0 {
			mapAt = rng.IntN(8)
		}
		for op := range 8 {
			if op == mapAt {
				if got := w.Header(); !reflect.DeepEqual(map[string][]string(got), map[string][]string(ref)) {
					t.Fatalf("seq %d: Header %v, want %v", seq, got, ref)
				}
			}
			k := keys[rng.IntN(len(keys))]
			v := string(rune('a' + rng.IntN(3)))
			vs := []string{v, v + v}[:1+rng.IntN(2)]
			if rng.IntN(4) == 0 {
				vs = nil
			}
			given, copies = append(given, vs), append(copies, slices.Clone(vs))
			switch rng.IntN(5) {
			case 0:
				w.SetHeader(k, v)
				ref[k] = []string{v}
			case 1:
				w.SetHeaderValues(k, vs)
				if len(vs) == 0 {
					delete(ref, k)
				} else {
					ref[k] = vs
				}
			case 2:
				w.AddHeader(k, v)
				ref[k] = append(ref[k], v)
			case 3:
				w.SetHeaderIfUnset(k, vs)
				if _, ok := ref[k]; !ok {
					ref[k] = vs
				}
			case 4:
				if got := w.HeaderValues(k); !slices.Equal(got, ref[k]) {
					t.Fatalf("seq %d: HeaderValues(%s) %q, want %q", seq, k, got, ref[k])
				}
			}
		}
		var resp fasthttp.Response
		resp.Header.SetNoDefaultContentType(true) // as the engine's server has it
		typed := w.sendHeaders(&resp.Header)
		if _, want := ref["Content-Type"]; typed != want {
			t.Fatalf("seq %d: typed %v with %v", seq, typed, ref)
		}
		if got, want := sent(&resp.Header), sentOf(ref); !slices.Equal(got, want) {
			t.Fatalf("seq %d (map at %d): sent %q, want %q", seq, mapAt, got, want)
		}
		if got := w.Header(); !reflect.DeepEqual(map[string][]string(got), map[string][]string(ref)) {
			t.Fatalf("seq %d: final Header %v, want %v", seq, got, ref)
		}
		for i := range given {
			if !slices.Equal(given[i], copies[i]) {
				t.Fatalf("seq %d: a slice given to the store was changed: %q, was %q", seq, given[i], copies[i])
			}
		}
	}
}

// sent returns the headers of rh as sorted "Key: value" lines.
func sent(rh *fasthttp.ResponseHeader) []string {
	var out []string
	for k, v := range rh.All() {
		out = append(out, string(k)+": "+string(v))
	}
	sort.Strings(out)
	return out
}

// sentOf returns what h should be sent as, in sent's form: every value,
// the first Content-Type only (fasthttp keeps one).
func sentOf(h http.Header) []string {
	var out []string
	for k, vs := range h {
		if k == "Content-Type" {
			if len(vs) > 0 && vs[0] != "" {
				out = append(out, k+": "+vs[0])
			}
			continue
		}
		for _, v := range vs {
			out = append(out, k+": "+v)
		}
	}
	sort.Strings(out)
	return out
}
