package validator_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	playground "github.com/go-playground/validator/v10"
	"github.com/vireo-go/vireo"
	"github.com/vireo-go/vireo/validator"
)

type address struct {
	City string `json:"city" validate:"required"`
}

type signup struct {
	Name    string    `json:"name" validate:"required,min=2,max=8"`
	Email   string    `json:"email" validate:"required,email"`
	Age     int       `json:"age" validate:"gte=18,lte=130"`
	Role    string    `json:"role" validate:"oneof=admin user"`
	Tags    []string  `json:"tags" validate:"max=2,dive,alpha"`
	Address address   `json:"address"`
	Items   []address `json:"items" validate:"dive"`
	Page    int       `query:"page" json:"-" validate:"min=1"`
	NoTag   string    `validate:"required"`
}

func valid() signup {
	return signup{Name: "ann", Email: "ann@example.com", Age: 30, Role: "user", Address: address{City: "Oslo"}, Page: 1, NoTag: "x"}
}

func TestValidate(t *testing.T) {
	v := validator.MustNew()
	tests := []struct {
		name   string
		change func(*signup)
		want   map[string]string
	}{
		{"valid", func(*signup) {}, nil},
		{"required and JSON names", func(s *signup) { s.Name, s.Email = "", "" }, map[string]string{"name": "is required", "email": "is required"}},
		{"string length", func(s *signup) { s.Name = "a" }, map[string]string{"name": "must be at least 2 characters"}},
		{"string too long", func(s *signup) { s.Name = "abcdefghi" }, map[string]string{"name": "must be at most 8 characters"}},
		{"email", func(s *signup) { s.Email = "nope" }, map[string]string{"email": "must be a valid email address"}},
		{"number bounds", func(s *signup) { s.Age = 3 }, map[string]string{"age": "must be at least 18"}},
		{"oneof", func(s *signup) { s.Role = "root" }, map[string]string{"role": "must be one of admin, user"}},
		{"slice length", func(s *signup) { s.Tags = []string{"a", "b", "c"} }, map[string]string{"tags": "must have at most 2 items"}},
		{"dive into elements", func(s *signup) { s.Tags = []string{"a", "b1"} }, map[string]string{"tags[1]": "must contain only letters"}},
		{"nested struct", func(s *signup) { s.Address.City = "" }, map[string]string{"address.city": "is required"}},
		{"slice of structs", func(s *signup) { s.Items = []address{{City: "x"}, {}} }, map[string]string{"items[1].city": "is required"}},
		{"parameter name", func(s *signup) { s.Page = 0 }, map[string]string{"page": "must be at least 1"}},
		{"Go name without tags", func(s *signup) { s.NoTag = "" }, map[string]string{"NoTag": "is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := valid()
			tt.change(&in)
			err := v.Validate(&in)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			var ve *vireo.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Validate: %v (%T), want a *ValidationError", err, err)
			}
			if !reflect.DeepEqual(ve.Fields, tt.want) {
				t.Errorf("fields = %v, want %v", ve.Fields, tt.want)
			}
		})
	}
}

func TestValidateNonStruct(t *testing.T) {
	v := validator.MustNew()
	for _, x := range []any{map[string]any{"a": 1}, &[]int{1}, nil, 3} {
		if err := v.Validate(x); err != nil {
			t.Errorf("Validate(%T) = %v, want nil", x, err)
		}
	}
}

func TestOptions(t *testing.T) {
	type in struct {
		Code string `json:"code" validate:"even,min=2"`
	}
	v, err := validator.New(
		validator.WithRule("even", func(fl playground.FieldLevel) bool { return len(fl.Field().String())%2 == 0 }, "must have an even length"),
		validator.WithMessage("min", "too short (min %s)"),
	)
	if err != nil {
		t.Fatal(err)
	}
	var ve *vireo.ValidationError
	if err := v.Validate(&in{Code: "abc"}); !errors.As(err, &ve) || ve.Fields["code"] != "must have an even length" {
		t.Errorf("custom rule: %v", err)
	}
	if err := v.Validate(&in{Code: ""}); !errors.As(err, &ve) || ve.Fields["code"] != "too short (min 2)" {
		t.Errorf("custom message: %v", err)
	}
	for _, opts := range [][]validator.Option{{nil}, {validator.WithRule("x", nil, "")}, {validator.WithMessage("", "m")}, {validator.WithRule("", func(playground.FieldLevel) bool { return true }, "")}} {
		if _, err := validator.New(opts...); err == nil {
			t.Errorf("New(%v): no error", opts)
		}
	}
}

type createItem struct {
	Tenant string  `header:"X-Tenant" validate:"required"`
	Name   string  `json:"name" validate:"required,max=4"`
	Price  float64 `json:"price" validate:"gt=0"`
}

type item struct {
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

// TestTypedHandler validates a typed handler's whole input, its header
// included, through the application's validator.
func TestTypedHandler(t *testing.T) {
	app := vireo.New(vireo.WithValidator(validator.MustNew()))
	vireo.Post(app, "/items", func(ctx vireo.Context, in createItem) (item, error) {
		return item{in.Name, in.Price}, nil
	})
	tests := []struct {
		tenant, body string
		code         int
		want         string
	}{
		{"t", `{"name":"pen","price":1.5}`, http.StatusCreated, `{"name":"pen","price":1.5}`},
		{"t", `{"name":"pencil","price":0}`, http.StatusBadRequest, `"errors":{"name":"must be at most 4 characters","price":"must be greater than 0"}`},
		{"", `{"name":"pen","price":1}`, http.StatusBadRequest, `"errors":{"X-Tenant":"is required"}`},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "/items", strings.NewReader(tt.body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json") // the error page as Problem Details
		if tt.tenant != "" {
			r.Header.Set("X-Tenant", tt.tenant)
		}
		w := httptest.NewRecorder()
		app.ServeHTTP(w, r)
		if w.Code != tt.code || !strings.Contains(w.Body.String(), tt.want) {
			t.Errorf("%s %q: %d %s, want %d %s", tt.tenant, tt.body, w.Code, w.Body, tt.code, tt.want)
		}
	}
}
