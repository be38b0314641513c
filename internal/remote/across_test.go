package remote

import "testing"

func TestAcrossNamesTheHost(t *testing.T) {
	for _, c := range []struct{ said, want string }{
		{"api is live; `lanes kill api` first", "api is live; `lanes kill api@gpu` first"},
		{"killed api (a1b2); its record is kept — `lanes rm a1b2` removes it",
			"killed api (a1b2); its record is kept — `lanes rm a1b2@gpu` removes it"},
		{"nothing was sent — `lanes answer api yes|no`, `lanes attach api`, or send --force",
			"nothing was sent — `lanes answer api@gpu yes|no`, `lanes attach api@gpu`, or send --force"},
		{"`lanes kill api --yes` marks it terminated anyway", "`lanes kill api@gpu --yes` marks it terminated anyway"},
		{"its dialog still showed 1s later: look at the pane (lanes attach db)", "its dialog still showed 1s later: look at the pane (lanes attach db@gpu)"},
		{"muted db (lanes mute db --off)", "muted db (lanes mute db@gpu --off)"},
		// Not one session's: left as said.
		{"`lanes restore --all` starts them", "`lanes restore --all` starts them"},
		{"`lanes new api -- CMD`", "`lanes new api -- CMD`"},
		{"`lanes ls --all-hosts`", "`lanes ls --all-hosts`"},
		{"`lanes kill api@gpu`", "`lanes kill api@gpu`"},
		{"lanes kill api", "lanes kill api"},
		{"`lanes kill apiser…", "`lanes kill apiser…"}, // a name cut short: which session is not known
	} {
		if got := Across(c.said, "gpu"); got != c.want {
			t.Errorf("Across(%q)\n got %q\nwant %q", c.said, got, c.want)
		}
	}
}
