package tui

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"lanes/internal/remote"
	"lanes/state"
)

// answering is a Remote whose every command prints out.
type answering struct{ out []byte }

func (a answering) Watch(context.Context, []remote.Host) <-chan remote.Status { return nil }
func (a answering) Run(context.Context, remote.Host, io.Reader, ...string) ([]byte, error) {
	return a.out, nil
}
func (a answering) Attach(remote.Host, string, string) []string { return nil }

// What a hostile host answers costs the board what a local answer would:
// a report is one short line, a peek its last lines, each line and each
// history field bounded, a history no longer than asked, and none of it
// terminal control but a peek's colours (a hostile re-run: a 30 MiB line
// pinned a core while it showed).
func TestHostActionsBoundWhatAHostSays(t *testing.T) {
	r := &state.Record{ID: "b1", Name: "far"}
	r.Activity.Dialog, r.Activity.DialogAt = true, fixedNow
	huge := strings.Repeat("\x1b[1mx", 1<<20) + "\n"
	on := func(out string) hostActions {
		return hostActions{host: remote.Host{Name: "build"}, run: answering{[]byte(out)}}
	}

	said, _ := on(huge+"\x1b]0;pwned\x07ok").Answer(context.Background(), r, "yes")
	if len([]rune(said)) > saidMax || strings.ContainsRune(said, 0x1b) {
		t.Errorf("a report of %d runes, or with control: %.60q", len([]rune(said)), said)
	}
	long := strings.Repeat("\x1b[1mx", 2000) + "\n" // 10 kB
	peek, _ := on(strings.Repeat(long, 1400)+"last \x1b[31mred\x1b]52;c;eA==\x07").Peek(context.Background(), r)
	lines := strings.Split(string(peek), "\n")
	if len(lines) > peekLines || !strings.HasSuffix(string(peek), "last \x1b[31mred") {
		t.Errorf("a peek of %d lines, ending %.40q", len(lines), peek[max(len(peek)-40, 0):])
	}
	for _, l := range lines {
		if len(l) > lineMax {
			t.Fatalf("a peek line of %d bytes", len(l))
		}
	}
	var trs []state.Transition
	for range 64 {
		trs = append(trs, state.Transition{At: fixedNow, From: "idle", To: "active", Source: "hook", Detail: huge[:100<<10]})
	}
	b, _ := json.Marshal(trs)
	got, err := on(string(b)).History(context.Background(), "b1", 30)
	if err != nil || len(got) != 30 || len([]rune(got[0].Detail)) > fieldMax {
		t.Errorf("history: %d entries, a detail of %d runes, %v", len(got), len([]rune(got[0].Detail)), err)
	}
	plan, _ := json.Marshal(strings.Fields(strings.Repeat("w ", 100)))
	if argv, err := on(string(plan)).RestorePlan(context.Background(), r); err == nil {
		t.Errorf("a plan of 100 words shown: %d", len(argv))
	}
}
