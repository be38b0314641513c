package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// writeScript writes an executable sh script named name into dir.
func writeScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	writeExec(t, p, "#!/bin/sh\n"+body)
	return p
}

// writeExec writes an executable file whole, by a child process, never
// through a descriptor of this one: a parallel test's fork would inherit
// it until its exec, and running the file meanwhile fails "text file
// busy" (it did, once).
func writeExec(t *testing.T, p, content string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `cat > "$1" && chmod 700 "$1"`, "sh", p)
	cmd.Stdin = strings.NewReader(content)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("writing %s: %v %s", p, err, out)
	}
}

// waitLines waits for a stand-in's log file and returns its lines.
func waitLines(t *testing.T, path string) []string { return waitNLines(t, path, 1) }

// waitNLines waits until path holds n whole lines or more, and returns
// them: the browser stand-in runs on after OpenPR returns.
func waitNLines(t *testing.T, path string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil && strings.HasSuffix(string(b), "\n") && strings.Count(string(b), "\n") >= n {
			return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never written: %v", path, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// prRepo is a repository on branch feat, one commit ahead of main, whose
// origin is a bare repository beside it, reached as a remote (ext::, as
// git reaches one over ssh: P takes no local transport); a session api
// runs in it, with a gh stand-in (body) first on its PATH.
func prRepo(t *testing.T, ghBody string) (e *env, repo, bare, ghLog string) {
	e = gitEnv(t)
	repo = tempRepo(t, 1)
	bare = filepath.Join(t.TempDir(), "origin.git")
	statetest.Git(t, filepath.Dir(bare), "init", "-q", "--bare", bare)
	statetest.Git(t, repo, "remote", "add", "origin", "ext::git %s "+bare)
	statetest.Git(t, repo, "config", "protocol.ext.allow", "always")
	statetest.Git(t, repo, "checkout", "-q", "-b", "feat")
	statetest.Git(t, repo, "commit", "-q", "--allow-empty", "-m", "feat: the work")
	bin := t.TempDir()
	ghLog = filepath.Join(bin, "gh.log")
	writeScript(t, bin, "gh", "{ pwd; printf '%s\\n' \"$@\"; } > "+shellQuote(ghLog)+"\n"+ghBody)
	e.vars["PATH"] = bin + string(os.PathListSeparator) + os.Getenv("PATH")
	e.must("new", "api", "--dir", repo, "--", "sleep", "600")
	return e, repo, bare, ghLog
}

// prsAfterSpool is the session's PRs after a spool-only cycle.
func prsAfterSpool(t *testing.T, e *env, name string) []state.PR {
	t.Helper()
	c, err := e.app().collector()
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Ingest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r, err := state.Resolve(res.Records, name)
	if err != nil {
		t.Fatal(err)
	}
	return r.PRs
}

// P pushes the branch to origin, runs gh pr create --fill --head BRANCH in
// the session's directory, and records the PR gh printed.
func TestCreatePR(t *testing.T) {
	t.Parallel()
	e, repo, bare, ghLog := prRepo(t, "echo https://github.com/o/r/pull/42\n")
	r := e.record("api")
	if r.Branch != "feat" {
		t.Fatalf("branch %q, want feat", r.Branch)
	}
	said, err := e.app().svc().CreatePR(context.Background(), r)
	if err != nil || said != "PR created: https://github.com/o/r/pull/42" {
		t.Fatalf("CreatePR = %q, %v", said, err)
	}
	if got, want := statetest.Git(t, bare, "rev-parse", "refs/heads/feat"), statetest.Git(t, repo, "rev-parse", "HEAD"); got != want {
		t.Errorf("origin's feat is %s, want %s", got, want)
	}
	if got, want := waitLines(t, ghLog), []string{repo, "pr", "create", "--fill", "--head", "feat"}; !slices.Equal(got, want) {
		t.Errorf("gh ran as %q, want %q (cwd first)", got, want)
	}
	prs := prsAfterSpool(t, e, "api")
	if len(prs) != 1 || prs[0].Number != 42 || prs[0].State != state.PRStateOpen || prs[0].URL != "https://github.com/o/r/pull/42" || prs[0].Head != "feat" {
		t.Errorf("PRs %+v, want #42 open on feat with its URL", prs)
	}
	if _, err := e.app().svc().CreatePR(context.Background(), e.record("api")); err == nil || !strings.Contains(err.Error(), "api already has PR #42 (o opens it)") {
		t.Errorf("a second P: %v, want a refusal naming #42", err)
	}
}

// An origin on this machine gets no push, in any form git reads a local
// one in: receive-pack runs the hooks and config of the repository it
// pushes to, and lanes' -c reaches neither (the twentieth and
// twenty-first hostile re-runs: a pre-receive ran as root through a path,
// an encoded file:// URL, a .git git added, a second url).
func TestCreatePRPushesToNoLocalOrigin(t *testing.T) {
	t.Parallel()
	e, repo, bare, ghLog := prRepo(t, "echo https://github.com/o/r/pull/42\n")
	ran := filepath.Join(t.TempDir(), "ran")
	writeScript(t, filepath.Join(bare, "hooks"), "pre-receive", "touch "+shellQuote(ran)+"\n")
	enc := filepath.Join(filepath.Dir(bare), "team repo.git")
	if err := os.Rename(bare, enc); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.git") // a remote of the user's, then the local one
	statetest.Git(t, filepath.Dir(other), "init", "-q", "--bare", other)
	for _, url := range [][]string{{enc}, {"file://" + strings.ReplaceAll(enc, " ", "%20")}, {strings.TrimSuffix(enc, ".git")},
		{"ext::git %s " + other, enc}} {
		statetest.Git(t, repo, "config", "--unset-all", "remote.origin.url")
		for _, u := range url {
			statetest.Git(t, repo, "config", "--add", "remote.origin.url", u)
		}
		_, err := e.app().svc().CreatePR(context.Background(), e.record("api"))
		if err == nil || !strings.Contains(err.Error(), "origin is a repository on this machine") {
			t.Errorf("origin %q: %v, want a refusal", url, err)
		}
		if _, err := os.Stat(ran); err == nil {
			t.Fatalf("origin %q: its pre-receive hook ran", url)
		}
	}
	if _, err := os.Stat(ghLog); err == nil {
		t.Error("gh ran after a refused push")
	}
}

// GIT_ALLOW_PROTOCOL, exported for other tools, outranks any
// protocol.*.allow: with file in it, lanes' refusal went (the
// twenty-second hostile re-run). git gets it from no process of lanes'.
func TestCreatePRPushesToNoLocalOriginWhateverTheEnvironment(t *testing.T) {
	t.Setenv("GIT_ALLOW_PROTOCOL", "https:ssh:file:ext")
	e, repo, bare, _ := prRepo(t, "echo https://github.com/o/r/pull/42\n")
	ran := filepath.Join(t.TempDir(), "ran")
	writeScript(t, filepath.Join(bare, "hooks"), "pre-receive", "touch "+shellQuote(ran)+"\n")
	statetest.Git(t, repo, "remote", "set-url", "origin", bare)
	_, err := e.app().svc().CreatePR(context.Background(), e.record("api"))
	if err == nil || !strings.Contains(err.Error(), "origin is a repository on this machine") {
		t.Errorf("GIT_ALLOW_PROTOCOL=file: %v, want a refusal", err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the origin's pre-receive hook ran")
	}
}

// The push runs in the repository's git dir: a program its remote runs by
// a relative path is looked for there, never under the checkout, where
// another user may have put one (the twenty-fifth hostile re-run: ssh's
// ProxyCommand, $SHELL, an ssh config named by a relative path).
func TestCreatePRResolvesNothingUnderTheCheckout(t *testing.T) {
	t.Parallel()
	e, repo, bare, _ := prRepo(t, "echo https://github.com/o/r/pull/42\n")
	ran := filepath.Join(t.TempDir(), "ran")
	if err := os.Mkdir(filepath.Join(repo, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeScript(t, filepath.Join(repo, "tools"), "x", "touch "+shellQuote(ran)+"\nexec git \"$@\"\n")
	statetest.Git(t, repo, "remote", "set-url", "origin", "ext::sh tools/x %s "+bare)
	_, err := e.app().svc().CreatePR(context.Background(), e.record("api"))
	if _, serr := os.Stat(ran); serr == nil {
		t.Fatalf("the remote's relative tools/x under the checkout ran (P: %v)", err)
	}
	if err == nil {
		t.Error("P pushed through a program that is not there")
	}
}

// gh's own refusal reaches the user, and no PR is recorded.
func TestCreatePRGHFails(t *testing.T) {
	t.Parallel()
	e, _, _, _ := prRepo(t, "echo 'GraphQL: No commits between main and feat (createPullRequest)' >&2\nexit 1\n")
	_, err := e.app().svc().CreatePR(context.Background(), e.record("api"))
	if err == nil || !strings.Contains(err.Error(), "gh pr create failed: GraphQL: No commits between main and feat") {
		t.Fatalf("CreatePR error %v, want gh's message", err)
	}
	if prs := prsAfterSpool(t, e, "api"); len(prs) != 0 {
		t.Errorf("PRs %+v after gh failed, want none", prs)
	}
}

// Without gh, P runs nothing (the branch is not pushed) and says how to
// get it.
func TestCreatePRNoGH(t *testing.T) {
	t.Parallel()
	e, _, bare, _ := prRepo(t, "")
	r := e.record("api")
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	only := t.TempDir()
	if err := os.Symlink(git, filepath.Join(only, "git")); err != nil {
		t.Fatal(err)
	}
	e.vars["PATH"] = only
	_, err = e.app().svc().CreatePR(context.Background(), r)
	if err == nil || err.Error() != "gh is not installed; install GitHub CLI and run gh auth login" {
		t.Fatalf("CreatePR error %v, want gh is not installed", err)
	}
	if refs := statetest.Git(t, bare, "for-each-ref"); refs != "" {
		t.Errorf("origin got %q; nothing should have been pushed", refs)
	}
}

// o runs $BROWSER with the URL of the PR the badge speaks for, and
// nothing else; with no browser it says the URL; with no URL, what gives
// one.
func TestOpenPR(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	log := filepath.Join(bin, "browser.log")
	browser := writeScript(t, bin, "browser", "printf '%s\\n' \"$@\" > "+shellQuote(log)+"\n")
	vars := map[string]string{"BROWSER": browser, "PATH": bin}
	a := newApp(strings.NewReader(""), io.Discard, io.Discard, func(k string) string { return vars[k] })
	r := &state.Record{Name: "api", PRs: []state.PR{
		{Number: 7, State: state.PRStateMerged, URL: "https://github.com/o/r/pull/7"},
		{Number: 9, State: state.PRStateOpen, CI: state.CIFailing, URL: "https://github.com/o/r/pull/9"},
		{Number: 11, State: state.PRStateOpen, Review: state.ReviewApproved, URL: "https://github.com/o/r/pull/11"},
	}}
	said, err := a.svc().OpenPR(context.Background(), r)
	if err != nil || said != "opened PR #9 with browser" {
		t.Fatalf("OpenPR = %q, %v", said, err)
	}
	if got := waitLines(t, log); !slices.Equal(got, []string{"https://github.com/o/r/pull/9"}) {
		t.Errorf("browser argv %q, want only the failing PR's URL", got)
	}
	vars["BROWSER"] = ""
	if said, err := a.svc().OpenPR(context.Background(), r); err != nil || said != "no browser ($BROWSER unset, no xdg-open): PR #9 https://github.com/o/r/pull/9" {
		t.Errorf("no browser: %q, %v", said, err)
	}
	r.PRs = []state.PR{{Number: 3, State: state.PRStateOpen}}
	if _, err := a.svc().OpenPR(context.Background(), r); err == nil || !strings.Contains(err.Error(), "api has no PR with a URL; lanes pr api") {
		t.Errorf("no URL: %v", err)
	}
}

// A relative $BROWSER names a file under wherever lanes runs, which
// another user may own (the twenty-first hostile re-run: lanes started
// in her directory ran her bin/firefox as root): refused, nothing runs.
func TestOpenPRRefusesARelativeBrowser(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "ran")
	for _, d := range []string{"bin", "~"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		writeScript(t, filepath.Join(dir, d), "firefox", "touch "+shellQuote(log)+"\n")
	}
	t.Chdir(dir)
	vars := map[string]string{"PATH": "/usr/bin:/bin"}
	a := newApp(strings.NewReader(""), io.Discard, io.Discard, func(k string) string { return vars[k] })
	r := &state.Record{Name: "api", PRs: []state.PR{{Number: 9, State: state.PRStateOpen, URL: "https://github.com/o/r/pull/9"}}}
	for _, rel := range []string{"bin/firefox", "./bin/firefox", "~/firefox"} {
		vars["BROWSER"] = rel
		if _, err := a.svc().OpenPR(context.Background(), r); err == nil || !strings.Contains(err.Error(), "$BROWSER is the relative path "+rel) {
			t.Errorf("BROWSER=%s: %v, want a refusal", rel, err)
		}
	}
	if _, err := os.Stat(log); err == nil {
		t.Error("a relative $BROWSER ran")
	}
	// A name that is on no absolute entry of PATH: said as such, not as
	// "$BROWSER unset" (the 26th hostile re-run), and no xdg-open instead.
	vars["BROWSER"], vars["PATH"] = "firefox", "bin:"+dir+"/nothing"
	if _, err := a.svc().OpenPR(context.Background(), r); err == nil || !strings.Contains(err.Error(), "$BROWSER names firefox, which is on no absolute entry of PATH") {
		t.Errorf("BROWSER=firefox not found: %v, want it said", err)
	}
}

// o opens only a PR's page on the forge: a URL that is an option for the
// browser (another host's lines gave one), another scheme, site or shape
// is refused, said, and never reaches $BROWSER (issue 30, item 3).
func TestOpenPRRefusesAnythingButAForgePage(t *testing.T) {
	t.Parallel()
	bin := t.TempDir()
	log := filepath.Join(bin, "browser.log")
	browser := writeScript(t, bin, "browser", "printf '%s\\n' \"$@\" >> "+shellQuote(log)+"\n")
	vars := map[string]string{"BROWSER": browser, "PATH": bin, "GH_HOST": "git.corp.example"}
	a := newApp(strings.NewReader(""), io.Discard, io.Discard, func(k string) string { return vars[k] })
	for _, u := range []string{
		"--renderer-cmd-prefix=touch /tmp/pwned",
		"javascript:alert(1)",
		"http://github.com/o/r/pull/1",
		"file:///etc/passwd",
		"https://evil.example/o/r/pull/1",
		"https://user@github.com/o/r/pull/1",
		"https://github.com/o/r/pull/1?x=--y",
		"https://github.com/o/r/pull/1 --incognito",
		"https://github.com/o/r/issues/1",
		"https://github.com/o/r/pull/1\x1b]52;c;aGk=\x07",
	} {
		r := &state.Record{Name: "api", PRs: []state.PR{{Number: 1, State: state.PRStateOpen, URL: u}}}
		if said, err := a.svc().OpenPR(context.Background(), r); err == nil || !strings.Contains(err.Error(), "lanes opens only https://") {
			t.Errorf("OpenPR(%q) = %q, %v; want it refused", u, said, err)
		} else if strings.ContainsAny(err.Error(), "\x1b\x07") {
			t.Errorf("the refusal carries the URL's escapes raw: %q", err)
		}
	}
	// The refusals started nothing: the first line the browser gets is
	// the one page opened after them.
	r := &state.Record{Name: "api", PRs: []state.PR{{Number: 1, State: state.PRStateOpen, URL: "https://github.com/o/r/pull/1"}}}
	if _, err := a.svc().OpenPR(context.Background(), r); err != nil {
		t.Fatalf("a forge page: %v", err)
	}
	if got := waitLines(t, log); !slices.Equal(got, []string{"https://github.com/o/r/pull/1"}) {
		t.Errorf("the browser got %q", got)
	}
	r.PRs[0].URL = "https://git.corp.example/o/r/pull/1/"
	if _, err := a.svc().OpenPR(context.Background(), r); err != nil {
		t.Errorf("a page on $GH_HOST: %v", err)
	} else if got := waitNLines(t, log, 2); got[len(got)-1] != r.PRs[0].URL {
		// (Waited for, too: the stand-in writing after the test ended
		// made its temporary directory's removal fail.)
		t.Errorf("the browser got %q", got)
	}
	// Another PR's page is not this one's (the board would say it opened
	// #1 and show #6).
	r.PRs[0].URL = "https://github.com/o/r/pull/6"
	if _, err := a.svc().OpenPR(context.Background(), r); err == nil || !strings.Contains(err.Error(), "another PR's page") {
		t.Errorf("#1 with #6's URL: %v", err)
	}
}

// P asks git how far the branch is ahead at the moment it runs, not the
// poller's last count, which lags a commit made in the pane by up to a
// minute: a stale 0 does not refuse a branch with a commit, and a stale 1
// does not push a branch that has none now (trial 3, item 2).
func TestCreatePRAsksGitNow(t *testing.T) {
	t.Parallel()
	e, repo, bare, _ := prRepo(t, "echo https://github.com/o/r/pull/42\n")
	base := statetest.Git(t, repo, "rev-parse", "--abbrev-ref", "@{-1}") // the branch feat started from
	r := e.record("api")
	r.Git = state.GitFacts{Base: base, ReadAt: time.Now(), Ahead: 0} // read before the commit
	if said, err := e.app().svc().CreatePR(context.Background(), r); err != nil || said != "PR created: https://github.com/o/r/pull/42" {
		t.Fatalf("CreatePR with a stale ahead count of 0 = %q, %v; want the PR made", said, err)
	}

	e, repo, bare, _ = prRepo(t, "echo https://github.com/o/r/pull/43\n")
	base = statetest.Git(t, repo, "rev-parse", "--abbrev-ref", "@{-1}")
	statetest.Git(t, repo, "reset", "-q", "--hard", base) // the commit is gone again
	r = e.record("api")
	r.Git = state.GitFacts{Base: base, ReadAt: time.Now(), Ahead: 1}
	_, err := e.app().svc().CreatePR(context.Background(), r)
	if err == nil || !strings.Contains(err.Error(), "has no commit ahead of "+base) {
		t.Fatalf("CreatePR with no commit ahead now: %v, want a refusal", err)
	}
	if refs := statetest.Git(t, bare, "for-each-ref"); refs != "" {
		t.Errorf("origin got %q; nothing should have been pushed", refs)
	}
}
