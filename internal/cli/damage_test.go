package cli

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"lanes/state"
	"lanes/state/store"

	bolt "go.etcd.io/bbolt"
)

// damagedEnv is a store of n sessions, several to a page, on a socket
// nobody serves.
func damagedEnv(t *testing.T, n int) (*env, string) {
	t.Helper()
	now := time.Date(2026, 11, 29, 17, 2, 11, 0, time.UTC)
	var recs []*state.Record
	for i := range n {
		r := lsRecord(fmt.Sprintf("sess%04d", i), fmt.Sprintf("s%d", i), state.ActivityIdle, now)
		r.Command = []string{"sh", "-c", strings.Repeat("x", 300)}
		recs = append(recs, r)
	}
	e := lsEnv(t, recs...)
	e.now = func() time.Time { return now }
	// The name index `lanes new` keeps for the hook.
	if err := os.MkdirAll(filepath.Join(e.state, "names"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := os.WriteFile(filepath.Join(e.state, "names", r.Name), []byte(r.ID+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return e, filepath.Join(e.state, "lanes.db")
}

// damageLeafHolding writes garbage over the leaf page that holds key, as a
// failing disk would, and returns the page number.
func damageLeafHolding(t *testing.T, path, key string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page, leaf = 4096, 0x02
	for k := 2; (k+1)*page <= len(b); k++ {
		p := b[k*page : (k+1)*page]
		if binary.LittleEndian.Uint16(p[8:]) == leaf && bytes.Contains(p, []byte(key)) {
			for i := range p {
				p[i] = byte(i*7 + 13)
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			return k
		}
	}
	t.Fatalf("no leaf page holds %s", key)
	return 0
}

func TestDamagedStoreIsReportedAndRepaired(t *testing.T) {
	const n = 30
	e, path := damagedEnv(t, n)
	damageLeafHolding(t, path, "sess0015")

	_, errs, code := e.run("ls")
	if code != exitError || !strings.Contains(errs, "store damaged") || !strings.Contains(errs, "lanes doctor --repair") {
		t.Fatalf("ls on a damaged store: exit %d, stderr %q", code, errs)
	}
	out, errs, code := e.run("status-line")
	if code != exitOK || strings.TrimSpace(out) != markerError || !strings.Contains(errs, "store damaged") {
		t.Fatalf("status-line on a damaged store: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, _, code = e.run("doctor")
	if code != exitError || !strings.Contains(out, "store damaged") || !strings.Contains(out, "fix: lanes doctor --repair") {
		t.Fatalf("doctor on a damaged store: exit %d\n%s", code, out)
	}

	out, errs, _ = e.run("doctor", "--repair")
	// Their tmux server does not run: the records not read are rebuilt
	// as ended, under the names the hook's index gives.
	m := regexp.MustCompile(`recovered (\d+) record\(s\) as they were; rebuilt (\d+) from traces \(\d+ ended: ([^)]*)\)`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "kept at "+path+".damaged-") {
		t.Fatalf("doctor --repair said:\n%s%s", out, errs)
	}
	var got, rebuilt int
	fmt.Sscan(m[1], &got)
	fmt.Sscan(m[2], &rebuilt)
	if got == 0 || got >= n || got+rebuilt != n || !strings.Contains(m[3], "s15") {
		t.Fatalf("recovered %d, rebuilt %d of %d: one damaged page should lose only its records, and s15 was on it\n%s", got, rebuilt, n, out)
	}
	s := e.ls()
	if len(s) != n || !s["s15"].IsTerminated || *s["s15"].TerminatedReason != store.ReasonRebuilt {
		t.Fatalf("after repair ls --all shows %d sessions, s15 %+v", len(s), s["s15"])
	}
	if out, _, _ := e.run("doctor"); !strings.Contains(out, "every page readable") {
		t.Fatalf("doctor after repair:\n%s", out)
	}
}

func TestEmptyStoreIsRefused(t *testing.T) {
	e, path := damagedEnv(t, 3)
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	_, errs, code := e.run("ls")
	if code != exitError || !strings.Contains(errs, "empty (0 bytes)") || !strings.Contains(errs, "lanes doctor --repair") {
		t.Fatalf("ls on an empty store: exit %d, stderr %q", code, errs)
	}
	if out, _, _ := e.run("status-line"); strings.TrimSpace(out) != markerError {
		t.Fatalf("status-line on an empty store printed %q", out)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Fatalf("the empty store was re-created: %v %v", fi, err)
	}
}

// A record that does not decode (a store a build of main between two
// codec changes wrote) is damage doctor names with its fix: it said "wait
// for the other lanes process", as for a busy store.
func TestDoctorCallsAnUndecodableRecordDamage(t *testing.T) {
	e, path := damagedEnv(t, 3)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("sessions"))
		v := b.Get([]byte("sess0001"))
		return b.Put([]byte("sess0001"), append([]byte(nil), v[:len(v)/2]...))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := e.run("doctor")
	if code != exitError || !strings.Contains(out, "store damaged") || !strings.Contains(out, "fix: lanes doctor --repair") ||
		strings.Contains(out, "wait for the other lanes process") {
		t.Fatalf("doctor on an undecodable record: exit %d\n%s", code, out)
	}
}
