package tui

import (
	"strings"
	"testing"

	"lanes/internal/remote"
)

// Another host's report: its lines are joined with a space (a hint's name
// is not glued to the next word), and a flood of it is read only as far
// as the line it makes.
func TestHostReportSaid(t *testing.T) {
	a := hostActions{host: remote.Host{Name: "gpu"}}
	if got, _ := a.said([]byte("killed cc; `lanes attach cc\nto see`"), nil); got != "killed cc; `lanes attach cc@gpu to see`" {
		t.Errorf("said %q", got)
	}
	flood := []byte(strings.Repeat("`lanes rm a` ", 3<<20))
	got, _ := a.said(flood, nil)
	if !strings.HasPrefix(got, "`lanes rm a@gpu` `lanes rm a@gpu`") || !strings.HasSuffix(got, "…") {
		t.Errorf("said of a flood: %q", got)
	}
}
