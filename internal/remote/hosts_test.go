package remote

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadHosts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hosts")
	if got, err := LoadHosts(path); err != nil || got != nil {
		t.Fatalf("a missing file is no hosts: %v %v", got, err)
	}
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("# build farm\nbuild  me@build.example\n\n  laptop ssh://me@laptop:2222  \n")
	got, err := LoadHosts(path)
	want := []Host{{"build", "me@build.example"}, {"laptop", "ssh://me@laptop:2222"}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v %v, want %v", got, err, want)
	}
	for _, bad := range []struct{ file, says string }{
		{"build\n", ":1: bad hosts entry: want `NAME DESTINATION`"},
		{"ok a\nbuild me@b extra\n", ":2: bad hosts entry: want `NAME DESTINATION`"},
		{"b/x me@b\n", `host name "b/x"`},
		{"b -oProxyCommand=x\n", `destination "-oProxyCommand=x" is not one ssh takes`},
		{"b x\nb y\n", ":2: bad hosts entry: host b named twice (first on line 1)"},
		{"b me@x\nc me@x\n", ":2: bad hosts entry: me@x is line 1's destination already: one name a host"},
	} {
		write(bad.file)
		_, err := LoadHosts(path)
		if !errors.Is(err, ErrHosts) || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("%q: %v, want it to say %q", bad.file, err, bad.says)
		}
	}
}

// A trailing # comment is a comment; every bad line is said at once and
// skipped, and the good lines' hosts are still there.
func TestLoadHostsSkipsBadLinesAndSaysEach(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hosts")
	file := "build  me@build.example   # the build box\n" + // 1
		"gpu\tgpu#no space before it\n" + // 2
		"oops\n" + // 3
		"ok  ok.example\n" + // 4
		"b/x me@b\n" + // 5
		"build other.example\n" // 6
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := LoadHosts(path)
	want := []Host{{"build", "me@build.example"}, {"gpu", "gpu"}, {"ok", "ok.example"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("hosts %v, want %v", got, want)
	}
	var he *HostsError
	if !errors.As(err, &he) || !errors.Is(err, ErrHosts) || !reflect.DeepEqual(he.Lines, []int{3, 5, 6}) {
		t.Fatalf("error %v, want one naming lines 3, 5 and 6", err)
	}
	lines := strings.Split(err.Error(), "\n")
	for i, n := range []string{":3: ", ":5: ", ":6: "} {
		if i >= len(lines) || !strings.HasPrefix(lines[i], path+n+"bad hosts entry: ") {
			t.Errorf("error line %d: %q, want FILE%sbad hosts entry: …", i, lines[min(i, len(lines)-1)], n)
		}
	}
	if got, want := he.Short(), "lines 3, 5, 6 of "+path; got != want {
		t.Errorf("Short %q, want %q", got, want)
	}
}

func TestParseHost(t *testing.T) {
	for in, want := range map[string]Host{
		"build=me@build.example": {"build", "me@build.example"},
		"me@box.example":         {"box.example", "me@box.example"},
		"ssh://me@vm:2222":       {"vm", "ssh://me@vm:2222"},
		"alias":                  {"alias", "alias"},
	} {
		if got, err := ParseHost(in); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	if _, err := ParseHost("x=-oProxyCommand=sh"); !errors.Is(err, ErrHosts) {
		t.Errorf("an option for a destination: %v", err)
	}
}

// Each word reaches the remote command as it was, whatever it holds: the
// remote shell sees only quoted words.
func TestLanesQuotesEveryWord(t *testing.T) {
	words := []string{"send", "api", "-", "it's $HOME; `id` | x", "", "a\nb", "--", "*", "~", "=lanes-api"}
	argv := SSH{}.Lanes(Host{"b", "me@b"}, words...)
	if argv[0] != "ssh" || argv[len(argv)-3] != "--" || argv[len(argv)-2] != "me@b" {
		t.Fatalf("argv %q", argv)
	}
	// What sshd does with it: the login shell runs the one string; here
	// `lanes` is a function that prints its arguments one per line.
	out, err := exec.Command("sh", "-c", `lanes() { for a; do printf '<%s>' "$a"; done; }; `+argv[len(argv)-1]).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	for _, w := range words {
		want += "<" + w + ">"
	}
	if string(out) != want {
		t.Errorf("the remote shell saw %q, want %q", out, want)
	}
}

// zsh, a common login shell, reads a word starting with = as a command's
// path: the attach target (=lanes-NAME) goes quoted.
func TestAttachQuotesItsTarget(t *testing.T) {
	argv := SSH{}.Attach(Host{"b", "me@b"}, "work", "lanes-api")
	if last := argv[len(argv)-1]; last != "tmux -L work attach-session -t '=lanes-api'" {
		t.Errorf("remote command %q", last)
	}
}
