package cli

import (
	"strings"
	"testing"
	"time"
)

// What the hostile re-run of doctor's host check found: a host that
// answers `lanes version` with anything else is not ok; one that floods
// its answer costs doctor no more than a short one; one that says much on
// stderr and then succeeds is not cut off as "no answer in time"; and the
// host is named once.
func TestDoctorReachHostileHosts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, script, want string }{
		{"not lanes", "echo 'hijack \x1b]52;c;eA==\x07 gnp.exe'", "!!  host build: `lanes version` answered \"hijack"},
		{"flood", "head -c 30000000 /dev/zero | tr '\\0' 'a'", "!!  host build: `lanes version` answered \"aaaa"},
		{"stderr flood then a version", "head -c 200000 /dev/zero | tr '\\0' 'e' >&2; echo 'lanes 9.9.9'", "ok  host build: lanes 9.9.9 over ssh ("},
		{"refused", "echo 'ssh: connect to host build port 22: Connection refused' >&2; exit 255", "!!  host build: ssh: connect to host build port 22"},
	} {
		run := fakeHost(t, t.TempDir(), "case \"$*\" in\n*'lanes '*version*) "+c.script+";;\nesac\n")
		began := time.Now()
		out, _, _ := run("", "doctor")
		if !strings.Contains(out, c.want) || strings.Contains(out, "host build: host build") || strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s: doctor says\n%s\nwant %q, the host named once, no control", c.name, out, c.want)
		}
		if took := time.Since(began); took > 8*time.Second {
			t.Errorf("%s: doctor took %v", c.name, took)
		}
	}
}
