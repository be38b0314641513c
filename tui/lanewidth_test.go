package tui

import (
	"slices"
	"testing"
)

// Beside lanes with cards an empty lane keeps only its header's width, so
// the cards have room to say what their agents do; all lanes alike when
// all are empty or all have cards, or when even shares are narrow anyway.
func TestLaneWidthsGiveRoomToCards(t *testing.T) {
	for _, c := range []struct {
		w     int
		empty []bool
		want  []int
	}{
		{116, []bool{false, false, true, true, false}, []int{25, 25, emptyLaneW, emptyLaneW, 24}},
		{116, []bool{false, false, false, false, false}, []int{23, 23, 22, 22, 22}},
		{116, []bool{true, true, true, true, true}, []int{23, 23, 22, 22, 22}},
		{90, []bool{false, true, true, false, true}, []int{18, 17, 17, 17, 17}}, // shares ≤ emptyLaneW: alike
	} {
		got := laneWidths(c.w, c.empty)
		sum := 0
		for _, x := range got {
			sum += x
		}
		if !slices.Equal(got, c.want) || sum+laneGap*(len(got)-1) != c.w {
			t.Errorf("laneWidths(%d, %v) = %v (sum %d), want %v", c.w, c.empty, got, sum, c.want)
		}
	}
}
