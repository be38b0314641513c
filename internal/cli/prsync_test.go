package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/gh"
	"lanes/state/statetest"
)

// ghStandIn is a gh (writeScript) on a PATH of its own that logs its
// working dir and argv to the returned file, then runs script.
func ghStandIn(t *testing.T, script string) (path, calls string) {
	t.Helper()
	bin := t.TempDir()
	calls = filepath.Join(bin, "calls")
	writeScript(t, bin, "gh", "echo \"$PWD $*\" >> "+shellQuote(calls)+"\n"+script+"\n")
	return bin + string(os.PathListSeparator) + os.Getenv("PATH"), calls
}

// syncRepo is a repository (tempRepo) whose checkout is on branch.
func syncRepo(t *testing.T, branch string) string {
	t.Helper()
	dir := tempRepo(t, 0)
	statetest.Git(t, dir, "checkout", "-q", "-b", branch)
	return dir
}

// lanes pr --sync: one gh read of the session's repository in its dir,
// the PR matched by the branch the checkout is on, and what it found
// said; gh missing or logged out is said with what to do, and nothing
// changes.
func TestPRSync(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	fixture, err := filepath.Abs(filepath.Join("..", "..", "testdata", "gh", "prs.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := lsRecord("prsync01", "api", state.ActivityIdle, now)
	r.Dir, r.CreatedAt = syncRepo(t, "s-conflict"), now.Add(-time.Hour)
	e := lsEnv(t, r)
	e.now = func() time.Time { return now }

	for _, c := range []struct {
		name, script, says string
	}{
		{"gh missing", "", "gh is not installed"},
		{"logged out", "echo 'To get started with GitHub CLI, please run:  gh auth login' >&2; exit 4", "gh is not logged in"},
	} {
		e.vars["PATH"] = t.TempDir()
		if c.script != "" {
			e.vars["PATH"], _ = ghStandIn(t, c.script)
		}
		_, errs, code := e.run("pr", "--sync")
		if code != exitError || !strings.Contains(errs, "PRs from GitHub are off: "+c.says) {
			t.Errorf("%s: exit %d, %q", c.name, code, errs)
		}
		if got := e.ls()["api"]; len(got.PRs) != 0 {
			t.Errorf("%s: PRs %+v", c.name, got.PRs)
		}
	}

	var calls string
	e.vars["PATH"], calls = ghStandIn(t, "cat "+shellQuote(fixture))
	out, errs, code := e.run("pr", "--sync", "api")
	if code != exitOK || out != "api: #109 Conflicts\n" {
		t.Fatalf("pr --sync api: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	log, _ := os.ReadFile(calls)
	if want := r.Dir + " " + strings.Join(gh.Args, " ") + "\n"; string(log) != want {
		t.Errorf("gh ran as %q, want %q", log, want)
	}
	if got := e.ls()["api"]; got.Status != "conflicting" || got.Zone != "needs_you" || len(got.PRs) != 1 || got.PRs[0].URL != "https://github.com/acme/shop/pull/109" {
		t.Errorf("after the sync: status %s zone %s PRs %+v", got.Status, got.Zone, got.PRs)
	}
	if _, errs, code := e.run("pr", "--sync", "--number", "3"); code != exitUsage || !strings.Contains(errs, "no other flag") {
		t.Errorf("pr --sync --number 3: exit %d, %q", code, errs)
	}
	// What gh printed is not its answer: nothing is said read.
	e.vars["PATH"], _ = ghStandIn(t, "echo 'not json'")
	if out, errs, code := e.run("pr", "--sync"); code != exitError || out != "" || !strings.Contains(errs, "not its JSON answer") {
		t.Errorf("gh printing junk: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// A session in no git checkout has no PRs to read, and pr --sync NAME says
// so rather than reporting a read.
func TestPRSyncOutsideACheckout(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	r := lsRecord("prsync02", "plain", state.ActivityIdle, now)
	r.Dir = t.TempDir()
	e := lsEnv(t, r)
	e.vars["PATH"], _ = ghStandIn(t, "echo '[]'")
	out, errs, code := e.run("pr", "--sync", "plain")
	if code != exitOK || !strings.Contains(errs, "plain is in no git checkout") || !strings.Contains(out, "no session is on a branch") {
		t.Errorf("pr --sync plain: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// doctor says whether PRs come from GitHub, and how to turn them on.
func TestDoctorSaysPRs(t *testing.T) {
	e := lsEnv(t)
	for _, c := range []struct{ script, says string }{
		{"", "PRs from GitHub: off — gh is not installed; to turn them on, install GitHub CLI"},
		{"exit 1", "is not logged in; to turn them on, run `gh auth login`"},
		{`[ "$1 $2" = "auth token" ] && echo gho_secret`, "PRs from GitHub: on ("},
	} {
		e.vars["PATH"] = t.TempDir()
		if c.script != "" {
			e.vars["PATH"], _ = ghStandIn(t, c.script)
		}
		out, _, _ := e.run("doctor")
		if !strings.Contains(out, c.says) || strings.Contains(out, "gho_secret") {
			t.Errorf("gh doing %q: doctor says\n%s\nwant %q (and never the token)", c.script, out, c.says)
		}
	}
	e.vars["LANES_PR_EVERY"] = "off"
	if out, _, _ := e.run("doctor"); !strings.Contains(out, "PRs from GitHub: off ($LANES_PR_EVERY=off)") {
		t.Errorf("LANES_PR_EVERY=off: doctor says\n%s", out)
	}
}
