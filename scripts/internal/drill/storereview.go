package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"lanes/scripts/internal/world"

	bolt "go.etcd.io/bbolt"
)

// drillSnapshotAfterForeignWrite: a session is removed from lanes.db by a
// write that is not a lanes cycle (an older lanes, a crash before the
// snapshot's removal); with the store then busy, ls must not show the
// session from the last cycle's snapshot.
func drillSnapshotAfterForeignWrite(w *world.World) (string, error) {
	if err := w.NewSleeper("gone"); err != nil {
		return "", err
	}
	if r := w.Lanes("", "status-line"); r.Code != 0 { // its cycle leaves the snapshot
		return "", fmt.Errorf("status-line: exit %d", r.Code)
	}
	db := filepath.Join(w.State, "lanes.db")
	if err := editFirstRecord(db, func(b *bolt.Bucket, k, _ []byte) error { return b.Delete(k) }); err != nil {
		return "", err
	}
	f, err := os.Open(db)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return "", err
	}
	ls := w.Lanes("", "ls")
	evidence := fmt.Sprintf("record removed by a foreign write, store then held: ls exit %d, %q", ls.Code, firstLine(ls.Stderr))
	if strings.Contains(ls.Stdout, "gone") {
		return evidence + "\n" + ls.Stdout, fmt.Errorf("ls showed a session the store no longer holds")
	}
	return evidence, nil
}

// drillHungTmux: the tmux server stops answering (SIGSTOP); status-line
// must say so within its budget, not print a line as if tmux had answered.
func drillHungTmux(w *world.World) (string, error) {
	if err := w.NewSleeper("api"); err != nil {
		return "", err
	}
	out, err := w.Tmux(w.Socket, "display-message", "-p", "#{pid}")
	if err != nil {
		return "", err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		return "", fmt.Errorf("tmux pid %q: %v", out, err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return "", err
	}
	defer syscall.Kill(pid, syscall.SIGCONT)
	var lines []string
	for range 3 {
		r := w.Lanes("", "status-line", "--format", "plain")
		lines = append(lines, fmt.Sprintf("%q/%q (%s)", strings.TrimSpace(r.Stdout), firstLine(r.Stderr), r.Took.Round(time.Millisecond)))
		if r.Code != 0 || !strings.Contains(r.Stderr, "tmux is not answering") {
			return "stopped server: " + strings.Join(lines, ", "), fmt.Errorf("status-line did not report the hung server")
		}
	}
	return "stopped server, three status-line runs: " + strings.Join(lines, ", "), nil
}

// drillFirstUseRace: many lanes processes start at once on a state dir
// that has no store yet; none may call the store damaged.
func drillFirstUseRace(w *world.World) (string, error) {
	rounds, procs := 20, 8
	if *quick {
		rounds = 10
	}
	damaged := 0
	for i := range rounds {
		dir := filepath.Join(w.State, fmt.Sprintf("fresh%d", i))
		var wg sync.WaitGroup
		var mu sync.Mutex
		for range procs {
			wg.Go(func() {
				cmd := exec.Command(w.Bin, "ls")
				cmd.Env = append(w.Env(), "LANES_STATE_DIR="+dir)
				var errb bytes.Buffer
				cmd.Stderr = &errb
				_ = cmd.Run()
				if strings.Contains(errb.String(), "store damaged") {
					mu.Lock()
					damaged++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
	evidence := fmt.Sprintf("%d rounds of %d concurrent `lanes ls` on a fresh state dir: %d said the store is damaged", rounds, procs, damaged)
	if damaged > 0 {
		return evidence, fmt.Errorf("a fresh store was called damaged")
	}
	return evidence, nil
}

// drillNewerRecords: lanes.db holds a record in an encoding newer than this
// build (a newer lanes wrote it); doctor --repair must refuse and leave the
// file as it is, not drop the record as damage.
func drillNewerRecords(w *world.World) (string, error) {
	if err := w.NewSleeper("future"); err != nil {
		return "", err
	}
	db := filepath.Join(w.State, "lanes.db")
	if err := editFirstRecord(db, func(b *bolt.Bucket, k, v []byte) error {
		return b.Put(k, append([]byte{v[0] + 1}, v[1:]...)) // the version is the first byte
	}); err != nil {
		return "", err
	}
	before, _ := os.ReadFile(db)
	rep := w.Lanes("", "doctor", "--repair")
	after, _ := os.ReadFile(db)
	evidence := fmt.Sprintf("a record of a newer encoding: doctor --repair exit %d, %q; lanes.db unchanged: %v",
		rep.Code, firstLine(rep.Stdout), bytes.Equal(before, after))
	if !bytes.Equal(before, after) || !strings.Contains(rep.Stdout, "too new") {
		return evidence + "\n" + rep.Stdout, fmt.Errorf("repair did not refuse a store a newer lanes wrote")
	}
	return evidence, nil
}

// editFirstRecord changes the first record of the store at db straight
// through bbolt, as something other than a lanes cycle would.
func editFirstRecord(db string, edit func(b *bolt.Bucket, k, v []byte) error) error {
	bdb, err := bolt.Open(db, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return err
	}
	defer bdb.Close()
	return bdb.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("sessions"))
		k, v := b.Cursor().First()
		return edit(b, k, v)
	})
}
