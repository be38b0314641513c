// Package sshtest gives integration tests a real sshd and hosts behind it.
//
// The sshd is private: it listens on a free port of 127.0.0.1, with its
// own host key, config, authorized key and pid file in a temporary
// directory, and the ssh client reads only the config written there (a
// LANES_SSH-style wrapper passes -F). Nothing touches $HOME, ~/.ssh, the
// system's sshd or port 22. Each host is a Host entry of that config whose
// SetEnv gives the remote lanes its own state dir and tmux server (a
// private -L lanes-test-<random> server read with -f /dev/null), so one
// machine plays several: a second lanes with its own store is another
// host. Everything is stopped and removed when the test ends.
package sshtest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"lanes/internal/remote"
	"lanes/internal/testenv"
	"lanes/tmux"
	"lanes/tmux/tmuxtest"
)

// Sshd is the daemon: /usr/sbin/sshd (openssh-server).
const Sshd = "/usr/sbin/sshd"

// Rig is a private sshd and the hosts behind it.
type Rig struct {
	t testing.TB
	// Dir holds the keys, configs, logs and the ssh wrapper.
	Dir string
	// Port is where the sshd listens on 127.0.0.1.
	Port int
	// SSH runs the client with the rig's config (Program is the wrapper).
	SSH   remote.SSH
	Hosts []*Host

	mu   sync.Mutex
	sshd *exec.Cmd
	done chan struct{} // closed when the running sshd exited
}

// Host is one host behind the rig: a lanes with its own store and tmux
// server, reached as Name over ssh.
type Host struct {
	remote.Host
	StateDir string
	Tmux     *tmux.Client
	rig      *Rig
}

