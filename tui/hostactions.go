package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"lanes/agent"
	"lanes/internal/listing"
	"lanes/internal/remote"
	"lanes/state"
)

// The board acts on a card through the Actions of its host: this host's
// session service, or hostActions, the same actions carried out on the
// card's host by `lanes …` there over ssh (docs/design.md §16). The keys
// do not branch on the host; the session service there makes the same
// checks it makes here.

// actionsOn is the Actions for the sessions of host ("": this one's).
func (m *Model) actionsOn(host string) Actions {
	if host == "" {
		return m.o.Actions
	}
	h, ok := m.host(host)
	switch {
	case !ok:
		return hostActions{err: fmt.Errorf("host %s is no longer on the board", host)}
	case h.down():
		return hostActions{err: fmt.Errorf("%s; try when it answers", m.failNote(h))}
	}
	return hostActions{host: h.host, run: m.o.Remote, here: m.o.Actions}
}

// hostActions are Actions on host's sessions; err, when set, refuses each
// at once (a host gone from the board, or down: never queued to fire
// later). Sessions are named by id there: a name may be a live session's
// and an ended one's. here opens a PR's page: the browser is this host's.
type hostActions struct {
	host remote.Host
	run  Remote
	here Actions
	err  error
}

// remoteTimeout bounds an action run on another host: a link that falls
// silent after connecting would otherwise hold it, and its ssh, for the
// board's life. peekTimeout bounds a preview's capture, which the board
// repeats while the preview is open.
const (
	remoteTimeout = time.Minute
	peekTimeout   = 5 * time.Second
)

// peekLines, diffLines and planWords bound what a capture, a diff and a
// restore plan of another host may hold (a capture's last lines: a pane
// as tall as any screen; the preview then shows its last written ones).
const (
	peekLines = 1000
	diffLines = 20000
	planWords = 64
)

// lanes runs `lanes ARGS…` on the host with stdin (nil: none).
func (a hostActions) lanes(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	if a.err != nil {
		return nil, a.err
	}
	ctx, cancel := context.WithTimeout(ctx, remoteTimeout)
	defer cancel()
	return a.run.Run(ctx, a.host, stdin, args...)
}

// said is a command's report, one line, cleaned and bounded (another
// host's words), its hints naming the host's sessions NAME@HOST.
func (a hostActions) said(out []byte, err error) (string, error) {
	// Lines stay lines until Summary joins them (CleanText would glue
	// them, and a hint's name to the next word); what Summary never reads
	// is not cleaned or rewritten either.
	out = out[:min(len(out), saidRead)]
	return state.Summary(remote.Across(state.CleanLines(string(out)), a.host.Name), saidMax), err
}

// Bounds of what another host answers, so no answer of a hostile one
// costs the board more than a local one would (a hostile re-run's 30 MiB
// line pinned a core for as long as it showed): a report's runes, a
// line's bytes, a history's fields.
const (
	saidMax  = 300
	saidRead = 16 << 10 // bytes of a report read to say saidMax runes
	lineMax  = 2048
	fieldMax = 500
)

// bounded is out with at most n lines, the last ones (last) or the
// first, each cut to lineMax bytes.
func bounded(out []byte, n int, last bool) []byte {
	lines := bytes.Split(out, []byte("\n"))
	if len(lines) > n && last {
		lines = lines[len(lines)-n:]
	} else if len(lines) > n {
		lines = lines[:n]
	}
	for i, l := range lines {
		if len(l) > lineMax {
			cut := lineMax
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			lines[i] = l[:cut]
		}
	}
	return bytes.Join(lines, []byte("\n"))
}

func (a hostActions) Create(ctx context.Context, name string, ag state.Agent, dir string, args []string, worktree bool) (*state.Record, error) {
	argv := []string{"new", name}
	if ag != state.AgentCustom {
		argv = append(argv, "--agent", string(ag))
	}
	argv = append(argv, "--dir", dir)
	if worktree {
		argv = append(argv, "--worktree")
	}
	if len(args) > 0 {
		argv = append(append(argv, "--"), args...)
	}
	_, err := a.lanes(ctx, nil, argv...)
	return nil, err
}

func (a hostActions) Kill(ctx context.Context, r *state.Record, anyway bool) error {
	args := []string{"kill", r.ID}
	if anyway { // its own tmux does not answer there
		args = append(args, "--yes")
	}
	_, err := a.lanes(ctx, nil, args...)
	return err
}

func (a hostActions) Restart(ctx context.Context, r *state.Record) error {
	_, err := a.lanes(ctx, nil, "restart", r.ID)
	return err
}

