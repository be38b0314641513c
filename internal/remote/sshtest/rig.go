package sshtest

import (
	"bytes"
	"errors"
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
	"lanes/tmux"
)

// Sshd is the daemon: /usr/sbin/sshd (openssh-server).
const Sshd = "/usr/sbin/sshd"

// Rig is a private sshd and the hosts behind it.
type Rig struct {
	t testing.TB // New's; nil for Launch's
	// Dir holds the keys, configs, logs and the ssh wrapper.
	Dir string
	// Port is where the sshd listens on 127.0.0.1.
	Port int
	// SSH runs the client with the rig's config (Program is the wrapper).
	SSH   remote.SSH
	Hosts []*Host
	home  string // the remote lanes's $HOME

	mu   sync.Mutex
	sshd *exec.Cmd
	done chan struct{} // closed when the running sshd exited
}

// Spec is a host Launch puts behind the rig: a lanes with state dir
// StateDir and tmux server Tmux, reached over ssh as Name.
type Spec struct {
	Name, StateDir string
	Tmux           *tmux.Client
}

// Usable says why a rig cannot run here (nil: it can): it needs root's
// rights, sshd, ssh and ssh-keygen.
func Usable() error {
	if os.Geteuid() != 0 {
		return errors.New("a private sshd needs root's rights here")
	}
	if _, err := os.Stat(Sshd); err != nil {
		return errors.New(Sshd + " missing (openssh-server)")
	}
	for _, tool := range []string{"ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			return errors.New(tool + " not on PATH (openssh-client)")
		}
	}
	return nil
}

// Launch starts a private sshd on 127.0.0.1:port, its keys, configs and
// log in dir, with a host for each of specs, whose lanes (the binary bin)
// runs with $HOME home. A rig returned is stopped by Stop, also with an
// error.
func Launch(dir, home, bin string, port int, specs []Spec) (*Rig, error) {
	// sshd's privilege separation dir, as its service would make it.
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		return nil, fmt.Errorf("creating /run/sshd: %w", err)
	}
	r := &Rig{Dir: dir, Port: port, home: home}
	for _, key := range []string{"hostkey", "id"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", r.path(key)).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, err := os.ReadFile(r.path("id.pub"))
	if err != nil {
		return nil, err
	}
	var cfg strings.Builder
	for _, sp := range specs {
		h := &Host{rig: r, StateDir: sp.StateDir, Tmux: sp.Tmux}
		h.Name, h.Dest = sp.Name, sp.Name
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
	files := []struct {
		name, text string
		mode       os.FileMode
	}{
		{"authorized_keys", string(pub), 0o600},
		{"sshd_config", fmt.Sprintf(`Port %d
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
`, r.Port, r.path("hostkey"), r.path("authorized_keys"), r.path("sshd.pid"), filepath.Dir(bin), home), 0o600},
		{"ssh_config", cfg.String(), 0o600},
		{"ssh", fmt.Sprintf("#!/bin/sh\nexec ssh -F %s \"$@\"\n", r.path("ssh_config")), 0o700},
	}
	for _, f := range files {
		if _, err := r.write(f.name, f.text, f.mode); err != nil {
			return nil, err
		}
	}
	r.SSH = remote.SSH{Program: r.path("ssh")}
	return r, r.Up()
}

func (r *Rig) path(name string) string { return filepath.Join(r.Dir, name) }

func (r *Rig) write(name, s string, mode os.FileMode) (string, error) {
	return r.path(name), os.WriteFile(r.path(name), []byte(s), mode)
}

// Start is Up in a test: a failure fails it.
func (r *Rig) Start() {
	r.t.Helper()
	if err := r.Up(); err != nil {
		r.t.Fatal(err)
	}
}

// Up starts the sshd (again) and returns once it accepts connections.
func (r *Rig) Up() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sshd != nil {
		return nil
	}
	cmd := exec.Command(Sshd, "-D", "-f", r.path("sshd_config"), "-E", r.path("sshd.log"))
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting sshd: %w", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	r.sshd, r.done = cmd, done
	for end := time.Now().Add(10 * time.Second); ; {
		if banner(r.Port) {
			return nil
		}
		select {
		case <-done:
			log, _ := os.ReadFile(r.path("sshd.log"))
			r.sshd = nil
			return fmt.Errorf("sshd exited at start: %s", log)
		default:
		}
		if time.Now().After(end) {
			return fmt.Errorf("sshd not answering on port %d after 10 s", r.Port)
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

// FreePort is a port of 127.0.0.1 nothing listens on, below the range
// the kernel hands out to outgoing connections: a client of another test
// cannot take it between this look and the sshd's bind (or while the
// sshd is stopped and started again).
func FreePort() (int, error) {
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
			return port, nil
		}
	}
	return 0, fmt.Errorf("no free port of 127.0.0.1 in 10000-%d after 100 tries", low-1)
}
