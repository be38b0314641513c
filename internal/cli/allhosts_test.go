package cli

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/internal/listing"
	"lanes/internal/remote/sshtest"
	"lanes/state"
)

// hostsWorld is this host's env with two more hosts in its hosts file:
// "build", whose listing is that of another store, and "down", which ssh
// cannot reach. The ssh program is a stand-in that logs its argv, runs
// the remote command through a shell as sshd would, and answers for build
// with the listing its `lanes ls --json` printed.
func hostsWorld(t *testing.T, now time.Time, here []*state.Record, there []*state.Record) (*env, string) {
	t.Helper()
	remote := lsEnv(t, there...)
	remote.now = func() time.Time { return now }
	dir := t.TempDir()
	listingFile := filepath.Join(dir, "build.json")
	if err := os.WriteFile(listingFile, []byte(remote.must("ls", "--json")), 0o600); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "argv")
	script := `printf '%s\n' "$*" >> ` + shellQuote(log) + `
while [ "$1" != "--" ]; do shift; done
dest=$2
lanes() { [ "$*" = "ls --json" ] && cat ` + shellQuote(listingFile) + `; }
case $dest in
me@build.example) eval "$3" ;;
*) echo "ssh: connect to host $dest port 22: Connection refused" >&2; exit 255 ;;
esac
`
	// Written by a child process: a file this one held open for writing
	// fails a parallel test's exec of it with "text file busy".
	fake := writeScript(t, dir, "ssh", script)
	cfg := filepath.Join(dir, "config")
	if err := os.MkdirAll(filepath.Join(cfg, "lanes"), 0o700); err != nil {
		t.Fatal(err)
	}
	hosts := "# two hosts\nbuild me@build.example\n\ndown down.example\n"
	if err := os.WriteFile(filepath.Join(cfg, "lanes", "hosts"), []byte(hosts), 0o600); err != nil {
		t.Fatal(err)
	}
	e := lsEnv(t, here...)
	e.now = func() time.Time { return now }
	e.vars["XDG_CONFIG_HOME"], e.vars["LANES_SSH"], e.vars["PATH"] = cfg, fake, os.Getenv("PATH")
	return e, log
}

// `ls --all-hosts` lists every host's sessions in one order, each as its
// host derived it and named by host; a host ssh cannot reach is said on
// stderr, and the rest are still listed.
func TestLsAllHostsListsEveryHost(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	e, argv := hostsWorld(t, now,
		[]*state.Record{lsRecord("here0001", "api", state.ActivityIdle, now)},
		[]*state.Record{lsRecord("asks0001", "beta", state.ActivityWaitingInput, now), lsRecord("work0001", "gamma", state.ActivityActive, now)})

	// down did not answer: exit 1, after all the rest is printed.
	out, errs, code := e.run("ls", "--all-hosts")
	if code != exitError {
		t.Fatalf("exit %d, want 1 (a host did not answer): %s%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "HOST") {
		t.Fatalf("want a HOST column and three sessions, got:\n%s", out)
	}
	var rows []string
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		rows = append(rows, f[0]+" "+f[1])
	}
	if want := []string{"build beta", "build gamma", localHost + " api"}; !slices.Equal(rows, want) {
		t.Errorf("rows %q, want %q (most urgent first, whatever the host)", rows, want)
	}
	if !strings.Contains(errs, "host down: ssh: connect to host down.example port 22: Connection refused") {
		t.Errorf("the unreachable host not said on stderr: %q", errs)
	}
	b, _ := os.ReadFile(argv)
	// On the host's shared connection, in the state dir's private ssh/.
	share := "-o ControlMaster=auto -o ControlPath=" + filepath.Join(e.vars["LANES_STATE_DIR"], "ssh") + "/"
	if want := " -o ControlPersist=60 -T -- me@build.example lanes ls --json\n"; !strings.Contains(string(b), want) ||
		!strings.HasPrefix(string(b), "-o BatchMode=yes -o ConnectTimeout=5 -o ServerAliveInterval=5 -o ServerAliveCountMax=3 "+share) {
		t.Errorf("ssh ran with %q, want a line with %q, on %q", b, want, share)
	}

	out, _, code = e.run("ls", "--all-hosts", "--json")
	var list []listing.Session
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != exitError {
		t.Fatalf("exit %d, %v", code, err)
	}
	hosts := map[string]string{}
	for _, s := range list {
		hosts[s.Name] = s.Host
	}
	if hosts["beta"] != "build" || hosts["api"] != "" || list[0].Status != state.StatusNeedsInput {
		t.Errorf("JSON hosts %v (this host's none), first %s %s", hosts, list[0].Name, list[0].Status)
	}
}

