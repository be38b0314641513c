package svgshot

import (
	"strings"
	"testing"
)

func TestRuns(t *testing.T) {
	got := runs("ab\x1b[1;38;2;255;0;16mCD\x1b[0m \x1b[48;5;196m│e\x1b[7m f\x1b]8;;x\x07")
	want := []run{
		{0, "ab", style{}},
		{2, "CD", style{fg: "#ff0010", bold: true}},
		{4, " ", style{}},
		{5, "│e", style{bg: "#ff0000"}},
		{7, " f", style{bg: "#ff0000", reverse: true}},
	}
	if len(got) != len(want) {
		t.Fatalf("runs = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("run %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestRenderEscapes(t *testing.T) {
	svg := string(Render("<b>&\x1b[31m\"x\"\n", 10, 2, "#fff", "#000", "a < b"))
	for _, want := range []string{">&lt;</tspan>", ">&amp;</tspan>", `fill="#cd0000"`, "a &lt; b"} {
		if !strings.Contains(svg, want) {
			t.Errorf("svg lacks %q:\n%s", want, svg)
		}
	}
}
