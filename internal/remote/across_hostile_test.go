package remote

import "testing"

// Words of lanes' own that read like a hint but name no session stay as
// they are (the hostile re-run found two): only `lanes VERB NAME` and
// (lanes VERB NAME) forms are hints.
func TestAcrossLeavesProse(t *testing.T) {
	for _, s := range []string{
		"api was started again meanwhile (by a restore or a restart), and that runs",
		"it is being killed (the kill lanes set out to end it)",
	} {
		if got := Across(s, "gpu"); got != s {
			t.Errorf("Across(%q) = %q", s, got)
		}
	}
}

// ssh's stderr keeps its last bytes, whatever came before: the failure is
// its last line, and a host that says much there is not cut off.
func TestTailKeepsTheEnd(t *testing.T) {
	tl := tail{max: 8}
	for _, s := range []string{"0123456789", "ab", "cdefgh"} {
		if n, err := tl.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	if got := tl.String(); got != "abcdefgh" {
		t.Errorf("tail = %q", got)
	}
}
