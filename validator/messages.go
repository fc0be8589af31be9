// Messages of failed rules.
//
// One English sentence per rule, completed with the rule's parameter and,
// for min, max and len, with what is counted: characters for a string,
// items for a slice, array or map, nothing for a number. A rule without a
// message here is reported as "must satisfy <rule>".

package validator

import (
	"fmt"
	"reflect"
	"strings"

	playground "github.com/go-playground/validator/v10"
)

// messages are the templates of the rules; %s is the parameter.
var messages = map[string]string{
	"required":   "is required",
	"email":      "must be a valid email address",
	"url":        "must be a valid URL",
	"http_url":   "must be a valid http or https URL",
	"uri":        "must be a valid URI",
	"uuid":       "must be a valid UUID",
	"uuid4":      "must be a valid version 4 UUID",
	"alpha":      "must contain only letters",
	"alphanum":   "must contain only letters and digits",
	"numeric":    "must be a number",
	"hostname":   "must be a valid host name",
	"ipv4":       "must be a valid IPv4 address",
	"ipv6":       "must be a valid IPv6 address",
	"ip":         "must be a valid IP address",
	"datetime":   "must be a date and time in the layout %s",
	"eqfield":    "must equal %s",
	"nefield":    "must not equal %s",
	"contains":   "must contain %q",
	"excludes":   "must not contain %q",
	"startswith": "must start with %q",
	"endswith":   "must end with %q",
	"lowercase":  "must be lowercase",
	"uppercase":  "must be uppercase",
	"boolean":    "must be a boolean",
	"json":       "must be valid JSON",
	"unique":     "must not contain duplicates",
}

// countRules are the rules whose message says what is counted.
var countRules = map[string][2]string{
	"min": {"must be at least %s", "must have at least %s"},
	"gte": {"must be at least %s", "must have at least %s"},
	"max": {"must be at most %s", "must have at most %s"},
	"lte": {"must be at most %s", "must have at most %s"},
	"len": {"must be exactly %s", "must have exactly %s"},
	"gt":  {"must be greater than %s", "must have more than %s"},
	"lt":  {"must be less than %s", "must have fewer than %s"},
	"eq":  {"must be %s", "must have exactly %s"},
	"ne":  {"must not be %s", "must not have %s"},
}

// message returns the sentence for fe.
func (v *Validator) message(fe playground.FieldError) string {
	tag, param := fe.Tag(), fe.Param()
	if m, ok := v.messages[tag]; ok {
		return expand(m, param)
	}
	if tag == "oneof" {
		return "must be one of " + strings.Join(strings.Fields(param), ", ")
	}
	if forms, ok := countRules[tag]; ok {
		switch fe.Kind() {
		case reflect.String:
			return fmt.Sprintf(forms[0], param) + " " + plural(param, "character")
		case reflect.Slice, reflect.Array, reflect.Map:
			return fmt.Sprintf(forms[1], param) + " " + plural(param, "item")
		default:
			return fmt.Sprintf(forms[0], param)
		}
	}
	if m, ok := messages[tag]; ok {
		return expand(m, param)
	}
	if param != "" {
		return "must satisfy " + tag + "=" + param
	}
	return "must satisfy " + tag
}

// expand puts param into the template m when it has a verb.
func expand(m, param string) string {
	if strings.Contains(m, "%") {
		return fmt.Sprintf(m, param)
	}
	return m
}

func plural(n, word string) string {
	if n == "1" {
		return word
	}
	return word + "s"
}
