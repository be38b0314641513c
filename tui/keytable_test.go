package tui

import (
	"strings"
	"testing"

	"lanes/state"
)

// situations is every situation the board can be in: a card or none (on
// the idle stack's head or not), merged or not, this host's or another's
// (up or down), with and without other hosts.
func situations() []situation {
	var out []situation
	for bits := range 1 << 6 {
		s := situation{card: bits&1 != 0, merged: bits&2 != 0, remote: bits&4 != 0,
			down: bits&8 != 0, idleHead: bits&16 != 0, hosts: bits&32 != 0}
		switch {
		case !s.card && (s.merged || s.remote), // only a card merges or has a host
			s.card && s.idleHead, // the idle stack's head is no card
			s.down && !s.remote,  // only another host is down
			s.remote && !s.hosts: // another host's card needs other hosts
			continue
		}
		out = append(out, s)
	}
	return out
}

// TestKeyTableOneRowPerKey: no key is bound twice without the table
// saying when each applies: in every situation at most one row of a key
// applies.
func TestKeyTableOneRowPerKey(t *testing.T) {
	table := newKeyTable()
	for _, s := range situations() {
		rows := map[string][]string{}
		for _, b := range table {
			if b.when == nil {
				t.Fatalf("row %q has no when", b.key.Help().Key)
			}
			if !b.when(s) {
				continue
			}
			for _, k := range b.key.Keys() {
				rows[k] = append(rows[k], b.key.Help().Key+" "+b.key.Help().Desc)
			}
		}
		for k, rs := range rows {
			if len(rs) > 1 {
				t.Errorf("%+v: key %q has %d rows: %s", s, k, len(rs), strings.Join(rs, "; "))
			}
		}
	}
}

// TestKeyTableDrawsTheLines: the key lines and the help's columns come
// from the table, in the order the board has always shown them.
func TestKeyTableDrawsTheLines(t *testing.T) {
	table := newKeyTable()
	line := func(f footer, ag string) string {
		var out []string
		for _, b := range table.footerKeys(f, state.Agent(ag)) {
			out = append(out, b.Help().Key+" "+b.Help().Desc)
		}
		return strings.Join(out, " · ")
	}
	for f, want := range map[footer]string{
		footLive:       "enter attach · n new · s send · x kill · p preview · / filter · ? help · q quit",
		footExited:     "r restart · d remove · enter attach · n new · p preview · / filter · ? help · q quit",
		footEnded:      "d remove · H history · n new · / filter · ? help · q quit",
		footRestorable: "R restore · d remove · H history · n new · / filter · ? help · q quit",
		footMerged:     "d clean up · o open PR · H history · n new · / filter · ? help · q quit",
		footIdle:       "enter open, close · n new · / filter · ? help · q quit",
	} {
		if got := line(f, ""); got != want {
			t.Errorf("key line %d:\n got %s\nwant %s", f, got, want)
		}
	}
	if got, want := line(footAnswer, "claude"), "y allow · N deny · A always · enter attach · ? help · q quit"; got != want {
		t.Errorf("a dialog card's key line:\n got %s\nwant %s", got, want)
	}
	cols := func(s situation) []string {
		var out []string
		for _, col := range table.fullHelp(s) {
			var keys []string
			for _, b := range col {
				keys = append(keys, b.Help().Key)
			}
			out = append(out, strings.Join(keys, " "))
		}
		return out
	}
	want := []string{"↑↓/jk ←→/hl g/G pgup space enter y N A", "n s r R x d C m o P", "p H D i a / esc t ? q"}
	if got := cols(situation{}); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("help columns:\n got %q\nwant %q", got, want)
	}
	want[1] += " @" // the host filter, where there are hosts to filter
	if got := cols(situation{hosts: true}); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("help columns with hosts:\n got %q\nwant %q", got, want)
	}
}
