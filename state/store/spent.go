package store

import (
	"encoding/binary"
	"slices"
	"strings"
	"time"

	"lanes/state"
)

// bucketSpent keeps what removed sessions spent, by local day and agent
// (docs/design.md §18): clearing Done takes a session's record, not its
// day's total or its budget's count. Key "DAY\x00AGENT"; value the
// sessions whose last day it is, then the counts, as varints.
var bucketSpent = []byte("spent")

// keepSpent adds what r spent on each of its days to the ledger, before
// its record goes, and lets go of days older than a record keeps.
func (t *Tx) keepSpent(r *state.Record) error {
	days := r.Usage.Days
	if len(days) == 0 {
		return nil
	}
	b := t.bucket(bucketSpent)
	for i, d := range days {
		key := []byte(d.Day + "\x00" + string(r.Agent))
		s := decodeSpent(b.Get(key))
		s.Tokens = s.Add(d.Tokens)
		if i == len(days)-1 {
			s.Sessions++
		}
		if err := b.Put(key, encodeSpent(s)); err != nil {
			return err
		}
	}
	last, _ := time.Parse(time.DateOnly, days[len(days)-1].Day)
	oldest := last.AddDate(0, 0, -state.UsageKeepDays).Format(time.DateOnly)
	var old [][]byte
	c := b.Cursor()
	for k, _ := c.First(); k != nil && string(k) < oldest; k, _ = c.Next() {
		old = append(old, slices.Clone(k))
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// Spent is what removed sessions spent, from the day from on ("" every
// day kept), oldest first.
func (t *Tx) Spent(from string) []state.Spent {
	b := t.bucket(bucketSpent)
	if b == nil {
		return nil
	}
	var out []state.Spent
	c := b.Cursor()
	for k, v := c.Seek([]byte(from)); k != nil; k, v = c.Next() {
		day, agent, ok := strings.Cut(string(k), "\x00")
		if !ok {
			continue
		}
		s := decodeSpent(v)
		s.Day, s.Agent = day, state.Agent(agent)
		out = append(out, s)
	}
	return out
}

func encodeSpent(s state.Spent) []byte {
	b := binary.AppendVarint(nil, int64(s.Sessions))
	for _, n := range []int64{s.In, s.Out, s.CacheRead, s.CacheWrite, s.CostMicros} {
		b = binary.AppendVarint(b, n)
	}
	return b
}

// decodeSpent reads a ledger value; a damaged one counts as none.
func decodeSpent(b []byte) state.Spent {
	var n [6]int64
	for i := range n {
		v, k := binary.Varint(b)
		if k <= 0 {
			return state.Spent{}
		}
		n[i], b = state.Clamp(v), b[k:]
	}
	return state.Spent{Sessions: int(n[0]), Tokens: state.Tokens{In: n[1], Out: n[2], CacheRead: n[3], CacheWrite: n[4], CostMicros: n[5]}}
}