func (a hostActions) Remove(ctx context.Context, r *state.Record) error {
	_, err := a.lanes(ctx, nil, "rm", r.ID)
	return err
}

func (a hostActions) CleanUp(ctx context.Context, r *state.Record) (string, error) {
	out, err := a.lanes(ctx, nil, "rm", r.ID, "--merged")
	return strings.TrimSpace(string(out)), err
}

// Send: the prompt goes on ssh's stdin, never in an argv.
func (a hostActions) Send(ctx context.Context, r *state.Record, text string, force bool) error {
	args := []string{"send", r.ID, "-"}
	if force {
		args = []string{"send", r.ID, "--force", "-"}
	}
	_, err := a.lanes(ctx, strings.NewReader(text), args...)
	return err
}

// Answer answers only the dialog the card showed: the one opened at its
// time, whole (`lanes answer --dialog`); the service there then checks, as
// here, that the pane shows that dialog and the option the key picks.
func (a hostActions) Answer(ctx context.Context, r *state.Record, ans agent.Answer) (string, error) {
	if !r.Activity.Dialog || r.Activity.DialogAt.IsZero() {
		return "", fmt.Errorf("%s shows no dialog to answer", r.Name)
	}
	return a.said(a.lanes(ctx, nil, "answer", r.ID, string(ans), "--dialog", listing.RFC3339Nano(r.Activity.DialogAt)))
}

func (a hostActions) Diff(ctx context.Context, r *state.Record) ([]byte, error) {
	out, err := a.lanes(ctx, nil, "diff", r.ID)
	return []byte(state.CleanLines(string(bounded(out, diffLines, false)))), err
}

// Peek keeps the pane's colours and nothing else of its answer's control.
func (a hostActions) Peek(ctx context.Context, r *state.Record) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, peekTimeout)
	defer cancel()
	out, err := a.lanes(ctx, nil, "peek", r.ID, "--color")
	return state.KeepSGR(bounded(out, peekLines, true)), err
}

func (a hostActions) Mute(ctx context.Context, r *state.Record, on bool) error {
	args := []string{"mute", r.ID}
	if !on {
		args = append(args, "--off")
	}
	if _, err := a.lanes(ctx, nil, args...); err != nil {
		return err
	}
	r.Muted = on
	return nil
}

func (a hostActions) History(ctx context.Context, id string, n int) ([]state.Transition, error) {
	out, err := a.lanes(ctx, nil, "history", id, "--json", "--last", fmt.Sprint(n))
	if err != nil {
		return nil, err
	}
	var trs []state.Transition
	if err := json.Unmarshal(out, &trs); err != nil {
		return nil, fmt.Errorf("host %s: its history is not what this lanes reads (%v): is lanes there current?", a.host.Name, err)
	}
	trs = trs[max(len(trs)-n, 0):]
	for i := range trs { // another host's words
		tr := &trs[i]
		tr.Source, tr.Detail = state.Summary(tr.Source, fieldMax), state.Summary(tr.Detail, fieldMax)
		tr.From, tr.To = state.Activity(state.Summary(string(tr.From), fieldMax)), state.Activity(state.Summary(string(tr.To), fieldMax))
	}
	return trs, nil
}

func (a hostActions) Seen(ctx context.Context, r *state.Record) error {
	_, err := a.lanes(ctx, nil, "seen", r.ID)
	return err
}

func (a hostActions) OpenPR(ctx context.Context, r *state.Record) (string, error) {
	if a.err != nil {
		return "", a.err
	}
	return a.here.OpenPR(ctx, r)
}

func (a hostActions) CreatePR(ctx context.Context, r *state.Record) (string, error) {
	return a.said(a.lanes(ctx, nil, "pr", r.ID, "--create"))
}

func (a hostActions) RestorePlan(ctx context.Context, r *state.Record) ([]string, error) {
	out, err := a.lanes(ctx, nil, "restore", r.ID, "--plan")
	if err != nil {
		return nil, err
	}
	var argv []string
	if err := json.Unmarshal(out, &argv); err != nil {
		return nil, fmt.Errorf("host %s: its restore plan is not what this lanes reads (%v): is lanes there current?", a.host.Name, err)
	}
	if len(argv) > planWords {
		return nil, fmt.Errorf("host %s: its restore plan has %d words; lanes shows at most %d", a.host.Name, len(argv), planWords)
	}
	for i := range argv {
		argv[i] = state.Summary(argv[i], fieldMax)
	}
	return argv, nil
}

func (a hostActions) Restore(ctx context.Context, r *state.Record) (string, error) {
	return a.said(a.lanes(ctx, nil, "restore", r.ID))
}
