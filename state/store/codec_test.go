package store

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"lanes/state"
	"lanes/state/statetest"
)

// fill sets every field reachable from v to a random non-zero value, so a
// field the codec forgets cannot round-trip by luck.
func fill(t *testing.T, v reflect.Value, rnd *rand.Rand) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(rnd.Int64N(1<<34)-1<<33, rnd.Int64N(1e9)).UTC()))
			return
		}
		for i := range v.NumField() {
			fill(t, v.Field(i), rnd)
		}
	case reflect.String:
		v.SetString("s" + strconv.Itoa(rnd.IntN(1e6)) + "é")
	case reflect.Int, reflect.Int64:
		v.SetInt(rnd.Int64N(1<<40) - 1<<39)
	case reflect.Float64:
		v.SetFloat(rnd.Float64() * 100)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), rnd)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 3, 3))
		for i := range 3 {
			fill(t, v.Index(i), rnd)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 3 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, rnd)
			fill(t, e, rnd)
			v.SetMapIndex(k, e)
		}
	default:
		t.Fatalf("the codec test cannot fill a %s: teach fill and the codec about it", v.Type())
	}
}

func TestCodecRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		var r state.Record
		fill(t, reflect.ValueOf(&r).Elem(), rnd)
		got, err := state.DecodeRecord(state.EncodeRecord(&r))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, &r) {
			t.Fatalf("round trip differs:\n got %+v\nwant %+v", got, &r)
		}
	}
	// Empty and nil stay apart, and zero times stay zero.
	r := state.Record{ID: "abcd1234", Command: []string{}, Activity: state.ActivityFacts{ToolsInFlight: []string{}}}
	got, err := state.DecodeRecord(state.EncodeRecord(&r))
	if err != nil || !reflect.DeepEqual(got, &r) {
		t.Fatalf("sparse record: %v\n got %+v\nwant %+v", err, got, &r)
	}
}

func TestCodecRefusesDamage(t *testing.T) {
	r := statetest.Rec(state.ActivityWaitingInput, statetest.PRPending)
	b := state.EncodeRecord(r)
	for n := range len(b) {
		if _, err := state.DecodeRecord(b[:n]); err == nil {
			t.Fatalf("a record cut to %d of %d bytes decoded without error", n, len(b))
		}
	}
	if _, err := state.DecodeRecord(append(b, 0)); err == nil {
		t.Fatal("trailing bytes decoded without error")
	}
	if _, err := state.DecodeRecord(append([]byte{state.CodecVersion + 1}, b[1:]...)); err == nil {
		t.Fatal("a newer encoding decoded without error")
	}
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add(state.EncodeRecord(statetest.Rec(state.ActivityActive, statetest.PRPending)))
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := state.DecodeRecord(b)
		if err != nil {
			return
		}
		if again, err := state.DecodeRecord(state.EncodeRecord(r)); err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("a decoded record does not round-trip: %v", err)
		}
	})
}

