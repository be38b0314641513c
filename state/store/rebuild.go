package store

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"lanes/state"
)

// ReasonRebuilt is why a rebuilt record whose session no tmux server shows
// is terminated: it shows under Done, and a later repair finds its record.
const ReasonRebuilt = "record lost in a damaged store; rebuilt by repair"

// Traces is what a repair learns of sessions outside the store, to rebuild
// the records it could not read (docs/design.md §7). The caller reads
// them: the hook's indexes are its files, and state never reads tmux.
type Traces struct {
	// Names maps a session id to its name, from the hook's name index.
	Names map[string]string
	// Launches maps a session id to its pane's latest launch, from the
	// hook's pane index (rewritten by every restart).
	Launches map[string]string
	// Agents maps a session id to the agent its hook settings were written
	// for.
	Agents map[string]state.Agent
	// Live lists the sessions carrying @lanes_id, of this state dir, on
	// the tmux servers of sockets (those of the salvaged records; "" the
	// default server) and the caller's own. It is called only when the
	// store is damaged.
	Live func(sockets []string) []LiveSession
}

// LiveSession is a running tmux session of lanes, as a repair reads it.
type LiveSession struct {
	ID          string // its @lanes_id
	Name        string // its lanes name: the tmux session's name without "lanes-"
	Socket      string
	TmuxSession string
	SessionID   string // $N
	PaneID      string // %N
	PID         int
	Dir         string
	Branch      string // the git branch checked out in Dir
	Agent       state.Agent
	// Command is the user's command as `lanes new` recorded it, nil when
	// tmux's text of it (CommandText) cannot be taken apart safely.
	Command     []string
	CommandText string
	Launch      string // LANES_LAUNCH of the session's environment
	Created     time.Time
}

// Rebuilt is one record a repair rebuilt from traces.
type Rebuilt struct {
	ID, Name string
	Live     bool // its tmux session runs
	Named    bool // a trace gave its name; else it is named by its id
}

// LostCommand is a command lanes cannot run again: a rebuilt record's,
// when tmux's text of it could not be taken apart safely. No command
// lanes starts has an empty first word, so the mark cannot be a real one.
func LostCommand(text string) []string { return []string{"", text} }

