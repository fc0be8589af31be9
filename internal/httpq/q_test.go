package httpq

import "testing"

func TestQ(t *testing.T) {
	tests := []struct {
		params string
		want   float64
	}{
		{"", 1},
		{"q=0.8", 0.8},
		{" q=0 ", 0},
		{"Q=0.5", 0.5},
		{"level=1; q=0.3", 0.3},
		{"level=1", 1},
		{"q=1.5", 0},
		{"q=-1", 0},
		{"q=abc", 0},
		{"q = 0.2", 0.2},
	}
	for _, tt := range tests {
		if got := Q(tt.params); got != tt.want {
			t.Errorf("Q(%q) = %v, want %v", tt.params, got, tt.want)
		}
	}
}