// New starts a private sshd with n hosts behind it, host1…hostN. It skips
// in the fast tier, and (testenv.Skip) without sshd, ssh or root's rights.
func New(t testing.TB, n int) *Rig {
	t.Helper()
	testenv.TmuxTier(t)
	if os.Geteuid() != 0 {
		testenv.Skip(t, "a private sshd needs root's rights here")
	}
	if _, err := os.Stat(Sshd); err != nil {
		testenv.Skip(t, Sshd+" missing (openssh-server)")
	}
	for _, tool := range []string{"ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Skip(t, tool+" not on PATH (openssh-client)")
		}
	}
	// sshd's privilege separation dir, as its service would make it.
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatalf("creating /run/sshd: %v", err)
	}
	bin := LanesBinary(t)
	r := &Rig{t: t, Dir: t.TempDir(), Port: freePort(t)}
	for _, key := range []string{"hostkey", "id"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", r.path(key)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, err := os.ReadFile(r.path("id.pub"))
	if err != nil {
		t.Fatal(err)
	}
	r.write("authorized_keys", string(pub), 0o600)
	r.write("sshd_config", fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
AuthorizedKeysFile %s
PidFile %s
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
AcceptEnv LANES_*
SetEnv PATH=%s:/usr/local/bin:/usr/bin:/bin HOME=%s
`, r.Port, r.path("hostkey"), r.path("authorized_keys"), r.path("sshd.pid"), filepath.Dir(bin), r.Dir), 0o600)

	var cfg strings.Builder
	for i := range n {
		h := &Host{rig: r, StateDir: filepath.Join(r.Dir, fmt.Sprintf("state%d", i+1)), Tmux: tmuxtest.Server(t)}
		h.Name = fmt.Sprintf("host%d", i+1)
		h.Dest = h.Name
		if _, err := h.Tmux.Run(context.Background(), "new-session", "-d", "-s", "keep", "sleep", "3600"); err != nil {
			t.Fatalf("starting %s's tmux server: %v", h.Name, err)
		}
		fmt.Fprintf(&cfg, `Host %s
  HostName 127.0.0.1
  Port %d
  User root
  IdentityFile %s
  IdentitiesOnly yes
  UserKnownHostsFile %s
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking accept-new
  LogLevel ERROR
  SetEnv LANES_STATE_DIR=%s LANES_TMUX_SOCKET=%s
`, h.Name, r.Port, r.path("id"), r.path("known_hosts"), h.StateDir, h.Tmux.Socket)
		r.Hosts = append(r.Hosts, h)
	}
	r.write("ssh_config", cfg.String(), 0o600)
	r.SSH = remote.SSH{Program: r.write("ssh", fmt.Sprintf("#!/bin/sh\nexec ssh -F %s \"$@\"\n", r.path("ssh_config")), 0o700)}
	r.Start()
	t.Cleanup(r.Stop)
	return r
}

func (r *Rig) path(name string) string { return filepath.Join(r.Dir, name) }

func (r *Rig) write(name, s string, mode os.FileMode) string {
	r.t.Helper()
	if err := os.WriteFile(r.path(name), []byte(s), mode); err != nil {
		r.t.Fatal(err)
	}
	return r.path(name)
}

// Start starts the sshd (again) and returns once it accepts connections.
func (r *Rig) Start() {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sshd != nil {
		return
	}
	cmd := exec.Command(Sshd, "-D", "-f", r.path("sshd_config"), "-E", r.path("sshd.log"))
	if err := cmd.Start(); err != nil {
		r.t.Fatalf("starting sshd: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	r.sshd, r.done = cmd, done
	for end := time.Now().Add(10 * time.Second); ; {
		if banner(r.Port) {
			return
		}
		select {
		case <-done:
			log, _ := os.ReadFile(r.path("sshd.log"))
			r.t.Fatalf("sshd exited at start: %s", log)
		default:
		}
		if time.Now().After(end) {
			r.t.Fatalf("sshd not answering on port %d after 10 s", r.Port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// banner: something on port speaks SSH.
func banner(port int) bool {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	b := make([]byte, 8)
	n, _ := c.Read(b)
	return bytes.HasPrefix(b[:n], []byte("SSH-"))
}

// Stop kills the sshd and every connection it serves, as a host lost
// would: the clients' ssh see their connections close.
func (r *Rig) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sshd == nil {
		return
	}
	pid := r.sshd.Process.Pid
	// The listener stopped first, so it forks no new connection while
	// its tree is read (a child forked after the read would be left,
	// reparented away from it), then every process it forked (one tree
	// per connection, the remote lanes included), then the listener.
	r.sshd.Process.Signal(syscall.SIGSTOP)
	tree := descendants(pid)
	for _, p := range tree {
		if proc, err := os.FindProcess(p); err == nil {
			proc.Kill()
		}
	}
	r.sshd.Process.Kill()
	<-r.done
	r.sshd = nil
}

// Freeze stops the sshd and every process it forked (SIGSTOP), a host
// that holds its connections open and answers nothing; the returned
// function thaws them (SIGCONT). The listener stops first, as in Stop.
func (r *Rig) Freeze() (thaw func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	pid := r.sshd.Process.Pid
	r.sshd.Process.Signal(syscall.SIGSTOP)
	tree := append(descendants(pid), pid)
	for _, p := range tree {
		syscall.Kill(p, syscall.SIGSTOP)
	}
	return func() {
		for _, p := range tree {
			syscall.Kill(p, syscall.SIGCONT)
		}
	}
}

// SlowSSH is the rig's ssh through a link that delays each line of the
// stream by delay.
func (r *Rig) SlowSSH(delay time.Duration) remote.SSH {
	r.t.Helper()
	script := fmt.Sprintf(`#!/bin/bash
ssh -F %s "$@" | while IFS= read -r line; do sleep %.3f; printf '%%s\n' "$line"; done
exit "${PIPESTATUS[0]}"
`, r.path("ssh_config"), delay.Seconds())
	return remote.SSH{Program: r.write(fmt.Sprintf("slow-ssh-%d", delay.Milliseconds()), script, 0o700)}
}

// Env is the environment lanes runs in as h, on this machine.
func (h *Host) Env() []string {
	return []string{"LANES_STATE_DIR=" + h.StateDir, "LANES_TMUX_SOCKET=" + h.Tmux.Socket,
		"HOME=" + h.rig.Dir, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/sh"}
}

// Lanes runs `lanes ARGS…` as h (here, not over ssh: what an agent or a
// user on that host does) and returns its stdout; a failure fails t.
func (h *Host) Lanes(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command(LanesBinary(t), args...)
	cmd.Env = h.Env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("lanes %s on %s: %v\n%s%s", strings.Join(args, " "), h.Name, err, out.String(), errb.String())
	}
	return out.String()
}

// freePort is a port of 127.0.0.1 nothing listens on, below the range
// the kernel hands out to outgoing connections: a client of another test
// cannot take it between this look and the sshd's bind (or while the
// sshd is stopped and started again).
func freePort(t testing.TB) int {
	t.Helper()
	low := 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > 11000 {
				low = n
			}
		}
	}
	for range 100 {
		port := 10000 + rand.IntN(low-10000)
		if l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			l.Close()
			return port
		}
	}
	t.Fatalf("no free port of 127.0.0.1 in 10000-%d after 100 tries", low-1)
	return 0
}
