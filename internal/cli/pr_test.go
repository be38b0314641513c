package cli

import (
	"os"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"
)

// TestPRRefusesEmptyValues: `--review ”` is a usage error that lists the
// allowed values, and nothing reaches the spool.
func TestPRRefusesEmptyValues(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	r := lsRecord("prval001", "api", state.ActivityIdle, now)
	e := lsEnv(t, r)
	for _, flag := range []string{"--state", "--review", "--ci", "--mergeable"} {
		_, errs, code := e.run("pr", "api", "--number", "3", flag, "")
		if code != exitUsage || !strings.Contains(errs, "want one of") {
			t.Errorf("pr %s '': exit %d, %q; want a usage error listing the values", flag, code, firstLineOf(errs))
		}
	}
	_, errs, code := e.run("pr", "api", "--number", "3", "--url", "https://x.test/"+strings.Repeat("p", 2000))
	if code != exitUsage || !strings.Contains(errs, "--url") {
		t.Errorf("pr with a 2 KB URL: exit %d, %q; want a usage error", code, firstLineOf(errs))
	}
	if _, err := os.Stat(store.SpoolPath(e.state, r.ID)); !os.IsNotExist(err) {
		t.Errorf("a refused pr wrote to the spool (%v)", err)
	}
}

// TestPRAppliesAfterAnEndlessLine: a writer that never ended its line (a
// full disk) does not swallow lanes pr's line, whether or not a cycle read
// the fragment before pr appended behind it.
func TestPRAppliesAfterAnEndlessLine(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	r := lsRecord("prdrop01", "api", state.ActivityIdle, now)
	e := lsEnv(t, r)
	e.now = func() time.Time { return now }
	os.MkdirAll(store.SpoolDir(e.state), 0o700)
	os.WriteFile(store.SpoolPath(e.state, r.ID), []byte(strings.Repeat("g", state.MaxLineBytes+1)), 0o600)
	out, errs, code := e.run("pr", "api", "--number", "12", "--ci", "failing")
	if code != exitOK || !strings.Contains(out, "PR #12 open, review none, ci failing") {
		t.Fatalf("pr behind an endless line: exit %d, stdout %q, stderr %q; want it applied", code, out, errs)
	}
}

// TestPRReportsADroppedLine: when its line does not apply, lanes pr says so
// and fails instead of printing the facts it did not record. Here the
// session's spool file is also linked under another session's name, which
// ingest reads first (names in order), so the line is dropped as that
// session's unknown one.
func TestPRReportsADroppedLine(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	r := lsRecord("prdrop01", "api", state.ActivityIdle, now)
	e := lsEnv(t, r)
	e.now = func() time.Time { return now }
	os.MkdirAll(store.SpoolDir(e.state), 0o700)
	os.WriteFile(store.SpoolPath(e.state, r.ID), nil, 0o600)
	if err := os.Link(store.SpoolPath(e.state, r.ID), store.SpoolPath(e.state, "aaaaaaaa")); err != nil {
		t.Fatal(err)
	}
	out, errs, code := e.run("pr", "api", "--number", "12", "--ci", "failing")
	if code == exitOK || !strings.Contains(errs, "not applied") {
		t.Fatalf("pr whose line was dropped: exit %d, stdout %q, stderr %q; want a failure saying so", code, out, errs)
	}
}

func firstLineOf(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
