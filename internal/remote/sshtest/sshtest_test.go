package sshtest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// Each host of the rig is its own lanes: what one is told over ssh, the
// other never sees, and the remote lanes reads the host's own state.
func TestHostsAreSeparateLanes(t *testing.T) {
	r := New(t, 2)
	r.Hosts[0].Lanes(t, "new", "api", "--", "sleep", "600")
	for i, want := range []string{`"name":"api"`, "[]"} {
		argv := r.SSH.Lanes(r.Hosts[i].Host, "ls", "--json")
		out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("ls over ssh on %s: %v\n%s", r.Hosts[i].Name, err, out)
		}
	}
	r.Stop()
	argv := r.SSH.Lanes(r.Hosts[0].Host, "version")
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err == nil {
		t.Errorf("ssh with sshd stopped: %s", out)
	}
	r.Start()
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "lanes ") {
		t.Errorf("ssh with sshd started again: %v %s", err, out)
	}
}
