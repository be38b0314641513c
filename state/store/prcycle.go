package store

import "lanes/state/gh"

// setPRs applies finished reads to the followed sessions of each
// repository (gh.Poller.Apply).
func (c *cycleTx) setPRs(p *gh.Poller, reads []gh.Read) {
	if len(reads) == 0 {
		return // most cycles: no record looked at
	}
	for _, r := range c.records {
		if p.Apply(r, reads) {
			c.dirty[r.ID] = true
		}
	}
}
