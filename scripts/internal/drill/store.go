package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"lanes/scripts/internal/world"

	bolt "go.etcd.io/bbolt"
)

// drillDamagedStore: garbage over one page of lanes.db, then a 0-byte
// lanes.db. Every command says the store is damaged (no Go panic), nothing
// starts an empty store over it, and `lanes doctor --repair` gets back
// every record that is not on the damaged page and rebuilds the others
// from their traces, live, since tmux runs them.
func drillDamagedStore(w *world.World) (string, error) {
	n := 50
	if *quick {
		n = 20
	}
	for i := range n {
		if r := w.Lanes("", "new", fmt.Sprintf("d%02d", i), "--", "sleep", "86400"); r.Code != 0 {
			return "", fmt.Errorf("lanes new: %s", r.Stderr)
		}
		if r := w.Lanes("", "hook", "generic", "active", "--session", fmt.Sprintf("d%02d", i)); r.Code != 0 {
			return "", fmt.Errorf("hook: exit %d", r.Code)
		}
	}
	if _, err := w.Ls(); err != nil { // every hook line ingested
		return "", err
	}
	db := filepath.Join(w.State, "lanes.db")
	page, onPage, err := damageLeaf(db)
	if err != nil {
		return "", err
	}
	ls, sl, doc := w.Lanes("", "ls"), w.Lanes("", "status-line"), w.Lanes("", "doctor")
	evidence := fmt.Sprintf("garbage over page %d (%d of %d records on it): ls exit %d %q; status-line exit %d %q; doctor exit %d",
		page, onPage, n, ls.Code, firstLine(ls.Stderr), sl.Code, strings.TrimSpace(sl.Stdout), doc.Code)
	for _, r := range []world.Result{ls, sl, doc} {
		if strings.Contains(r.Stderr, "panic") || strings.Contains(r.Stderr, "goroutine ") {
			return evidence, fmt.Errorf("a Go panic: %s", firstLine(r.Stderr))
		}
	}
	switch {
	case ls.Code != 1 || !strings.Contains(ls.Stderr, "store damaged") || !strings.Contains(ls.Stderr, "lanes doctor --repair"):
		return evidence, fmt.Errorf("ls did not say the store is damaged and what to do")
	case sl.Code != 0 || strings.TrimSpace(sl.Stdout) != "lanes:!" && !strings.Contains(sl.Stdout, "●"):
		return evidence, fmt.Errorf("status-line must exit 0 with its marker or its last good line")
	case doc.Code != 1 || !strings.Contains(doc.Stdout, "fix: lanes doctor --repair"):
		return evidence + "\n" + doc.Stdout, fmt.Errorf("doctor did not name the fix")
	}
	rep := w.Lanes("", "doctor", "--repair")
	got, rebuilt, live, names := repairCounts(rep.Stdout)
	after, err := w.Ls()
	if err != nil {
		return evidence, fmt.Errorf("after repair: %v", err)
	}
	evidence += fmt.Sprintf("\nrepair recovered %d as they were, rebuilt %d from traces (%d live in tmux: %s); ls shows %d, %d live",
		got, rebuilt, live, names, len(after), liveCount(after))
	if got != n-onPage || rebuilt != onPage || live != onPage || len(after) != n || liveCount(after) != n ||
		!strings.Contains(rep.Stdout, "kept at "+db+".damaged-") {
		return evidence + "\n" + rep.Stdout, fmt.Errorf("the repair did not recover every readable record and rebuild the others live")
	}

	if err := os.Truncate(db, 0); err != nil {
		return evidence, err
	}
	ls = w.Lanes("", "ls")
	hook := w.Lanes("", "hook", "generic", "idle", "--session", "d00")
	sl = w.Lanes("", "status-line")
	fi, err := os.Stat(db)
	if err != nil {
		return evidence, err
	}
	evidence += fmt.Sprintf("\n0-byte lanes.db: ls exit %d %q; hook exit %d; lanes.db still %d bytes", ls.Code, firstLine(ls.Stderr), hook.Code, fi.Size())
	if ls.Code != 1 || !strings.Contains(ls.Stderr, "empty (0 bytes)") || fi.Size() != 0 || hook.Code != 0 {
		return evidence, fmt.Errorf("an empty store was not refused, or was re-created")
	}
	rep = w.Lanes("", "doctor", "--repair")
	got, rebuilt, live, _ = repairCounts(rep.Stdout)
	if after, err = w.Ls(); err != nil {
		return evidence, fmt.Errorf("after repair: %v", err)
	}
	evidence += fmt.Sprintf("; repair: %d recovered, rebuilt %d (%d live in tmux), damaged file kept; ls shows %d live, d00 %s",
		got, rebuilt, live, liveCount(after), after["d00"].Activity)
	if got != 0 || rebuilt != n || live != n || liveCount(after) != n || !strings.Contains(rep.Stdout, "kept at ") {
		return evidence + "\n" + rep.Stdout, fmt.Errorf("the repair of an empty store did not rebuild every session tmux runs")
	}
	if after["d00"].Activity != "idle" {
		return evidence, fmt.Errorf("the hook line written while the store was empty did not apply to the rebuilt record")
	}
	return evidence, nil
}

