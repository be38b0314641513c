package main

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"lanes/scripts/internal/world"
)

func card(status string, marks ...string) world.Session {
	return world.Session{Status: status, Marks: marks}
}

func TestJudgeWaitsOutTheAllowanceThenHoldsTheCardToTheTruth(t *testing.T) {
	t0 := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	var tl timeline
	tl.add(idleTruth(t0.Add(10*time.Second), allowHook, facts{}))
	tl.add(workingTruth(t0, allowHook, facts{})) // learnt after the fact: goes first
	tl.add(flux(t0.Add(20*time.Second), "a job ending"))
	at := func(d time.Duration, s world.Session) sample { return sample{at: t0.Add(d), s: s, ok: true} }
	cases := []struct {
		name string
		smp  sample
		bad  bool
	}{
		{"lagging inside the allowance", at(time.Second, card("idle")), false},
		{"working when it works", at(5*time.Second, card("working")), false},
		{"idle while it works", at(5*time.Second, card("idle")), true},
		{"still working just after the end", at(11*time.Second, card("working")), false},
		{"still working past the allowance", at(14*time.Second, card("working")), true},
		{"a menu mark on an idle card with no menu", at(14*time.Second, card("idle", "menu")), true},
		{"not listed", sample{at: t0.Add(5 * time.Second)}, true},
		{"anything in flux", at(25*time.Second, card("exited")), false},
	}
	for _, c := range cases {
		v := tl.judge([]sample{c.smp}, t0, t0.Add(time.Minute))
		if (v != nil) != c.bad {
			t.Errorf("%s: violation %v, want one: %v", c.name, v, c.bad)
		}
	}
	if v := tl.judge([]sample{at(5*time.Second, card("idle"))}, t0.Add(6*time.Second), t0.Add(time.Minute)); v != nil {
		t.Errorf("a sample outside the judged window was judged: %v", v)
	}
}

func TestUnseenFailureMustStayThroughAnAutomaticTurn(t *testing.T) {
	t0 := time.Now()
	f := facts{failed: true}
	working := workingTruth(t0, allowHook, f)
	if working.ok(card("working")) {
		t.Error("an automatic turn that dropped the unseen failure passed")
	}
	if !working.ok(card("working", "failed")) {
		t.Error("an automatic turn keeping the failure failed")
	}
	idle := idleTruth(t0, allowHook, f)
	if idle.ok(world.Session{Status: "idle", Marks: []string{"failed"}, Zone: "idle"}) {
		t.Error("a failure not in Needs you passed")
	}
	if !idle.ok(world.Session{Status: "idle", Marks: []string{"failed"}, Zone: "needs_you"}) {
		t.Error("a failure in Needs you failed")
	}
	if idleTruth(t0, allowHook, facts{bg: true}).ok(card("idle")) {
		t.Error("background work the card does not mention passed")
	}
}

func TestTheSameSeedDrawsTheSameMoves(t *testing.T) {
	a, _ := findAgent("claude")
	draw := func(seed uint64) []move {
		c := &campaign{a: a, rng: rand.New(rand.NewPCG(seed, 37)), alive: true}
		var mvs []move
		for range 50 {
			mvs = append(mvs, c.next())
		}
		return mvs
	}
	if !reflect.DeepEqual(draw(7), draw(7)) {
		t.Fatal("seed 7 drew two different sequences")
	}
	if reflect.DeepEqual(draw(7), draw(8)) {
		t.Fatal("seeds 7 and 8 drew the same sequence")
	}
	c := &campaign{a: a, rng: rand.New(rand.NewPCG(1, 37))}
	if mv := c.next(); mv.Kind != "restart" {
		t.Fatalf("a gone agent's next move is %s, want restart", mv)
	}
}
