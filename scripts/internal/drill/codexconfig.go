package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"lanes/scripts/internal/world"
)

// The Codex config drill starts a fake `codex` that writes down its argv,
// once under a config.toml Codex can read and once under one it would
// refuse (a bad value after notify). The first has its notify chained
// behind lanes'; the second keeps the user's notify as configured, and
// lanes new says so, naming the file and the line.

const fakeArgvCodex = "#!/bin/sh\nprintf '%%s\\n' \"$@\" > %q.tmp && mv %q.tmp %q\nexec sleep 86400\n"

func drillCodexConfig(w *world.World) (string, error) {
	dir := filepath.Join(w.Root, "fake-codex-argv")
	argvFile := filepath.Join(dir, "argv")
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o700); err != nil {
		return "", err
	}
	script := fmt.Sprintf(fakeArgvCodex, argvFile, argvFile, argvFile)
	if err := os.WriteFile(filepath.Join(dir, "bin", "codex"), []byte(script), 0o700); err != nil {
		return "", err
	}
	restore, err := fakeOnPath(w, filepath.Join(dir, "bin"))
	if err != nil {
		return "", err
	}
	defer restore()
	config := filepath.Join(w.Home, ".codex", "config.toml")
	if err := os.MkdirAll(filepath.Dir(config), 0o700); err != nil {
		return "", err
	}
	// start runs lanes new under the given config and returns its stderr
	// and whether the fake codex got lanes' -c notify override.
	start := func(name, toml string) (string, bool, error) {
		_ = os.Remove(argvFile)
		if err := os.WriteFile(config, []byte(toml), 0o600); err != nil {
			return "", false, err
		}
		r := w.Lanes("", "new", name, "--agent", "codex", "--dir", w.Root)
		if r.Code != 0 {
			return "", false, fmt.Errorf("lanes new %s: exit %d: %s", name, r.Code, strings.TrimSpace(r.Stderr))
		}
		var argv []byte
		if !world.WaitFor(10*time.Second, func() bool { argv, err = os.ReadFile(argvFile); return err == nil }) {
			return "", false, fmt.Errorf("the fake codex of %s never wrote its argv: %v", name, err)
		}
		return strings.TrimSpace(r.Stderr), strings.Contains(string(argv), "\nnotify=["), nil
	}
	warn, notify, err := start("good", "model = \"o3\"\nnotify = [\"ntfy\", \"done\"]\n")
	if err != nil {
		return "", err
	}
	ev := fmt.Sprintf("readable config: lanes' notify passed %v", notify)
	if !notify || strings.Contains(warn, "left as configured") {
		return ev, fmt.Errorf("a readable notify was not chained (stderr %q)", warn)
	}
	warn, notify, err = start("bad", "notify = [\"ntfy\", \"done\"]\nmodel = o3\n")
	if err != nil {
		return ev, err
	}
	ev += fmt.Sprintf("; config Codex would refuse: lanes' notify passed %v, lanes new says %q", notify, warn)
	if notify || !strings.Contains(warn, "notify left as configured") || !strings.Contains(warn, config+": line 2") {
		return ev, fmt.Errorf("want the user's notify kept and a warning naming %s and line 2", config)
	}
	return ev, nil
}
