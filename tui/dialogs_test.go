package tui

import (
	"slices"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{in: "", want: nil},
		{in: "   ", want: nil},
		{in: "--model opus", want: []string{"--model", "opus"}},
		{in: "  make\twatch  ", want: []string{"make", "watch"}},
		{in: `sh -c 'echo "hi"; exit 3'`, want: []string{"sh", "-c", `echo "hi"; exit 3`}},
		{in: `a "b \"c\" \\ d" e`, want: []string{"a", `b "c" \ d`, "e"}},
		{in: `grep "\d+" "line\n" "\$HOME" "a\b"`, want: []string{"grep", `\d+`, `line\n`, `$HOME`, `a\b`}},
		{in: `'back\slash'`, want: []string{`back\slash`}},
		{in: `one\ word two`, want: []string{"one word", "two"}},
		{in: `'' ""`, want: []string{"", ""}},
		{in: `pre'fix'"ed"`, want: []string{"prefixed"}},
		{in: `$HOME *.go ;`, want: []string{"$HOME", "*.go", ";"}},
		{in: `'open`, wantErr: true},
		{in: `"open`, wantErr: true},
		{in: `trailing\`, wantErr: true},
	}
	for _, tt := range tests {
		got, err := splitArgs(tt.in)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("splitArgs(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}
