package remote

import (
	"bufio"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// A failure of lanes on the host reads "host build: WHAT IT SAID", the
// host named once; ssh failing reads "host build: ssh …", ssh named once.
func TestRunSaysTheHostOnce(t *testing.T) {
	t.Parallel()
	h := Host{Name: "build", Dest: "me@build"}
	for _, c := range []struct {
		name, errs string
		code       int
		want       string
		remote     bool
	}{
		{"lanes failed", "lanes: --dir /nonexistent/x: stat /nonexistent/x: no such file or directory\n", 1,
			"host build: --dir /nonexistent/x: stat /nonexistent/x: no such file or directory", true},
		{"ssh failed", "ssh: connect to host build port 22: Connection refused\n", 255,
			"host build: ssh: connect to host build port 22: Connection refused", false},
		{"ssh failed silently", "", 255, "host build: ssh: the connection to me@build failed or ended (ssh said no more): what ran there, if anything, is unknown: look with `lanes ls --all-hosts`", false},
		{"the link lost mid-command", "Connection to build closed by remote host.\n", 255,
			"host build: ssh: Connection to build closed by remote host: what ran there, if anything, is unknown: look with `lanes ls --all-hosts`", false},
		{"a note after the error", "lanes: no such session: \"x\"\nlanes: note: commands act on this host's sessions\n", 5,
			"host build: no such session: \"x\"", true},
		{"no lanes there", "bash: line 1: lanes: command not found\n", 127,
			"host build: lanes is not on build's PATH for ssh commands (bash: line 1: lanes: command not found): install it there, or put it in a directory of that PATH", false},
		{"no key", "me@build: Permission denied (publickey).\n", 255,
			"host build: ssh: me@build: Permission denied (publickey). (lanes runs ssh with BatchMode, never asking: load a key with ssh-add, or name one in ~/.ssh/config)", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := fakeSSH(t, "", c.errs, false, c.code).Run(context.Background(), h, nil, "new", "x")
			if err == nil || err.Error() != c.want {
				t.Errorf("error %v, want %q", err, c.want)
			}
			if errors.Is(err, ErrRemote) != c.remote {
				t.Errorf("errors.Is(%v, ErrRemote) = %t, want %t", err, !c.remote, c.remote)
			}
		})
	}
}

// A host that connects and then says nothing is given up on when the
// caller's time is over, and the error says so.
func TestRunGivesUpInTime(t *testing.T) {
	t.Parallel()
	ssh := fakeSSH(t, "", "", true, 0) // holds until its stdin closes
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r, w, err := os.Pipe() // a stdin never written to nor closed
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	_, err = ssh.Run(ctx, Host{Name: "build", Dest: "me@build"}, r, "kill", "x")
	if err == nil || !strings.Contains(err.Error(), "host build: no answer in time") {
		t.Errorf("error %v", err)
	}
}

// A link cut mid-line leaves a piece with no newline: no line of the
// host's, so it is dropped rather than read as an unreadable stream.
func TestWholeLinesDropsACutLine(t *testing.T) {
	sc := bufio.NewScanner(strings.NewReader("{\"type\":\"heartbeat\"}\n{\"type\":\"sess"))
	sc.Split(wholeLines)
	var got []string
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	if len(got) != 1 || got[0] != `{"type":"heartbeat"}` || sc.Err() != nil {
		t.Errorf("lines %q, err %v", got, sc.Err())
	}
}
