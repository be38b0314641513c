package shell

import (
	"os/exec"
	"testing"
)

// Every word comes back whole from a real shell, quoted or not, and only
// the plain ones go unquoted.
func TestQuoteRoundTrips(t *testing.T) {
	words := []string{"plain", "a-b_c.d/e:f@g%h+i,j", "", "two words", "it's", "$HOME", "`id`", "a;b", "=cmd", "x=1",
		"~", "*", "new\nline", "\x1b[31m", "'", `\`, "#not-a-comment", "!bang", "{a,b}", "ü"}
	for _, w := range words {
		got, err := exec.Command("sh", "-c", "printf '%s' "+Quote(w)).Output()
		if err != nil || string(got) != w {
			t.Errorf("Quote(%q) = %s: the shell read %q (%v)", w, Quote(w), got, err)
		}
		if got, _ := exec.Command("sh", "-c", "printf '%s' "+Quoted(w)).Output(); string(got) != w {
			t.Errorf("Quoted(%q) = %s: the shell read %q", w, Quoted(w), got)
		}
	}
	for w, plain := range map[string]bool{"plain": true, "a/b.c": true, "x=1": false, "=cmd": false, "": false, "a b": false, "~": false} {
		if (Quote(w) == w) != plain {
			t.Errorf("Quote(%q) = %s, want it plain: %v", w, Quote(w), plain)
		}
	}
	if got := Words([]string{"git", "-C", "my repo", "push"}); got != "git -C 'my repo' push" {
		t.Errorf("Words = %s", got)
	}
}
