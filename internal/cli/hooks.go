package cli

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"lanes/agent"
	"lanes/internal/session"
	"lanes/state"
)

// cmdHooks installs lanes' hooks into an agent's own config, for sessions
// started outside lanes. Sessions lanes starts get them injected anyway.
func (a *app) cmdHooks(_ context.Context, args []string) int {
	fl := a.flags("hooks")
	project := fl.String("project", "", "install into this project's config instead of the user's")
	dryRun := fl.Bool("dry-run", false, "print the change as a diff and write nothing")
	if code, done := a.parse(fl, args); done {
		return code
	}
	if fl.NArg() != 2 || fl.Arg(0) != "install" {
		return a.usageErr(fl, "usage: lanes hooks install AGENT (claude, codex, gemini or opencode)")
	}
	ag := state.Agent(fl.Arg(1))
	if !slices.Contains([]string{"claude", "codex", "gemini", "opencode"}, string(ag)) {
		return a.usageErr(fl, "unknown agent %q (want claude, codex, gemini or opencode)", ag)
	}
	dir, err := a.stateDir()
	if err != nil {
		return a.fail(err)
	}
	self, err := hookBinary(dir)
	if err != nil {
		return a.fail(err)
	}
	projectDir := ""
	if *project != "" {
		if projectDir, err = session.WorkDir("--project", *project); err != nil {
			return a.fail(err)
		}
	}
	target, before, after, err := agent.Install(ag, self, a.getenv("HOME"), projectDir)
	if err != nil {
		return a.fail(fmt.Errorf("installing %s hooks: %w", ag, err))
	}
	defer target.Close()
	path := target.Path
	if bytes.Equal(before, after) {
		if *dryRun {
			fmt.Fprintf(a.stdout, "%s hooks are already installed in %s: nothing would change\n", ag, path)
			return exitOK
		}
		fmt.Fprintf(a.stdout, "%s hooks are already installed in %s\n", ag, path)
		return exitOK
	}
	if *dryRun {
		fmt.Fprint(a.stdout, hookDiff(path, target.Exists(), before, after))
		return exitOK
	}
	if installRace != nil {
		installRace()
	}
	// The project dir may be writable by others: the backup and the new
	// file are new files under names nobody can guess, made in the
	// directory the target holds open, and the new file is renamed over the
	// old, so neither a link planted there nor a directory swapped for a
	// link is written through.
	if target.Exists() {
		backup, err := target.Backup(".lanes-backup-"+a.now().UTC().Format("20060102T150405Z")+"-", before)
		if err != nil {
			return a.fail(fmt.Errorf("writing a backup of %s: %w (nothing was changed)", path, err))
		}
		fmt.Fprintf(a.stdout, "backup: %s\n", backup)
	}
	if err := target.Replace(after); err != nil {
		return a.fail(fmt.Errorf("installing %s hooks: %w", ag, err))
	}
	fmt.Fprintf(a.stdout, "installed %s hooks in %s\n", ag, path)
	return exitOK
}

// installRace, when set (by tests), runs between reading the config and
// writing it: where another user who can write the project dir would swap
// a directory on the path for a link.
var installRace func()
