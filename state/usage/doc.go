// Package usage reads what each session's agent spent from the agent's own
// records (docs/design.md §18): only the bytes appended since the last
// read, from the file its hooks named, beside the cycle's transaction and
// never while the store is held. What a line says is the agent's reading
// in package state (state.ReadUsage); what was read is the record's
// (state.UsageSource), so any lanes process goes on from where another
// stopped.
package usage
