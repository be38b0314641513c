package state

import (
	"maps"
	"slices"
	"time"
)

// Tally is what the status line counts, for records at one instant: the
// records of the last day (Record.Recent) by zone and by status, how many
// of them are live, and how many sit in the Working lane's idle stack. A
// cycle stores its tally with its snapshot, so a status line that reuses
// the cycle reads a few bytes instead of decoding every record.
type Tally struct {
	Zones    map[Zone]int
	Statuses map[Status]int
	Live     int
	// IdleStack counts the idle cards of the Working lane, what ○ shows
	// beside ●: each live session is in one count of the line.
	IdleStack int
	// Silent is, per tmux socket, since when a live record has found its
	// server not answering (the earliest such record).
	Silent map[string]time.Time
}

// TallyAt is the tally of recs derived at now.
func TallyAt(recs []*Record, now time.Time) Tally {
	t := Tally{Zones: map[Zone]int{}, Statuses: map[Status]int{}, Silent: silentServers(recs)}
	for _, r := range recs {
		if !r.Recent(now) {
			continue
		}
		t.Add(r, Derive(r, now))
	}
	return t
}

// Add counts one session, r with derivation d, into t: how the status
// line sums another host's sessions, derived there, with this host's.
func (t *Tally) Add(r *Record, d Derivation) {
	if t.Zones == nil {
		t.Zones, t.Statuses = map[Zone]int{}, map[Status]int{}
	}
	t.Zones[d.Zone]++
	t.Statuses[d.Status]++
	if d.IdleStack() {
		t.IdleStack++
	}
	if r.Live() {
		t.Live++
	}
}

// SilentSince is since when a live record of recs on tmux socket has
// found its server not answering (the earliest); zero when none has.
func SilentSince(recs []*Record, socket string) time.Time { return silentServers(recs)[socket] }

// silentServers is, per tmux socket, since when a live record on it has
// found its server not answering (the earliest such record).
func silentServers(recs []*Record) map[string]time.Time {
	silent := map[string]time.Time{}
	for _, r := range recs {
		since := r.Runtime.UnreachableSince
		if !r.Live() || since.IsZero() {
			continue
		}
		if at, ok := silent[r.Runtime.Socket]; !ok || since.Before(at) {
			silent[r.Runtime.Socket] = since
		}
	}
	return silent
}

// EncodeTally writes t with its keys sorted, so that one tally always
// encodes to the same bytes (a cycle compares them to keep a snapshot).
func EncodeTally(t Tally) []byte {
	var e encoder
	counts := func(m map[string]int) {
		e.uint(uint64(len(m)))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e.str(k)
			e.uint(uint64(m[k]))
		}
	}
	counts(stringKeys(t.Zones))
	counts(stringKeys(t.Statuses))
	e.uint(uint64(t.Live))
	e.uint(uint64(t.IdleStack))
	e.uint(uint64(len(t.Silent)))
	for _, k := range slices.Sorted(maps.Keys(t.Silent)) {
		e.str(k)
		e.time(t.Silent[k])
	}
	return e.b
}

func DecodeTally(b []byte) (Tally, error) {
	d := decoder{b: b, whole: string(b), size: len(b)}
	t := Tally{Zones: map[Zone]int{}, Statuses: map[Status]int{}, Silent: map[string]time.Time{}}
	for range d.countOf(2) {
		k := d.str()
		t.Zones[Zone(k)] = int(d.uint())
	}
	for range d.countOf(2) {
		k := d.str()
		t.Statuses[Status(k)] = int(d.uint())
	}
	t.Live = int(d.uint())
	t.IdleStack = int(d.uint())
	for range d.countOf(2) {
		k := d.str()
		t.Silent[k] = d.time()
	}
	if d.err == nil && len(d.b) > 0 {
		d.fail()
	}
	return t, d.err
}

func stringKeys[K ~string](m map[K]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, n := range m {
		out[string(k)] = n
	}
	return out
}
