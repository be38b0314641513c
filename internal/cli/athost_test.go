package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// NAME@HOST runs the command there, over $LANES_SSH, each word its own
// and the name without its host; the prompt of `send NAME@HOST -` goes on
// stdin; a host not in the hosts file, or a name lanes would not make,
// is refused before any ssh; a plain NAME stays here.
func TestNameAtHost(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := filepath.Join(dir, "ssh.log")
	run := fakeHost(t, dir, "{ printf '%s\\n' \"$*\"; cat; echo; } >> '"+log+"'\n"+
		"case \"$*\" in *'kill gone'*) echo 'lanes: no session named gone' >&2; exit 5;; esac\n"+
		"printf 'did it\\033]0;title\\007\\n'\n")
	if out, errs, code := run("", "answer", "--dialog", "2026-12-04T03:00:00.5Z", "api@build", "yes"); code != exitOK || !strings.Contains(out, "did it") {
		t.Fatalf("answer api@build: exit %d, %q %q", code, out, errs)
	}
	if _, errs, code := run("go on; rm -rf ~", "send", "api@build", "-"); code != exitOK {
		t.Fatalf("send api@build -: exit %d, %q", code, errs)
	}
	// Text in argv here still goes on stdin there (a hostile re-run: it
	// sat in three argvs, ps readable on both hosts).
	if _, errs, code := run("", "send", "--force", "api@build", "--", "keep", "this", "quiet"); code != exitOK {
		t.Fatalf("send api@build -- TEXT: exit %d, %q", code, errs)
	}
	// lanes there failing: its exit code, its words.
	if _, errs, code := run("", "kill", "gone@build"); code != exitNoSession || !strings.Contains(errs, "no session named gone") {
		t.Errorf("kill gone@build: exit %d %q, want %d and its words", code, errs, exitNoSession)
	}
	if out, _, _ := run("", "peek", "api@build"); strings.Contains(out, "\x1b") || !strings.Contains(out, "did it") {
		t.Errorf("another host's words printed raw: %q", out)
	}
	b, _ := os.ReadFile(log)
	got := string(b)
	for _, want := range []string{
		"me@build.box lanes answer --dialog 2026-12-04T03:00:00.5Z api yes\n",
		"me@build.box lanes send api -\ngo on; rm -rf ~\n",
		"me@build.box lanes send --force api -\nkeep this quiet\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("ssh ran\n%s\nwant a line %q", got, want)
		}
	}
	if strings.Contains(got, "rm -rf ~ ") || strings.Contains(got, "send api - go on") || strings.Contains(got, "-- keep") {
		t.Error("the prompt reached an argv")
	}
	for _, c := range [][]string{{"kill", "api@gpu"}, {"kill", "a;b@build"}} {
		if _, errs, code := run("", c...); code == exitOK || errs == "" {
			t.Errorf("%q: exit %d, %q", c, code, errs)
		}
	}
	if _, errs, _ := run("", "kill", "api@gpu"); !strings.Contains(errs, `no host "gpu" in the hosts file`) {
		t.Errorf("an unknown host: %q", errs)
	}
	before, _ := os.ReadFile(log)
	if _, _, code := run("", "kill", "api"); code == exitOK {
		t.Error("a plain NAME no session here has: exit 0")
	}
	if after, _ := os.ReadFile(log); len(after) != len(before) {
		t.Error("a plain NAME went over ssh")
	}
}

// What lanes there suggests for one of its sessions names it NAME@HOST
// here, said as an error or as a report; what finds nothing here says
// where else to look, and new how a session starts there.
func TestAtHostHintsNameTheHost(t *testing.T) {
	t.Parallel()
	run := fakeHost(t, t.TempDir(), "case \"$*\" in\n"+
		"*'rm live'*) echo 'lanes: live is live; `lanes kill live` first' >&2; exit 1;;\n"+
		"*'kill done'*) echo 'killed done (a1b2); its record is kept — `lanes rm a1b2` removes it';;\n"+
		"*'lanes '*version*) echo 'lanes 9.9.9 (build abc)';;\n"+
		"esac\n")
	if _, errs, _ := run("", "rm", "live@build"); !strings.Contains(errs, "`lanes kill live@build` first") {
		t.Errorf("rm live@build said %q, want its hint to name the host", errs)
	}
	if out, _, _ := run("", "kill", "done@build"); !strings.Contains(out, "`lanes rm a1b2@build` removes it") {
		t.Errorf("kill done@build said %q, want its hint to name the host", out)
	}
	if out, _, _ := run("", "ls"); !strings.Contains(out, "no sessions here — other hosts: `lanes ls --all-hosts`") {
		t.Errorf("ls with no session here said %q, want where else to look", out)
	}
	if _, errs, _ := run("", "next"); !strings.Contains(errs, "nothing else needs you here — other hosts: `lanes next --all-hosts`") {
		t.Errorf("next with no session here said %q, want where else to look", errs)
	}
	if out, _, _ := run("", "doctor"); !strings.Contains(out, "ok  host build: lanes 9.9.9 (build abc) over ssh (") {
		t.Errorf("doctor does not say what the host answered:\n%s", out)
	}
	if _, errs, code := run("", "new", "web@build"); code != exitUsage || !strings.Contains(errs, "`ssh me@build.box lanes new …`") {
		t.Errorf("new web@build: exit %d %q, want how a session starts there", code, errs)
	}
}

// fakeHost is host "build" of a hosts file in dir, reached by an ssh
// that runs script, and a run of this lanes there.
func fakeHost(t *testing.T, dir, script string) func(stdin string, args ...string) (string, string, int) {
	t.Helper()
	ssh := filepath.Join(dir, "ssh")
	writeExec(t, ssh, "#!/bin/sh\n"+script)
	cfg := filepath.Join(dir, "config")
	if err := os.MkdirAll(filepath.Join(cfg, "lanes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "lanes", "hosts"), []byte("build me@build.box\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"LANES_SSH": ssh, "XDG_CONFIG_HOME": cfg, "LANES_STATE_DIR": filepath.Join(dir, "state"),
		"LANES_TMUX_SOCKET": "lanes-test-athost-none", "HOME": dir}
	return func(stdin string, args ...string) (string, string, int) {
		var out, errb strings.Builder
		a := newApp(strings.NewReader(stdin), &out, &errb, func(k string) string { return env[k] })
		code := a.main(context.Background(), args)
		return out.String(), errb.String(), code
	}
}
