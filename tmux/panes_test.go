package tmux

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// line joins pane fields the way tmux prints paneFormat.
func line(fields ...string) string { return strings.Join(fields, fieldSep) }

func intp(n int) *int { return &n }

func TestParsePanes(t *testing.T) {
	const act = "1795974775"
	actT := time.Unix(1795974775, 0)
	tests := []struct {
		name    string
		out     string
		want    []Pane
		wantErr bool
	}{
		{name: "empty output is no panes", out: ""},
		{name: "blank lines only", out: "\n\n"},
		{
			name: "live pane",
			out:  line("k3v9x2ab", "%4", "4242", act, "$1", "900", "0", "", "", "") + "\n",
			want: []Pane{{LanesID: "k3v9x2ab", PaneID: "%4", SessionID: "$1", ServerPID: 900,
				PID: 4242, WindowActivity: actT}},
		},
		{
			name: "exit 3",
			out:  line("id", "%4", "10", act, "$1", "900", "1", "3", "", act),
			want: []Pane{{LanesID: "id", PaneID: "%4", SessionID: "$1", ServerPID: 900, PID: 10,
				Dead: true, DeadStatus: intp(3), DeadTime: actT, WindowActivity: actT}},
		},
		{
			name: "exit 0 is a status, not absent",
			out:  line("id", "%4", "10", act, "$1", "900", "1", "0", "", act),
			want: []Pane{{LanesID: "id", PaneID: "%4", SessionID: "$1", ServerPID: 900, PID: 10,
				Dead: true, DeadStatus: intp(0), DeadTime: actT, WindowActivity: actT}},
		},
		{
			name: "killed: numeric signal becomes a name, status absent",
			out:  line("id", "%4", "10", act, "$1", "900", "1", "", "9", act),
			want: []Pane{{LanesID: "id", PaneID: "%4", SessionID: "$1", ServerPID: 900, PID: 10,
				Dead: true, DeadSignal: "SIGKILL", DeadTime: actT, WindowActivity: actT}},
		},
		{
			name: "dead but not yet reaped: no status, no time",
			out:  line("id", "%4", "10", act, "$1", "900", "1", "", "", ""),
			want: []Pane{{LanesID: "id", PaneID: "%4", SessionID: "$1", ServerPID: 900, PID: 10,
				Dead: true, WindowActivity: actT}},
		},
		{
			name: "pane without @lanes_id is still parsed",
			out:  line("", "%9", "77", act, "$1", "900", "0", "", "", ""),
			want: []Pane{{PaneID: "%9", SessionID: "$1", ServerPID: 900, PID: 77, WindowActivity: actT}},
		},
		{
			name: "malformed lines are skipped",
			out: strings.Join([]string{
				"garbage",
				line("id", "%4", "notapid", act, "$1", "900", "0", "", "", ""),
				line("id", "%4", "10", act, "$1", "", "0", "", "", ""),
				line("id", "%4", "10", act, "$1", "900", "2", "", "", ""),
				line("id", "%4", "10", act, "$1", "900", "1", "x", "", ""),
				line("id", "%4", "10", act, "$1", "900", "1", "", "", "soon"),
				line("id", "4", "10", act, "$1", "900", "0", "", "", ""),
				line("id", "%4", "10", act, "1", "900", "0", "", "", ""),
				line("id", "%5", "11", act, "$1", "900", "0", "", "", ""),
				line("id", "%6", "12", act, "$1", "900", "0", "", "", "", "extra"),
			}, "\n"),
			want: []Pane{{LanesID: "id", PaneID: "%5", SessionID: "$1", ServerPID: 900, PID: 11, WindowActivity: actT}},
		},
		{name: "nothing parses", out: "garbage\nmore garbage\n", wantErr: true},
		{name: "tab separated is not our format", out: "id\t%4\t10\t" + act + "\t0\t\t\t", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePanes([]byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d panes %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				comparePane(t, got[i], tt.want[i])
			}
		})
	}
}

func comparePane(t *testing.T, got, want Pane) {
	t.Helper()
	gs, ws := got.DeadStatus, want.DeadStatus
	if (gs == nil) != (ws == nil) || (gs != nil && *gs != *ws) {
		t.Errorf("DeadStatus = %s, want %s", fmtStatus(gs), fmtStatus(ws))
	}
	got.DeadStatus, want.DeadStatus = nil, nil
	if !got.DeadTime.Equal(want.DeadTime) || !got.WindowActivity.Equal(want.WindowActivity) {
		t.Errorf("times = %v/%v, want %v/%v", got.DeadTime, got.WindowActivity, want.DeadTime, want.WindowActivity)
	}
	got.DeadTime, want.DeadTime = time.Time{}, time.Time{}
	got.WindowActivity, want.WindowActivity = time.Time{}, time.Time{}
	if got != want {
		t.Errorf("pane = %+v, want %+v", got, want)
	}
}

func fmtStatus(p *int) string {
	if p == nil {
		return "nil"
	}
	return strconv.Itoa(*p)
}

func TestSignalName(t *testing.T) {
	// Numbers shared by Linux and BSD numbering, so the test holds on both.
	tests := map[string]string{
		"":        "",
		"0":       "",
		"9":       "SIGKILL",
		"15":      "SIGTERM",
		"2":       "SIGINT",
		"1":       "SIGHUP",
		" 6 ":     "SIGABRT",
		"SIGKILL": "SIGKILL",
		"KILL":    "SIGKILL",
		"term":    "SIGTERM",
		"64":      "SIG64",
	}
	for in, want := range tests {
		if got := signalName(in); got != want {
			t.Errorf("signalName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSignalTablesAreComplete(t *testing.T) {
	for _, table := range []map[int]string{linuxSignals, bsdSignals} {
		seen := map[string]bool{}
		for n := 1; n <= 31; n++ {
			name := table[n]
			if !strings.HasPrefix(name, "SIG") || seen[name] {
				t.Errorf("signal %d: bad or repeated name %q", n, name)
			}
			seen[name] = true
		}
	}
	for n, want := range map[int]string{9: "SIGKILL", 15: "SIGTERM", 11: "SIGSEGV", 10: "SIGUSR1", 17: "SIGCHLD"} {
		if linuxSignals[n] != want {
			t.Errorf("linux %d = %q, want %q", n, linuxSignals[n], want)
		}
	}
}
