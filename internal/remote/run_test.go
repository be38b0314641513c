package remote

import (
	"context"
	"errors"
	"testing"
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
		{"ssh failed silently", "", 255, "host build: ssh: could not reach me@build", false},
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
