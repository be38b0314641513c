package store

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/statetest"
)

// timingStream is a spool file holding every kind of damage a line can
// take, in the order a writer could leave it, and the offsets where reading
// it is most likely to go wrong (piece boundaries, and where a tail passes
// MaxLineBytes).
func timingStream(id string) (stream string, hot []int) {
	long := func(n int) string { return strings.Repeat("g", n) }
	pieces := []string{
		line(id, "active"),
		line(id, "blocked")[:30], // torn by a full disk
		line(id, "idle"),
		long(state.MaxLineBytes - 50), // a fragment near the limit, then a whole line
		line(id, "active"),
		long(state.MaxLineBytes + 100), // a fragment over the limit, then a whole line
		line(id, "blocked"),
		"   \n", // the blanks a hook leaves after a short write
		`{"v":1,"session":"` + id + `","agent":"generic","event":"` + long(state.MaxLineBytes) + "\"}\n",
		"abc{\"v" + long(state.MaxLineBytes), // over the limit, holding a near line start
		line(id, "idle"),
		long(state.MaxLineBytes), // exactly at the limit: a fragment, not too long
		line(id, "active"),
		"{\"v\":1,\"session\":\"" + id + "\",\"agent\":\"generic\",\"event\":\"\xff\"}\n",
		long(state.MaxLineBytes+3) + line(id, "blocked")[:3], // over the limit, ending in part of a line start
		line(id, "blocked")[3:],
		line(id, "idle"),
	}
	at := 0
	for _, p := range pieces {
		for _, d := range []int{-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, state.MaxLineBytes - 1, state.MaxLineBytes, state.MaxLineBytes + 1, state.MaxLineBytes + 4} {
			hot = append(hot, at+d)
		}
		at += len(p)
	}
	hot = slices.DeleteFunc(hot, func(n int) bool { return n <= 0 || n >= at })
	slices.Sort(hot)
	return strings.Join(pieces, ""), slices.Compact(hot)
}

// ingestOutcome is what a session's record shows once its spool is read.
type ingestOutcome struct {
	Applied int
	Dropped map[string]int
	State   state.Activity
	Offsets map[string]spoolOffset
}

