package session

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"lanes/state"
	"lanes/state/gh"
	"lanes/state/git"
	"lanes/state/store"
)

// The board's PR keys (docs/design.md §14): o opens the PR a card's badge
// speaks for, P pushes a session's branch and opens a PR for it with gh.

// prStepTimeout bounds each process P runs: a push or gh that hangs (a
// network gone, a prompt nobody sees) ends with a message, not never.
const prStepTimeout = 60 * time.Second

// prURLNumber is the number at the end of a PR's URL (…/pull/N).
var prURLNumber = regexp.MustCompile(`/pull/([0-9]+)/?$`)

// OpenPR opens the URL of the PR r's card speaks for: with $BROWSER (one
// program), else xdg-open, started apart from the board and never waited
// for; with neither it says the URL, to copy.
func (s *Service) OpenPR(_ context.Context, r *state.Record) (string, error) {
	var withURL []state.PR
	for _, p := range r.PRs {
		if p.URL != "" {
			withURL = append(withURL, p)
		}
	}
	p, ok := state.BadgePR(withURL)
	if !ok {
		return "", fmt.Errorf("%s has no PR with a URL; lanes pr %s --number N --url U, or the GitHub poller, gives one", r.Name, r.Name)
	}
	if err := s.forgeURL(p.URL); err != nil {
		return "", fmt.Errorf("not opening PR #%d of %s: %w", p.Number, r.Name, err)
	}
	if m := prURLNumber.FindStringSubmatch(p.URL); m == nil || m[1] != strconv.Itoa(p.Number) {
		return "", fmt.Errorf("not opening PR #%d of %s: its URL %s is another PR's page", p.Number, r.Name, p.URL)
	}
	// $BROWSER: an absolute path, or a name on PATH's absolute entries;
	// a relative path ("bin/firefox", a quoted "~/bin/firefox") names a
	// file under wherever lanes was started (the twenty-first re-run).
	browser := s.getenv("BROWSER")
	switch {
	case browser != "" && !strings.Contains(browser, "/"):
		if found := s.LookPath(browser); found != "" {
			browser = found
			break
		}
		return "", fmt.Errorf("not opening PR #%d: $BROWSER names %s, which is on no absolute entry of PATH; give its absolute path", p.Number, state.CleanText(browser))
	case browser != "" && !filepath.IsAbs(browser):
		return "", fmt.Errorf("not opening PR #%d: $BROWSER is the relative path %s; give its absolute path, or a name on PATH", p.Number, state.CleanText(browser))
	}
	if browser == "" {
		browser = s.LookPath("xdg-open")
	}
	if browser == "" {
		return fmt.Sprintf("no browser ($BROWSER unset, no xdg-open): PR #%d %s", p.Number, p.URL), nil
	}
	cmd := exec.Command(browser, p.URL)
	cmd.Env = s.Environ()
	// Its own session: no key the board gets reaches it, and it cannot
	// read or draw on the board's terminal (stdin, stdout and stderr are
	// /dev/null when left nil).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting %s for PR #%d (%s): %w", browser, p.Number, p.URL, err)
	}
	go func() { _ = cmd.Wait() }() // reaped, never waited for
	return fmt.Sprintf("opened PR #%d with %s", p.Number, filepath.Base(browser)), nil
}

// forgeURL is nil when u is a PR's page on the forge gh speaks to:
// https://HOST/OWNER/REPO/pull/N, HOST github.com or $GH_HOST, nothing
// else in it. A URL comes from gh, a hand-made `lanes pr --url` or another
// host's lines: whatever else it says (an option for the browser, another
// scheme, another site) is refused, and said as refused, never opened.
// Starting with https://, it can be no opener's option.
func (s *Service) forgeURL(u string) error {
	refuse := func(why string) error {
		return fmt.Errorf("its URL %s %s; lanes opens only https://HOST/OWNER/REPO/pull/N on github.com or $GH_HOST", strconv.Quote(state.Summary(u, 80)), why)
	}
	parsed, err := url.Parse(u)
	switch {
	case err != nil || parsed.String() != u:
		return refuse("is not a plain URL")
	case parsed.Scheme != "https":
		return refuse("is not https")
	case parsed.User != nil || parsed.RawQuery != "" || parsed.Fragment != "" || parsed.Opaque != "":
		return refuse("carries more than a page's address")
	}
	hosts := []string{"github.com"}
	if h := s.getenv("GH_HOST"); h != "" {
		hosts = append(hosts, h)
	}
	if !slices.Contains(hosts, parsed.Host) {
		return refuse("is not on " + strings.Join(hosts, " or "))
	}
	if f := strings.Split(strings.TrimSuffix(parsed.Path, "/"), "/"); len(f) != 5 || f[1] == "" || f[2] == "" || f[3] != "pull" || !prURLNumber.MatchString(parsed.Path) {
		return refuse("is not a pull request's page")
	}
	return nil
}