// damageLeaf writes garbage over a leaf page of the live sessions tree
// (the middle child of its root), and returns the page and how many
// records it held.
func damageLeaf(db string) (page, held int, err error) {
	var root uint64
	bdb, err := bolt.Open(db, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		return 0, 0, err
	}
	err = bdb.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte("sessions")); b != nil {
			root = uint64(b.Root())
		}
		return nil
	})
	bdb.Close()
	if err != nil {
		return 0, 0, err
	}
	b, err := os.ReadFile(db)
	if err != nil {
		return 0, 0, err
	}
	// A page: id u64, flags u16, count u16, overflow u32, then elements;
	// a branch element is pos u32, ksize u32, pgid u64 (bbolt's format).
	const size, branch, leaf = 4096, 0x01, 0x02
	le := binary.LittleEndian
	at := func(id uint64) []byte {
		if int(id+1)*size > len(b) {
			return nil
		}
		return b[id*size : (id+1)*size]
	}
	p := at(root)
	if p == nil || le.Uint16(p[8:]) != branch {
		return 0, 0, fmt.Errorf("the sessions tree's root is not a branch page: too few records to damage only some")
	}
	child := le.Uint64(p[16+16*(int(le.Uint16(p[10:]))/2)+8:])
	p = at(child)
	if p == nil || le.Uint16(p[8:]) != leaf {
		return 0, 0, fmt.Errorf("page %d is not a leaf", child)
	}
	held = int(le.Uint16(p[10:]))
	for i := range p {
		p[i] = byte(i*7 + 13)
	}
	return int(child), held, os.WriteFile(db, b, 0o600)
}

var repairLine = regexp.MustCompile(`recovered (\d+) record\(s\) as they were(?:; none lost|; rebuilt (\d+) from traces \((?:(\d+) live in tmux: ([^;)]*))?)`)

// repairCounts reads the repair's summary: records recovered as they
// were, rebuilt from traces, and of those live in tmux, with their names.
func repairCounts(out string) (recovered, rebuilt, live int, names string) {
	m := repairLine.FindStringSubmatch(out)
	if m == nil {
		return -1, -1, -1, ""
	}
	recovered, _ = strconv.Atoi(m[1])
	rebuilt, _ = strconv.Atoi(m[2]) // "none lost" reads as 0
	live, _ = strconv.Atoi(m[3])
	return recovered, rebuilt, live, m[4]
}

func liveCount(ss map[string]world.Session) int {
	n := 0
	for _, s := range ss {
		if !s.IsTerminated {
			n++
		}
	}
	return n
}

// drillStatusUnderLoad: a board runs over many sessions while 8 writers
// send hook lines as fast as they can; status-line, run again and again,
// must never print its marker and must print a current line at least once;
// how many runs did, and how often the board flashed "store busy", are
// printed.
func drillStatusUnderLoad(w *world.World) (string, error) {
	n, writers, runFor := 200, 8, 30*time.Second
	if *quick {
		n, runFor = 40, 8*time.Second
	}
	for i := range n {
		if r := w.Lanes("", "new", fmt.Sprintf("s%03d", i), "--", "sleep", "86400"); r.Code != 0 {
			return "", fmt.Errorf("lanes new: %s", r.Stderr)
		}
	}
	view := w.Socket + "-view"
	if err := w.StartBoard(view, 160, 50); err != nil {
		return "", err
	}
	if !world.WaitFor(20*time.Second, func() bool { return strings.Contains(w.Screen(view), "s000") }) {
		return w.Screen(view), fmt.Errorf("the board never showed the sessions")
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var lines atomic.Int64
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				ev := []string{"active", "idle", "blocked"}[j%3]
				w.Lanes("", "hook", "generic", ev, "--session", fmt.Sprintf("s%03d", (i*37+j)%n))
				lines.Add(1)
			}
		}()
	}
	flashes := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		shown := false
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			busy := strings.Contains(w.Screen(view), "store busy")
			if busy && !shown {
				flashes++
			}
			shown = busy
		}
	}()
	var runs, current, markers int
	reasons := map[string]int{}
	for end := time.Now().Add(runFor); time.Now().Before(end); {
		r := w.Lanes("", "status-line", "--format", "plain")
		runs++
		out := strings.TrimSpace(r.Stdout)
		switch {
		case out == "lanes:!":
			markers++
		case r.Code == 0 && r.Stderr == "" && out != "":
			current++
		default:
			reason, _, _ := strings.Cut(strings.TrimPrefix(firstLine(r.Stderr), "lanes: status-line: "), ":")
			reasons[reason]++
		}
		time.Sleep(100 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	evidence := fmt.Sprintf("%d sessions, %d writers (%d hook lines) for %s: %d of %d status-line runs printed a current line (%.0f %%), %d printed lanes:!; board flashed \"store busy\" %d times",
		n, writers, lines.Load(), runFor, current, runs, 100*float64(current)/float64(max(runs, 1)), markers, flashes)
	if len(reasons) > 0 {
		evidence += fmt.Sprintf("; old line because: %v", reasons)
	}
	// The share of current lines and the board's flashes depend on how
	// loaded the machine is: figures to read, not to fail on.
	switch {
	case markers > 0:
		return evidence, fmt.Errorf("status-line printed its marker under load")
	case current == 0:
		return evidence, fmt.Errorf("no status-line run printed a current line")
	}
	return evidence, nil
}
