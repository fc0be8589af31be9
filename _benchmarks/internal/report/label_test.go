package report

import "testing"

func TestLabel(t *testing.T) {
	for _, tc := range []struct{ app, want string }{
		{"nethttp", FloorLabel},
		{"nethttp-templates", FloorLabel},
		{"nethttp-sessions", FloorLabel},
		{"nethttpx", "nethttpx"},
		{"vireo-mvc-templates", "vireo-mvc-templates"},
		{"iris-sessions", "iris-sessions"},
	} {
		if got := Label(tc.app); got != tc.want {
			t.Errorf("Label(%q) = %q, want %q", tc.app, got, tc.want)
		}
	}
}