// CreatePR pushes r's branch to origin and runs gh pr create --fill for it
// in r's directory (state.PRCreate, the words the board's confirm showed),
// then records the PR gh made through the spool, as `lanes pr` does.
func (s *Service) CreatePR(ctx context.Context, r *state.Record) (string, error) {
	if p, ok := state.BadgePR(r.PRs); ok {
		if _, open := state.PRStatus(p); open {
			return "", fmt.Errorf("%s already has PR #%d (o opens it)", r.Name, p.Number)
		}
	}
	if !r.Live() {
		return "", fmt.Errorf("%s is terminated; P makes a PR for a live session's branch", r.Name)
	}
	if !r.OnBranch() {
		return "", fmt.Errorf("%s is on no branch lanes can read: %s is not in a git checkout, or its HEAD is no git file", r.Name, r.Dir)
	}
	if err := git.ForeignCheckout(r.Dir); err != nil {
		return "", err
	}
	// Git now, not the poller's count: that lags a commit made in the pane
	// by up to a minute. A count git cannot give refuses nothing (gh says).
	if base := r.Git.Base; base != "" {
		n, err := s.step(ctx, "git rev-list", r.Dir, []string{"git", "rev-list", "--count", base + "..HEAD"})
		if err == nil && strings.TrimSpace(n) == "0" {
			return "", fmt.Errorf("%s's branch %s has no commit ahead of %s: nothing to propose yet", r.Name, r.Branch, base)
		}
	}
	bin := s.LookPath("gh")
	if bin == "" {
		return "", gh.ErrNoGH // P runs nothing then
	}
	// A detached HEAD's branch is its short hash: nothing to push.
	head, _ := s.step(ctx, "git symbolic-ref", r.Dir, []string{"git", "symbolic-ref", "--quiet", "--short", "HEAD"})
	if strings.TrimSpace(head) != r.Branch {
		return "", fmt.Errorf("%s is not on branch %s now (a detached HEAD, or switched): check out the branch, or push and run gh pr create yourself", r.Dir, r.Branch)
	}
	push, create := state.PRCreate(r.Branch)
	// The push runs in the repository's own git dir (the user's, checked
	// above), named with --git-dir so git stays there: every relative
	// path git, ssh, a proxy or an askpass resolves (a program, an ssh
	// config, $SHELL, $BASH_ENV) lands in it, never under the checkout,
	// where another user may write (the twenty-fifth hostile re-run).
	gitDir, err := s.step(ctx, "git rev-parse", r.Dir, []string{"git", "rev-parse", "--absolute-git-dir"})
	if err != nil {
		return "", fmt.Errorf("%w; P pushes from the repository's git dir", err)
	}
	gitDir = strings.TrimSpace(gitDir)
	push = append([]string{"git", "--git-dir=" + gitDir}, push[1:]...)
	if _, err := s.step(ctx, "git push", gitDir, push, "GIT_TERMINAL_PROMPT=0"); err != nil {
		if strings.Contains(err.Error(), "transport 'file' not allowed") {
			return "", fmt.Errorf("%s's origin is a repository on this machine, and P pushes only over the network (a push here runs that repository's hooks, as you): push it yourself, or add a GitHub remote as origin", r.Name)
		}
		return "", fmt.Errorf("%w; fix that, then press P again", err)
	}
	out, err := s.step(ctx, "gh pr create", r.Dir, append([]string{bin}, create[1:]...),
		gh.Env...)
	if err != nil {
		return "", fmt.Errorf("the branch is pushed, but %w; fix that, then press P again", err)
	}
	url := lastLine(out)
	m := prURLNumber.FindStringSubmatch(url)
	if m == nil {
		return "", fmt.Errorf("gh pr create printed %q, not a PR URL; record the PR with lanes pr %s --number N --url U", url, r.Name)
	}
	n, _ := strconv.Atoi(m[1])
	p := state.PR{Number: n, URL: url, State: state.PRStateOpen, Review: state.ReviewNone, CI: state.CINone,
		Mergeable: state.MergeableUnknown, Head: r.Branch}
	if _, err := s.RecordPR(r, p); err != nil {
		return "", fmt.Errorf("PR created (%s), but %w", url, err)
	}
	return "PR created: " + url, nil
}

