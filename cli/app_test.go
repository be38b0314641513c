package cli

import (
	"strings"
	"testing"
)

func TestCommandOf(t *testing.T) {
	for args, want := range map[string]string{
		"":                                  "",
		"hook claude":                       "hook",
		"--socket s status-line --format j": "status-line",
		"--socket=s -theme light ls":        "ls",
		"--theme dark":                      "",
		"send api status-line":              "send",
	} {
		if got := commandOf(strings.Fields(args)); got != want {
			t.Errorf("commandOf(%q) = %q, want %q", args, got, want)
		}
	}
}
