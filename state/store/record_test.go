package store

import (
	"reflect"
	"testing"

	"lanes/state"
	"lanes/state/statetest"
)

// TestCloneSharesNothing walks every field of a fully populated record and
// fails when a slice, map or pointer of the clone points into the
// original — including fields added after Clone was written.
func TestCloneSharesNothing(t *testing.T) {
	r := statetest.Rec(state.ActivityActive, statetest.PRPending)
	r.Command = []string{"claude"}
	r.Env = []string{"A=1"}
	r.EventsDropped = map[string]int{"x": 1}
	r.Activity.ToolsInFlight = []string{"t"}
	r.Activity.Subagents = []string{"a"}
	r.Activity.Background = []string{"shell:b"}
	r.Activity.Scheduled = []string{"0a1b"}
	r.Usage.Limits = []state.Limit{{Name: "primary", UsedPct: 42}}
	r.Usage.Days = []state.DayUsage{{Day: "2026-12-04", Tokens: state.Tokens{In: 1}}}
	r.Usage.Past = []state.UsageSource{{Path: "/a.jsonl", Offset: 9}}
	r.Pane.ExitStatus = intp(3)
	c := r.Clone()
	if !reflect.DeepEqual(r, c) {
		t.Fatal("the clone differs from the original")
	}
	var walk func(path string, a, b reflect.Value)
	walk = func(path string, a, b reflect.Value) {
		switch a.Kind() {
		case reflect.Struct:
			for i := range a.NumField() {
				walk(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i))
			}
		case reflect.Slice, reflect.Map, reflect.Pointer:
			if !a.IsNil() && a.UnsafePointer() == b.UnsafePointer() {
				t.Errorf("%s is shared between a record and its clone", path)
			}
			if a.Kind() == reflect.Slice {
				for i := range a.Len() {
					walk(path+"[]", a.Index(i), b.Index(i))
				}
			}
		}
	}
	walk("Record", reflect.ValueOf(*r), reflect.ValueOf(*c))
	// Every reference field must be populated above, or the walk proves nothing.
	var check func(path string, v reflect.Value)
	check = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			if v.Type().PkgPath() == "time" {
				return
			}
			for i := range v.NumField() {
				check(path+"."+v.Type().Field(i).Name, v.Field(i))
			}
		case reflect.Slice, reflect.Map, reflect.Pointer:
			if v.IsNil() {
				t.Errorf("%s is nil in the fixture: populate it so Clone is checked", path)
			}
		}
	}
	check("Record", reflect.ValueOf(*r))
}