// RecordPR appends the PR's facts to the session's spool, the path `lanes
// pr` and hooks write through; the next cycle applies them.
func (s *Service) RecordPR(r *state.Record, p state.PR) (state.Line, error) {
	dir, err := s.stateDir()
	if err != nil {
		return state.Line{}, err
	}
	line := state.Line{V: state.LineVersion, At: s.now().UTC(), Session: r.ID, Agent: "lanes", Event: "pr", PR: &p}
	if err := store.AppendLine(dir, line); err != nil {
		return line, fmt.Errorf("recording PR #%d: %w", p.Number, err)
	}
	return line, nil
}

// step runs argv (never a shell) in dir, with env added to this
// invocation's, stdin from /dev/null, for at most prStepTimeout. Its
// error says the command (name) and the line of its output that says why.
func (s *Service) step(ctx context.Context, name, dir string, argv []string, env ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, prStepTimeout)
	defer cancel()
	bin := argv[0]
	if !strings.Contains(bin, "/") {
		if bin = s.LookPath(bin); bin == "" {
			return "", fmt.Errorf("%s needs %s, and there is none on PATH", name, argv[0])
		}
	}
	// gh runs git too (git remote, git config): its git gets the same
	// environment as lanes' own.
	env = append(s.Environ(), env...)
	var cmd *exec.Cmd
	if argv[0] == "git" {
		cmd = git.Command(ctx, env, argv[1:]...)
	} else {
		cmd = exec.CommandContext(ctx, bin, argv[1:]...)
		cmd.Env = git.Env(env)
	}
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	// No controlling terminal: an ssh passphrase or a credential helper
	// cannot prompt over the board's screen (it fails and says so).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	switch {
	case err == nil:
		return stdout.String(), nil
	case ctx.Err() != nil:
		return "", fmt.Errorf("%s gave no answer in %v", name, prStepTimeout)
	}
	if why := whyLine(stderr.String() + "\n" + stdout.String()); why != "" {
		return "", fmt.Errorf("%s failed: %s", name, why)
	}
	return "", fmt.Errorf("%s failed: %w", name, err)
}

// whyLine is the line of a failed git or gh that says why: the first
// error, fatal or rejected line, else the first line.
func whyLine(out string) string {
	first := ""
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if first == "" {
			first = l
		}
		if strings.HasPrefix(l, "error:") || strings.HasPrefix(l, "fatal:") || strings.HasPrefix(l, "!") {
			return l
		}
	}
	return first
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// ghEnvKeys are what gh reads of this invocation's environment: where its
// login is kept, or a token.
var ghEnvKeys = []string{"HOME", "PATH", "XDG_CONFIG_HOME", "GH_CONFIG_DIR", "GH_TOKEN", "GITHUB_TOKEN", "GH_HOST", "GH_ENTERPRISE_TOKEN"}

// Environ is the process's environment with this invocation's values of
// what git and gh read (tests give a private PATH and git configuration
// this way), PATH's relative entries dropped (git.AbsPATH).
func (s *Service) Environ() []string {
	env := os.Environ()
	for _, k := range append(slices.Clip(gitEnvKeys), ghEnvKeys...) {
		if v := s.getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return git.AbsPATHIn(env)
}