// ingestInCuts writes stream to a fresh spool in pieces cut at cuts, runs a
// cycle after each piece, then cycles until nothing changes.
func ingestInCuts(t *testing.T, stream string, cuts []int) ingestOutcome {
	t.Helper()
	col, _, _ := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	r.ID = "timing01"
	put(t, col.Store, r)
	from := 0
	for _, at := range append(slices.Clone(cuts), len(stream)) {
		appendRaw(t, dir(col), r.ID, stream[from:at])
		cycle(t, col)
		from = at
	}
	for {
		res := cycle(t, col)
		if res.Ingested+res.Dropped == 0 {
			break
		}
	}
	got := get(t, col.Store, r.ID)
	out := ingestOutcome{Applied: got.EventsApplied, Dropped: got.EventsDropped, State: got.Activity.State, Offsets: map[string]spoolOffset{}}
	if err := col.Store.View(func(tx *Tx) error {
		return tx.bucket(bucketSpool).ForEach(func(_, v []byte) error {
			var o spoolOffset
			if err := json.Unmarshal(v, &o); err != nil {
				return err
			}
			out.Offsets[o.Name] = o
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIngestIndependentOfReadTiming: however the writes of a spool file are
// cut, and wherever a cycle reads in between, the same lines apply and the
// same ones are dropped (docs/design.md §6: a line starts after a newline or
// at `{"v":`, whatever was visible when).
func TestIngestIndependentOfReadTiming(t *testing.T) {
	stream, hot := timingStream("timing01")
	want := ingestInCuts(t, stream, nil)
	wantDrops := map[string]int{state.DropBadJSON: 3, state.DropTooLong: 4, state.DropBadUTF8: 1}
	if want.Applied != 8 || !reflect.DeepEqual(want.Dropped, wantDrops) || want.State != state.ActivityIdle {
		t.Errorf("read at once: applied %d, dropped %v, %s; want 8 applied, dropped %v, idle",
			want.Applied, want.Dropped, want.State, wantDrops)
	}
	schedules := make([][]int, 0, len(hot)+40)
	for _, at := range hot {
		schedules = append(schedules, []int{at})
	}
	rng := rand.New(rand.NewPCG(16, 13))
	for range 40 {
		var cuts []int
		for range 1 + rng.IntN(6) {
			if rng.IntN(2) == 0 {
				cuts = append(cuts, hot[rng.IntN(len(hot))])
			} else {
				cuts = append(cuts, 1+rng.IntN(len(stream)-1))
			}
		}
		slices.Sort(cuts)
		schedules = append(schedules, slices.Compact(cuts))
	}
	if testing.Short() {
		schedules = schedules[:len(schedules)/4]
	}
	for _, cuts := range schedules {
		if got := ingestInCuts(t, stream, cuts); !reflect.DeepEqual(got, want) {
			t.Errorf("written in pieces cut at %v: %+v\nread at once: %+v", cuts, got, want)
		}
	}
}

// TestIngestRotatesMidSkip: a file rotated while ingest skips a line over
// the limit still drains a whole line appended by a hook that opened it
// before the rename; the new file starts clean.
func TestIngestRotatesMidSkip(t *testing.T) {
	col, _, clk := newCollector(t)
	col.Panes = nil
	r := statetest.Rec(state.ActivityIdle)
	put(t, col.Store, r)
	n := RotateBytes/len(line(r.ID, "active")) + 1
	appendRaw(t, dir(col), r.ID, strings.Repeat(line(r.ID, "active"), n)+strings.Repeat("g", state.MaxLineBytes+1))
	cycle(t, col)
	rotated, _ := filepath.Glob(filepath.Join(SpoolDir(dir(col)), r.ID+".*.jsonl"))
	if len(rotated) != 1 {
		t.Fatalf("the drained file over %d bytes was not rotated: %v", RotateBytes, rotated)
	}
	// The late hook: it opened the file before the rename.
	f, err := os.OpenFile(rotated[0], os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(line(r.ID, "blocked"))
	f.Close()
	appendRaw(t, dir(col), r.ID, line(r.ID, "idle"))
	cycle(t, col)
	clk.advance(RotateGrace + 1)
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	want := n + 2
	if got.EventsApplied != want || got.EventsDropped[state.DropTooLong] != 1 || len(got.EventsDropped) != 1 {
		t.Errorf("applied %d (want %d), dropped %v (want too_long 1)", got.EventsApplied, want, got.EventsDropped)
	}
	if left, _ := filepath.Glob(filepath.Join(SpoolDir(dir(col)), r.ID+".*.jsonl")); len(left) != 0 {
		t.Errorf("the rotated file was not deleted after its grace: %v", left)
	}
}

func (o ingestOutcome) String() string {
	return fmt.Sprintf("applied %d dropped %v %s offsets %v", o.Applied, o.Dropped, o.State, o.Offsets)
}

// A line stamped a day ahead of its ingest is taken as of the ingest: the
// card's age counts from now instead of showing 0s for a day (issue 30,
// item 8).
func TestLineStampedAheadIsTakenAsOfNow(t *testing.T) {
	col, _, clk := newCollector(t)
	r := statetest.Rec(state.ActivityIdle)
	r.Runtime.Launch = "L1"
	put(t, col.Store, r)
	b, _ := json.Marshal(state.Line{V: 1, At: clk.t.Add(24 * time.Hour), Session: r.ID, Launch: "L1", Agent: "generic", Event: "active"})
	appendRaw(t, col.Store.Dir, r.ID, string(b)+"\n")
	cycle(t, col)
	got := get(t, col.Store, r.ID)
	if got.Activity.State != state.ActivityActive || !got.Activity.Since.Equal(clk.t) {
		t.Fatalf("a line a day ahead: %s since %v, want active since the ingest %v", got.Activity.State, got.Activity.Since, clk.t)
	}
	clk.advance(time.Minute)
	if d := state.Derive(got, clk.t); clk.t.Sub(d.Since) != time.Minute {
		t.Errorf("its age a minute later: %v", clk.t.Sub(d.Since))
	}
}