// The status line with --all-hosts counts every host's sessions and names
// the host it could not count.
func TestStatusLineAllHostsCountsEveryHost(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	e, _ := hostsWorld(t, now,
		[]*state.Record{lsRecord("here0001", "api", state.ActivityActive, now)},
		[]*state.Record{lsRecord("asks0001", "beta", state.ActivityWaitingInput, now), lsRecord("work0001", "gamma", state.ActivityActive, now)})

	if got := strings.TrimSpace(e.must("status-line", "--all-hosts", "--format", "plain")); got != "●2 ◆1 down:!" {
		t.Errorf("plain line %q, want ●2 ◆1 down:!", got)
	}
	var tally struct {
		Live        int            `json:"live"`
		Zones       map[string]int `json:"zones"`
		Unreachable []string       `json:"unreachable"`
	}
	if err := json.Unmarshal([]byte(e.must("status-line", "--all-hosts", "--format", "json")), &tally); err != nil {
		t.Fatal(err)
	}
	if tally.Live != 3 || tally.Zones["needs_you"] != 1 || !slices.Equal(tally.Unreachable, []string{"down"}) {
		t.Errorf("json %+v", tally)
	}
	if got := strings.TrimSpace(e.must("status-line", "--format", "plain")); got != "●1" {
		t.Errorf("without --all-hosts the line is this host's: %q", got)
	}
	if _, errs, code := e.run("status-line", "--all-hosts", "--session", "api"); code != exitUsage || !strings.Contains(errs, "one or the other") {
		t.Errorf("--all-hosts with --session: exit %d %q", code, errs)
	}
}

