package cli

import (
	"runtime/debug"
	"testing"
)

// lanes version names the revision a plain `go build` stamps, and the
// board's same-build check compares the same name.
func TestVersionNamesTheBuild(t *testing.T) {
	stamped := func(kv ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{Main: debug.Module{Path: "lanes", Version: "(devel)"}}
		for i := 0; i < len(kv); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return info
	}
	for _, c := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{stamped("vcs.revision", "1ba7ee7", "vcs.modified", "false"), true, "lanes dev (build 1ba7ee7)"},
		{stamped("vcs.revision", "1ba7ee7", "vcs.modified", "true"), true, "lanes dev (build 1ba7ee7+modified)"},
		{&debug.BuildInfo{Main: debug.Module{Path: "lanes", Version: "v0.3.0"}}, true, "lanes dev (build v0.3.0)"},
		{stamped(), true, "lanes dev"},
		{nil, false, "lanes dev"},
	} {
		if got := versionLine("dev", buildOf(c.info, c.ok)); got != c.want {
			t.Errorf("%+v: %q, want %q", c.info, got, c.want)
		}
	}
}
