package validator_test

import (
	"fmt"

	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/validator"
)

func Example() {
	type signup struct {
		Name  string `json:"name" validate:"required"`
		Email string `json:"email" validate:"required,email"`
		Age   int    `json:"age" validate:"gte=18"`
	}
	v := validator.MustNew()
	err := v.Validate(&signup{Email: "ann@", Age: 12})
	if ve, ok := err.(*vireo.ValidationError); ok {
		fmt.Println(ve.Fields["name"])
		fmt.Println(ve.Fields["email"])
		fmt.Println(ve.Fields["age"])
	}
	// Output:
	// is required
	// must be a valid email address
	// must be at least 18
}
