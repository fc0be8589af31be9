package openapi_test

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/vireo-go/vireo/openapi"
)

func ExampleGenerator() {
	type Item struct {
		Name  string   `json:"name" validate:"required,max=64"`
		Price float64  `json:"price" validate:"gt=0"`
		Tags  []string `json:"tags,omitempty"`
	}
	g := openapi.NewGenerator()
	ref, _ := g.Schema(reflect.TypeFor[Item]())
	b, _ := json.Marshal(ref)
	fmt.Println(string(b))
	b, _ = json.Marshal(g.Components()["Item"])
	fmt.Println(string(b))
	// Output:
	// {"$ref":"#/components/schemas/Item"}
	// {"type":"object","properties":{"name":{"type":"string","maxLength":64},"price":{"type":"number","format":"double","exclusiveMinimum":0},"tags":{"type":["array","null"],"items":{"type":"string"}}},"required":["name"]}
}
