package store

import (
	"time"

	"lanes/state"
	"lanes/state/git"
	"lanes/state/usage"
)

// setGit takes finished reads into the live records they were read for,
// dirty only when a count changed (git.Read.Apply).
func (c *cycleTx) setGit(reads map[git.Key]git.Read) {
	if len(reads) == 0 {
		return // most cycles: no record looked at
	}
	for _, r := range c.records {
		if rd, ok := reads[git.KeyOf(r)]; ok && r.Live() && rd.Apply(r) {
			c.dirty[r.ID] = true
		}
	}
}

// setBranches takes the branches a cycle read into its records.
func (c *cycleTx) setBranches(branches map[string]string) {
	for _, r := range c.records {
		if b, ok := branches[r.ID]; ok && r.Live() && b != r.Branch {
			r.Branch = b
			c.dirty[r.ID] = true
		}
	}
}

// setUsage takes the usage reads into the records they were read for
// (usage.Read.Apply: only where no other read took the same lines).
func (c *cycleTx) setUsage(reads map[string]usage.Read) {
	for id, rd := range reads {
		if r := c.record(id); r != nil && rd.Apply(r) {
			c.dirty[id] = true
		}
	}
}

// recordsNow is whose session dirs the branch read looks at, read without
// the store's lock where it can be (a board must not wait on it twice a
// cycle while another process holds it): the records this collector's
// last cycle left, else the last cycle's snapshot (any process's), else,
// a first cycle with none, a read of the store.
func (c *Collector) recordsNow() []*state.Record {
	if c.known != nil {
		return c.known
	}
	if recs, _, err := c.Store.Snapshot(); err == nil {
		return recs
	}
	var recs []*state.Record
	_ = c.Store.View(func(tx *Tx) error {
		var err error
		recs, err = tx.All()
		return err
	})
	return recs
}

// readFiles reads what a cycle takes from files, before its transaction
// and not while the store is held (a checkout's files and an agent's
// records may be anyone's): the live branches, a file read per session
// dir and no process, and what the agents' records gained (state/usage).
func (c *Collector) readFiles(start, now time.Time) (map[string]string, map[string]usage.Read) {
	recs := c.recordsNow()
	if c.NoUsage {
		return c.heads.Branches(recs, start), nil
	}
	if c.usage == nil {
		c.usage = usage.NewReader()
	}
	return c.heads.Branches(recs, start), c.usage.Read(recs, now)
}