// rebuild makes a record for every id in known whose record was not
// salvaged, from the traces of it. A session a tmux server still runs is
// live again, under its launch so its agent's events apply (its spool is
// read again from the first line, which gives its activity); any other is
// terminated with ReasonRebuilt.
func (got *salvaged) rebuild(spoolDir string, known []string, tr Traces, live map[string]LiveSession, now time.Time) []Rebuilt {
	recs := got.buckets[string(bucketSessions)]
	if recs == nil { // none could be read
		recs = map[string][]byte{}
		got.buckets[string(bucketSessions)] = recs
	}
	var missing []string
	for _, id := range known {
		if _, ok := recs[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	liveNames := map[string]bool{}
	for _, v := range recs {
		if r, err := got.decode(v); err == nil && r.Live() {
			liveNames[r.Name] = true
		}
	}
	offsets := got.buckets[string(bucketSpool)]
	var out []Rebuilt
	for _, id := range missing {
		r := &state.Record{ID: id, Name: tr.Names[id], Agent: tr.Agents[id], CreatedAt: now,
			Runtime: state.Runtime{Launch: tr.Launches[id], Source: "repair", At: now}}
		first, agent := firstLines(spoolDir, id)
		if r.Agent == "" {
			r.Agent = agent
		}
		for _, k := range slices.Sorted(maps.Keys(got.history[id])) {
			var t state.Transition
			if json.Unmarshal(got.history[id][k], &t) == nil && !t.At.IsZero() {
				first = minTime(first, t.At)
				break
			}
		}
		if !first.IsZero() {
			r.CreatedAt = first
		}
		ls, isLive := live[id]
		if isLive {
			takeLive(r, ls)
		}
		named := r.Name != ""
		if !named {
			r.Name = id
		}
		if r.Agent == "" {
			r.Agent = state.AgentCustom
		}
		r.Activity = state.ActivityFacts{State: state.ActivityIdle, Since: r.CreatedAt, Source: "repair",
			HooksReport: tr.Agents[id] != "" || agent != ""}
		if isLive {
			for base, i := r.Name, 2; liveNames[r.Name]; i++ {
				r.Name = fmt.Sprintf("%s-%d", base, i)
			}
			liveNames[r.Name] = true
			// Its events from the first line on give its activity.
			for _, key := range spoolKeys(spoolDir, id) {
				delete(offsets, key)
				got.replayed = append(got.replayed, key)
			}
		} else {
			got.end(r, spoolDir, now)
		}
		recs[id] = got.encode(r)
		out = append(out, Rebuilt{ID: id, Name: r.Name, Live: isLive, Named: named})
	}
	return out
}

// takeLive fills a rebuilt record from the tmux session that still runs
// it: where, what, and its name and agent when tmux knows them.
func takeLive(r *state.Record, ls LiveSession) {
	r.Dir, r.Branch, r.Command = ls.Dir, ls.Branch, ls.Command
	if ls.Name != "" {
		r.Name = ls.Name
	}
	if ls.Agent != "" {
		r.Agent = ls.Agent
	}
	if r.Command == nil {
		r.Command = LostCommand(ls.CommandText)
	}
	if r.Runtime.Launch == "" {
		r.Runtime.Launch = ls.Launch
	}
	r.Runtime.Socket, r.Runtime.TmuxSession = ls.Socket, ls.TmuxSession
	r.Runtime.SessionID, r.Runtime.PaneID = ls.SessionID, ls.PaneID
	r.Runtime.PaneStartedAt = ls.Created
	r.Pane.PID = ls.PID
	if !ls.Created.IsZero() {
		r.CreatedAt = ls.Created
	}
}

// end terminates a rebuilt record no tmux runs as its salvaged history
// last ended it (reason and time); lacking that, with ReasonRebuilt when
// its spool was last written. Never at now unless nothing says when: a
// session ended days ago would come back into the Done lane's last day.
func (got *salvaged) end(r *state.Record, spoolDir string, now time.Time) {
	h := got.history[r.ID]
	for _, k := range slices.Backward(slices.Sorted(maps.Keys(h))) {
		var t state.Transition
		if json.Unmarshal(h[k], &t) == nil && t.To == state.ActivityExited && !t.At.IsZero() {
			state.Terminate(r, t.Detail, t.Source, t.At)
			return
		}
	}
	at := time.Time{}
	for _, path := range spoolFilesOf(spoolDir, r.ID) {
		if fi, err := os.Stat(path); err == nil && fi.ModTime().After(at) {
			at = fi.ModTime().UTC()
		}
	}
	if at.IsZero() {
		at = now
	}
	state.Terminate(r, ReasonRebuilt, "repair", at)
}

// live asks tr for the sessions tmux runs, on the servers of the salvaged
// records and the caller's own.
func (got *salvaged) live(tr Traces) map[string]LiveSession {
	out := map[string]LiveSession{}
	if tr.Live == nil {
		return out
	}
	sockets := map[string]bool{}
	for _, v := range got.buckets[string(bucketSessions)] {
		if r, err := got.decode(v); err == nil {
			sockets[r.Runtime.Socket] = true
		}
	}
	for _, ls := range tr.Live(slices.Sorted(maps.Keys(sockets))) {
		if state.ValidID(ls.ID) {
			out[ls.ID] = ls
		}
	}
	return out
}

// ids are the session ids the traces name.
func (tr Traces) ids(live map[string]LiveSession) []string {
	var ids []string
	for _, m := range []map[string]string{tr.Names, tr.Launches} {
		ids = slices.AppendSeq(ids, maps.Keys(m))
	}
	ids = slices.AppendSeq(ids, maps.Keys(tr.Agents))
	return slices.AppendSeq(ids, maps.Keys(live))
}

// decode and encode read and write a record as the damaged store's schema
// has them: JSON before schema 2, the record codec since.
func (got *salvaged) decode(v []byte) (*state.Record, error) {
	if got.schema < 2 {
		r := new(state.Record)
		return r, json.Unmarshal(v, r)
	}
	return state.DecodeRecord(v)
}

func (got *salvaged) encode(r *state.Record) []byte {
	if got.schema < 2 {
		b, _ := json.Marshal(r)
		return b
	}
	return state.EncodeRecord(r)
}

func minTime(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

// spoolFilesOf are id's spool files, oldest first.
func spoolFilesOf(spoolDir, id string) []string {
	entries, _ := os.ReadDir(spoolDir)
	var out []string
	for _, de := range entries {
		if got, _, ok := parseSpoolName(de.Name()); ok && got == id {
			out = append(out, filepath.Join(spoolDir, de.Name()))
		}
	}
	// A rotated file (<id>.<stamp>.jsonl) is older than the live one.
	slices.SortFunc(out, func(a, b string) int {
		return strings.Compare(strings.TrimSuffix(a, ".jsonl")+"~", strings.TrimSuffix(b, ".jsonl")+"~")
	})
	return out
}

// spoolKeys are the offset keys of id's spool files.
func spoolKeys(spoolDir, id string) []string {
	var keys []string
	for _, path := range spoolFilesOf(spoolDir, id) {
		var st syscall.Stat_t
		if syscall.Lstat(path, &st) == nil {
			keys = append(keys, string(spoolKey(&st)))
		}
	}
	return keys
}

// firstLines reads the first line of each of id's spool files: when the
// earliest was written, and the agent whose hooks wrote them ("" for
// none, or only lanes' and generic ones).
func firstLines(spoolDir, id string) (first time.Time, agent state.Agent) {
	for _, path := range spoolFilesOf(spoolDir, id) {
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, state.MaxLineBytes+1), state.MaxLineBytes+1)
		if !sc.Scan() {
			f.Close()
			continue
		}
		if l, _, err := state.ParseLine(sc.Bytes()); err == nil && l.Session == id {
			first = minTime(first, l.At)
			if a := state.Agent(l.Agent); agent == "" && slices.Contains(state.Agents, a) {
				agent = a
			}
		}
		f.Close()
	}
	return first, agent
}
