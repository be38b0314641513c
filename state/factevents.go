package state

// applyFact takes an event that is a fact beside the activity, never a
// move of it: a PR's (from `lanes pr` or gh), or what the agent spent on a
// message (usage.go). It reports whether e was one.
func applyFact(r *Record, e Event) bool {
	switch e.Kind {
	case KindPR:
		if e.PR != nil {
			upsertPR(r, *e.PR, e)
		}
	case KindUsage:
		if e.Usage != nil {
			r.Usage.Take(*e.Usage, e.At)
		}
	default:
		return false
	}
	return true
}

// upsertPR records p's facts, noting when its state last changed.
func upsertPR(r *Record, p PR, e Event) {
	p.Source, p.At = e.Source, e.At
	for i := range r.PRs {
		if r.PRs[i].Number == p.Number {
			old := r.PRs[i]
			was, _ := PROwnStatus(old)
			is, _ := PROwnStatus(p)
			if old.State != p.State || was != is {
				p.StateChangedAt = e.At
			} else {
				p.StateChangedAt = old.StateChangedAt
			}
			r.PRs[i] = p
			return
		}
	}
	p.StateChangedAt = e.At
	r.PRs = append(r.PRs, p)
}
