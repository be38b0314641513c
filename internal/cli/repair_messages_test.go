package cli

import (
	"strings"
	"testing"
)

// TestDamageMessagesSayThingsOnce: doctor names the repair once (as its
// fix), and a repair that replayed no spool file does not warn about
// events counted twice.
func TestDamageMessagesSayThingsOnce(t *testing.T) {
	e, path := damagedEnv(t, 30)
	damageLeafHolding(t, path, "sess0015")
	out, _, _ := e.run("doctor")
	if n := strings.Count(out, "lanes doctor --repair"); n != 1 {
		t.Errorf("doctor names the repair %d times:\n%s", n, out)
	}
	out, _, _ = e.run("doctor", "--repair")
	if !strings.Contains(out, "0 replayed") || strings.Contains(out, "twice") {
		t.Errorf("a repair that replayed nothing:\n%s", out)
	}
}
