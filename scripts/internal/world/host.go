package world

import (
	"os"
	"path/filepath"

	"lanes/internal/remote/sshtest"
	"lanes/tmux"
)

// Elsewhere is a lanes of another machine that reaches this world as
// host1, over a private sshd on 127.0.0.1: its own state dir and tmux
// server, a hosts file naming host1.
type Elsewhere struct {
	Rig *sshtest.Rig
	// Env is its environment after the world's (its settings win): for
	// StartBoard's extra, or Lanes.
	Env []string
	w   *World
}

// AsHost puts this world behind a private sshd as host1 (sshtest.Launch:
// root's rights, openssh-server) and returns the lanes elsewhere that
// reaches it. Close stops the sshd.
func (w *World) AsHost() (*Elsewhere, error) {
	if err := sshtest.Usable(); err != nil {
		return nil, err
	}
	dir, cfg := filepath.Join(w.Root, "rig"), filepath.Join(w.Root, "elsewhere", "config")
	if err := os.MkdirAll(filepath.Join(cfg, "lanes"), 0o700); err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(cfg, "lanes", "hosts"), []byte("host1 host1\n"), 0o600); err != nil {
		return nil, err
	}
	port, err := sshtest.FreePort()
	if err != nil {
		return nil, err
	}
	rig, err := sshtest.Launch(dir, w.Home, w.Bin, port, []sshtest.Spec{{Name: "host1", StateDir: w.State, Tmux: tmux.New(w.Socket)}})
	if err != nil {
		if rig != nil {
			rig.Stop()
		}
		return nil, err
	}
	return &Elsewhere{Rig: rig, w: w, Env: []string{"LANES_STATE_DIR=" + filepath.Join(w.Root, "elsewhere", "state"),
		"XDG_CONFIG_HOME=" + cfg, "LANES_SSH=" + rig.SSH.Program, "LANES_TMUX_SOCKET=" + w.Socket + "-elsewhere"}}, nil
}

// Lanes runs `lanes ARGS…` elsewhere.
func (e *Elsewhere) Lanes(args ...string) Result {
	return e.w.run(append(e.w.Env(), e.Env...), "", args...)
}

// Close stops the sshd, and with it every connection to host1.
func (e *Elsewhere) Close() { e.Rig.Stop() }
