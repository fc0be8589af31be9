package mvc

import (
	"slices"
	"testing"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Get", []string{"Get"}},
		{"GetBy", []string{"Get", "By"}},
		{"GetUserFollowersBy", []string{"Get", "User", "Followers", "By"}},
		{"GetAPIKeys", []string{"Get", "API", "Keys"}},
		{"GetUserID", []string{"Get", "User", "ID"}},
		{"GetV2Items", []string{"Get", "V2", "Items"}},
		{"PostHTML", []string{"Post", "HTML"}},
		{"Getter", []string{"Getter"}},
		{"X", []string{"X"}},
	}
	for _, tt := range tests {
		if got := splitWords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseMethodName(t *testing.T) {
	tests := []struct {
		name   string
		method string
		segs   []segment
		ok     bool
	}{
		{"Get", "GET", nil, true},
		{"GetBy", "GET", []segment{{kind: segParam}}, true},
		{"PostLogin", "POST", []segment{{text: "login"}}, true},
		{"GetByWildcard", "GET", []segment{{kind: segWildcard}}, true},
		{"AnyPing", methodAny, []segment{{text: "ping"}}, true},
		{"GetByID", "GET", []segment{{kind: segParam, text: "id"}}, true},
		{"GetUserByUserIDBy", "GET", []segment{{text: "user"}, {kind: segParam, text: "userID"}, {kind: segParam}}, true},
		{"GetFilesByWildcardRest", "GET", []segment{{text: "files"}, {kind: segWildcard, text: "rest"}}, true},
		{"GetByAPIKey", "GET", []segment{{kind: segParam, text: "apiKey"}}, true},
		{"Helper", "", nil, false},
		{"Getter", "", nil, false},
	}
	for _, tt := range tests {
		method, segs, ok := parseMethodName(tt.name)
		if method != tt.method || ok != tt.ok || !slices.Equal(segs, tt.segs) {
			t.Errorf("parseMethodName(%q) = %q, %v, %v; want %q, %v, %v", tt.name, method, segs, ok, tt.method, tt.segs, tt.ok)
		}
	}
}
