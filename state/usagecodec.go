package state

import (
	"math"
)

// usage writes a record's Usage and profile (codec version 20).
func (e *encoder) usage(r *Record) {
	e.str(r.Profile)
	u := &r.Usage
	e.tokens(u.Tokens)
	e.int(u.Context)
	e.int(u.Window)
	e.uint(uint64(len(u.Limits)))
	for _, l := range u.Limits {
		e.str(l.Name)
		e.uint(math.Float64bits(l.UsedPct))
		e.int(l.WindowMin)
		e.time(l.ResetsAt)
	}
	e.uint(uint64(len(u.Days)))
	for _, d := range u.Days {
		e.str(d.Day)
		e.tokens(d.Tokens)
	}
	e.time(u.At)
	e.source(&u.Src)
	e.uint(uint64(len(u.Past)))
	for i := range u.Past {
		e.source(&u.Past[i])
	}
}

func (e *encoder) source(s *UsageSource) {
	e.str(s.Path)
	e.int(s.Offset)
	e.str(s.Ident)
	e.str(s.Tail)
	e.tokens(s.Cum)
	e.str(s.Msg)
	e.tokens(s.MsgTokens)
}

func (d *decoder) usage(r *Record) {
	r.Profile = d.str()
	u := &r.Usage
	u.Tokens = d.tokens()
	u.Context = d.int()
	u.Window = d.int()
	if n := d.countOf(4); n > 0 {
		u.Limits = make([]Limit, n)
		for i := range u.Limits {
			u.Limits[i] = Limit{Name: d.str(), UsedPct: math.Float64frombits(d.uint()), WindowMin: d.int(), ResetsAt: d.time()}
		}
	}
	if n := d.countOf(6); n > 0 {
		u.Days = make([]DayUsage, n)
		for i := range u.Days {
			u.Days[i] = DayUsage{Day: d.str(), Tokens: d.tokens()}
		}
	}
	u.At = d.time()
	d.source(&u.Src)
	if n := d.countOf(15); n > 0 {
		u.Past = make([]UsageSource, n)
		for i := range u.Past {
			d.source(&u.Past[i])
		}
	}
}

func (d *decoder) source(s *UsageSource) {
	s.Path = d.str()
	s.Offset = d.int()
	s.Ident = d.str()
	s.Tail = d.str()
	s.Cum = d.tokens()
	s.Msg = d.str()
	s.MsgTokens = d.tokens()
}

func (e *encoder) tokens(t Tokens) {
	e.int(t.In)
	e.int(t.Out)
	e.int(t.CacheRead)
	e.int(t.CacheWrite)
	e.int(t.CostMicros)
}

func (d *decoder) tokens() Tokens {
	return Tokens{In: d.int(), Out: d.int(), CacheRead: d.int(), CacheWrite: d.int(), CostMicros: d.int()}
}