// Over real ssh: a session started on another host is listed and counted
// here as that host derived it, with where it runs there.
func TestAllHostsOverSSH(t *testing.T) {
	rig := sshtest.New(t, 1)
	h := rig.Hosts[0]
	h.Lanes(t, "new", "far", "--dir", t.TempDir(), "--", "sleep", "3600")
	e := newEnv(t)
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "lanes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "lanes", "hosts"), []byte(h.Name+" "+h.Dest+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.vars["XDG_CONFIG_HOME"], e.vars["LANES_SSH"] = cfg, rig.SSH.Program
	e.must("new", "here", "--dir", t.TempDir(), "--", "sleep", "3600")

	var list []listing.Session
	if err := json.Unmarshal([]byte(e.must("ls", "--all-hosts", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range list {
		got[s.Name] = s.Host + "/" + s.TmuxSocket
	}
	if want := map[string]string{"far": h.Name + "/" + h.Tmux.Socket, "here": "/" + e.tc.Socket}; !maps.Equal(got, want) {
		t.Errorf("listed %v, want %v", got, want)
	}
	var tally struct{ Live int }
	if err := json.Unmarshal([]byte(e.must("status-line", "--all-hosts", "--format", "json")), &tally); err != nil || tally.Live != 2 {
		t.Errorf("counted %+v (%v), want 2 live", tally, err)
	}
}

// A bad line of the hosts file costs its host, not the listing nor the
// status line: ls --all-hosts lists this host and the good hosts, names
// every bad line on stderr and exits 1; the status line keeps its counts.
func TestAllHostsSkipBadHostsLines(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	e, _ := hostsWorld(t, now,
		[]*state.Record{lsRecord("here0001", "api", state.ActivityActive, now)},
		[]*state.Record{lsRecord("asks0001", "beta", state.ActivityWaitingInput, now)})
	file := filepath.Join(e.vars["XDG_CONFIG_HOME"], "lanes", "hosts")
	if err := os.WriteFile(file, []byte("build me@build.example   # the build box\noops\ngpu\nbuild me@other.example\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errs, code := e.run("ls", "--all-hosts")
	if code != exitError || !strings.Contains(out, "beta") || !strings.Contains(out, "api") {
		t.Errorf("ls --all-hosts: exit %d, %q; want build's and this host's sessions, and exit 1", code, out)
	}
	for _, line := range []string{file + ":2: ", file + ":3: ", file + ":4: bad hosts entry: host build named twice (first on line 1)"} {
		if !strings.Contains(errs, line) {
			t.Errorf("stderr %q does not name %q", errs, line)
		}
	}
	out, errs, code = e.run("status-line", "--all-hosts", "--format", "plain")
	if got := strings.TrimSpace(out); code != exitOK || got != "●1 ◆1" || !strings.Contains(errs, file+":2:") {
		t.Errorf("status line %q (exit %d, stderr %q), want ●1 ◆1 and the bad lines on stderr", got, code, errs)
	}
	out, _, _ = e.run("doctor")
	if !strings.Contains(out, "!!  hosts: skipped bad lines 2, 3, 4 of "+file+"; 1 host read") || !strings.Contains(out, file+":2: bad hosts entry") {
		t.Errorf("doctor does not name the bad lines:\n%s", out)
	}
	if err := os.WriteFile(file, []byte("build me@build.example\ngpu gpu.lan # the gpu box\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, _, _ = e.run("doctor"); !strings.Contains(out, "ok  hosts: 2 hosts in "+file) {
		t.Errorf("doctor on a good hosts file:\n%s", out)
	}
}

// status-line --all-hosts asks each host at most once in 10 s, a host
// that failed too: a tmux bar drawn every 2 s does not log in every time.
func TestStatusLineAllHostsReusesAnswers(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	e, argv := hostsWorld(t, now,
		[]*state.Record{lsRecord("here0001", "api", state.ActivityActive, now)},
		[]*state.Record{lsRecord("asks0001", "beta", state.ActivityWaitingInput, now)})
	logins := func() int {
		b, _ := os.ReadFile(argv)
		return strings.Count(string(b), "\n")
	}
	at := now
	e.now = func() time.Time { return at }
	for i, step := range []time.Duration{0, 2 * time.Second, 7 * time.Second} {
		at = at.Add(step)
		if got := strings.TrimSpace(e.must("status-line", "--all-hosts", "--format", "plain")); got != "●1 ◆1 down:!" {
			t.Errorf("run %d: %q, want ●1 ◆1 down:!", i, got)
		}
	}
	if n := logins(); n != 2 {
		t.Errorf("ssh ran %d times in 9 s, want once for each of the 2 hosts", n)
	}
	at = at.Add(2 * time.Second) // 11 s after the first
	e.must("status-line", "--all-hosts", "--format", "plain")
	if n := logins(); n != 4 {
		t.Errorf("ssh ran %d times after 11 s, want each host asked again", n)
	}
	e.run("ls", "--all-hosts", "--json")
	if n := logins(); n != 6 {
		t.Errorf("ls --all-hosts reused the status line's answers (%d logins): it asks every host", n)
	}
}

// A session no command here finds may run on another host: with hosts in
// the hosts file, the refusal says where to look; without, it does not.
func TestNoSuchSessionPointsAtOtherHosts(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	e, _ := hostsWorld(t, now, nil, []*state.Record{lsRecord("asks0001", "beta", state.ActivityWaitingInput, now)})
	_, errs, code := e.run("send", "beta", "hi")
	if code != exitNoSession || !strings.Contains(errs, "`lanes ls --all-hosts` lists the other hosts'") {
		t.Errorf("send to another host's session: exit %d, %q", code, errs)
	}
	alone := lsEnv(t)
	if _, errs, _ := alone.run("send", "beta", "hi"); strings.Contains(errs, "all-hosts") {
		t.Errorf("no hosts, yet the refusal points at them: %q", errs)
	}
}