// TestMigrateJSONRecords opens a schema-1 store, whose records are JSON,
// and finds every record intact after the migration.
func TestMigrateJSONRecords(t *testing.T) {
	s := New(filepath.Join(t.TempDir(), "state"))
	if err := s.Update(func(*Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	want := map[string]*state.Record{}
	for i := range 5 {
		var r state.Record
		fill(t, reflect.ValueOf(&r).Elem(), rnd)
		r.ID = fmt.Sprintf("rec%05d", i)
		r.Env = nil // never JSON: a schema-1 record had none, and decodes with none
		want[r.ID] = &r
	}
	db, err := bolt.Open(s.Path(), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		for id, r := range want {
			v, _ := json.Marshal(r)
			if err := tx.Bucket(bucketSessions).Put([]byte(id), v); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchema, []byte("1"))
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	var got []*state.Record
	var schema int
	if err := s.View(func(tx *Tx) error { schema = tx.Schema(); got, err = tx.All(); return err }); err != nil {
		t.Fatal(err)
	}
	if schema != SchemaVersion {
		t.Errorf("schema after migration = %d, want %d", schema, SchemaVersion)
	}
	if len(got) != len(want) {
		t.Fatalf("%d records after migration, want %d", len(got), len(want))
	}
	for _, r := range got {
		if !reflect.DeepEqual(r, want[r.ID]) {
			t.Errorf("record %s differs after migration:\n got %+v\nwant %+v", r.ID, r, want[r.ID])
		}
	}
}

func BenchmarkDecodeRecords200(b *testing.B) {
	v := state.EncodeRecord(statetest.Rec(state.ActivityActive, statetest.PRPending))
	for b.Loop() {
		for range 200 {
			if _, err := state.DecodeRecord(v); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// A record written before codec version 2 to 14 decodes with the fields
// the later versions appended left zero.
func TestCodecReadsOlderVersions(t *testing.T) {
	r := statetest.Rec(state.ActivityIdle, statetest.PROpen)
	b := state.EncodeRecord(r)
	// Version 2 appends five fields, version 3 three, version 4 one,
	// version 5 six, version 6 one, version 7 six, version 8 one, version 9
	// one, version 10 one, version 11 two, version 12 six, version 13
	// three, version 14 one (killing_at; main wrote scheduled as 14 too
	// for an hour, so a 14 may have it: TestCodecReadsBothFourteens),
	// version 15 one, version 16 two, version 17 one, version 18
	// one, version 19 one, each one byte when
	// zero or empty, version 20 the usage and the profile, 27 bytes when zero.
	for v, cut := range map[byte]int{1: 70, 2: 65, 3: 62, 4: 61, 5: 55, 6: 54, 7: 48, 8: 47, 9: 46, 10: 45, 11: 43, 12: 37, 13: 34, 14: 33, 15: 32, 16: 30, 17: 29, 18: 28, 19: 27} {
		got, err := state.DecodeRecord(append([]byte{v}, b[1:len(b)-cut]...))
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Fatalf("version %d record:\n got %+v\nwant %+v", v, got, r)
		}
	}
}

// Main wrote the scheduled prompts as codec 14 for an hour after 14 had
// come with killing_at alone: a store made in between said "record
// truncated" to every command after the upgrade, and doctor blamed another
// lanes process. Both fourteens read.
func TestCodecReadsBothFourteens(t *testing.T) {
	r := statetest.Rec(state.ActivityIdle, statetest.PROpen)
	r.Activity.Scheduled = []string{"abc"}
	b := state.EncodeRecord(r)
	b = b[:len(b)-32] // before the queued prompts
	b[0] = 14
	got, err := state.DecodeRecord(b) // with scheduled
	if err != nil || !reflect.DeepEqual(got, r) {
		t.Fatalf("14 with scheduled: %v\n got %+v\nwant %+v", err, got, r)
	}
	r.Activity.Scheduled = nil
	b = state.EncodeRecord(r)
	got, err = state.DecodeRecord(append([]byte{14}, b[1:len(b)-33]...)) // killing_at alone
	if err != nil || !reflect.DeepEqual(got, r) {
		t.Fatalf("14 without scheduled: %v\n got %+v\nwant %+v", err, got, r)
	}
}

// A record stored before the dialog fact, blocked on a TUI agent's
// permission prompt, still refuses send after the upgrade: Enter would
// answer the prompt. A failed turn (blocked with outcome failure then) and
// a generic script's block do not.
func TestCodecOlderAskIsADialog(t *testing.T) {
	for _, c := range []struct {
		agent   state.Agent
		outcome state.Outcome
		dialog  bool
	}{{state.AgentClaude, state.OutcomeNone, true}, {state.AgentClaude, state.OutcomeFailure, false}, {state.AgentCustom, state.OutcomeNone, false}} {
		r := statetest.Rec(state.ActivityBlocked, statetest.PROpen)
		r.Agent, r.Activity.Outcome = c.agent, c.outcome
		b := state.EncodeRecord(r)
		got, err := state.DecodeRecord(append([]byte{2}, b[1:len(b)-65]...))
		if err != nil {
			t.Fatal(err)
		}
		if got.Activity.Dialog != c.dialog || (state.CanSend(got, false) == nil) == c.dialog {
			t.Errorf("%s blocked (outcome %q) from codec 2: dialog %v, send %v", c.agent, c.outcome, got.Activity.Dialog, state.CanSend(got, false))
		}
	}
}
