package openapi

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

type tAddr struct {
	City string `json:"city" validate:"required"`
}

type tNamed string

type tAll struct {
	tEmbed
	S      string            `json:"s" validate:"required,min=1,max=9"`
	N      int8              `json:"n" validate:"gte=1,lt=10"`
	U      uint              `json:"u"`
	F      float32           `json:"f"`
	B      bool              `json:"b,omitempty"`
	P      *int              `json:"p"`
	L      []tAddr           `json:"l" validate:"min=1,dive"`
	A      [2]string         `json:"a"`
	M      map[string]int    `json:"m" validate:"max=3"`
	T      time.Time         `json:"t"`
	R      json.RawMessage   `json:"r"`
	Any    any               `json:"any"`
	Bytes  []byte            `json:"bytes"`
	Named  tNamed            `json:"named" validate:"oneof=x y"`
	Str    int               `json:"str,string"`
	E      string            `json:"e" validate:"email" doc:"The address."`
	Skip   string            `json:"-"`
	hidden string            // unexported: left out
	Keys   map[int]bool      `json:"keys"`
	Nested map[string][]bool `json:"nested"`
}

type tEmbed struct {
	Flat string `json:"flat"`
}

var _ = tAll{hidden: "used only to be left out"}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSchemaOfTypes(t *testing.T) {
	g := NewGenerator()
	s, err := g.Schema(reflect.TypeFor[tAll]())
	if err != nil {
		t.Fatal(err)
	}
	if got := marshal(t, s); got != `{"$ref":"#/components/schemas/tAll"}` {
		t.Errorf("ref: %s", got)
	}
	props := g.Components()["tAll"].Properties
	want := map[string]string{
		"flat":   `{"type":"string"}`,
		"s":      `{"type":"string","minLength":1,"maxLength":9}`,
		"n":      `{"type":"integer","format":"int32","minimum":1,"exclusiveMaximum":10}`,
		"u":      `{"type":"integer","format":"int64","minimum":0}`,
		"f":      `{"type":"number","format":"float"}`,
		"b":      `{"type":"boolean"}`,
		"p":      `{"type":["integer","null"],"format":"int64"}`,
		"l":      `{"type":["array","null"],"items":{"$ref":"#/components/schemas/tAddr"},"minItems":1}`,
		"a":      `{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":2}`,
		"m":      `{"type":["object","null"],"additionalProperties":{"type":"integer","format":"int64"},"maxProperties":3}`,
		"t":      `{"type":"string","format":"date-time"}`,
		"r":      `{}`,
		"any":    `{}`,
		"bytes":  `{"type":"string","contentEncoding":"base64"}`,
		"named":  `{"type":"string","enum":["x","y"]}`,
		"str":    `{"type":"string"}`,
		"e":      `{"type":"string","format":"email","description":"The address."}`,
		"keys":   `{"type":["object","null"],"additionalProperties":{"type":"boolean"}}`,
		"nested": `{"type":["object","null"],"additionalProperties":{"type":["array","null"],"items":{"type":"boolean"}}}`,
	}
	for name, w := range want {
		if got := marshal(t, props[name]); got != w {
			t.Errorf("%s: %s, want %s", name, got, w)
		}
	}
	if len(props) != len(want) {
		t.Errorf("%d properties, want %d: %v", len(props), len(want), props)
	}
	if req := g.Components()["tAll"].Required; !reflect.DeepEqual(req, []string{"s"}) {
		t.Errorf("required %v", req)
	}
	if req := g.Components()["tAddr"].Required; !reflect.DeepEqual(req, []string{"city"}) {
		t.Errorf("tAddr required %v", req)
	}
}

func TestSchemaErrors(t *testing.T) {
	type badChan struct {
		C chan int `json:"c"`
	}
	type badKey struct {
		M map[[2]int]int `json:"m"`
	}
	type badBound struct {
		S string `json:"s" validate:"min=x"`
	}
	type badEnum struct {
		N int `json:"n" validate:"oneof=1 two"`
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[badChan](), reflect.TypeFor[badKey](), reflect.TypeFor[badBound](), reflect.TypeFor[badEnum](), reflect.TypeFor[func()]()} {
		g := NewGenerator()
		if _, err := g.Schema(typ); err == nil {
			t.Errorf("%s: no error", typ)
		}
		if len(g.Components()) != 0 {
			t.Errorf("%s: a failed type left components %v", typ, g.Components())
		}
	}
}

// TestComponentNames checks names of generic types and of two types with
// one name from different packages.
func TestComponentNames(t *testing.T) {
	type Page[T any] struct {
		Items []T `json:"items"`
	}
	g := NewGenerator()
	s, err := g.Schema(reflect.TypeFor[Page[tAddr]]())
	if err != nil {
		t.Fatal(err)
	}
	if s.Ref != "#/components/schemas/Page_tAddr" {
		t.Errorf("generic: %s", s.Ref)
	}
	type Info struct{ X int } // same name as this package's Info
	if _, err := g.Schema(reflect.TypeFor[Info]()); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Schema(reflect.TypeFor[Server]()); err != nil {
		t.Fatal(err)
	}
	type Server struct{ Y int }
	s, _ = g.Schema(reflect.TypeFor[Server]())
	if s.Ref == "#/components/schemas/Server" {
		t.Errorf("two types named Server share a component")
	}
}

func TestSchemaJSONRoundTrip(t *testing.T) {
	for _, in := range []string{`{"type":"string"}`, `{"type":["string","null"],"minLength":1}`, `{"$ref":"#/x"}`} {
		var s Schema
		if err := json.Unmarshal([]byte(in), &s); err != nil {
			t.Fatal(err)
		}
		if got := marshal(t, &s); got != in {
			t.Errorf("%s -> %s", in, got)
		}
	}
}

func TestNullable(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"type":"string"}`, `{"type":["string","null"]}`},
		{`{"type":["string","null"]}`, `{"type":["string","null"]}`},
		{`{"$ref":"#/x"}`, `{"anyOf":[{"$ref":"#/x"},{"type":"null"}]}`},
		{`{}`, `{}`},
	} {
		var s Schema
		json.Unmarshal([]byte(tt.in), &s)
		if got := marshal(t, Nullable(&s)); got != tt.want {
			t.Errorf("Nullable(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
