package tui

import "charm.land/bubbles/v2/key"

// keyMap is every board key; it is the help.KeyMap of the board itself
// (dialogs show their own keys while they have focus).
type keyMap struct {
	Up, Down, Left, Right key.Binding
	// Next selects the next card that needs you (lanes next's order).
	Next               key.Binding
	Top, Bottom        key.Binding
	PageUp, PageDown   key.Binding
	Attach             key.Binding
	New, Kill, Restart key.Binding
	Send, Remove       key.Binding
	// ClearDone removes every terminated session of this host (Done),
	// asking once.
	ClearDone           key.Binding
	Preview, History    key.Binding
	Diff                key.Binding
	Idle, AllDone       key.Binding
	Filter, ClearFilter key.Binding
	Theme, Help, Quit   key.Binding
	// Allow, Deny, Always answer a permission dialog; they act only on a
	// card that shows one, and mean nothing else (n is new and a all done
	// on every card).
	Allow, Deny, Always key.Binding
	Mute                key.Binding
	OpenPR, CreatePR    key.Binding
	Restore             key.Binding
	// Host turns the host filter; in the help only with other hosts.
	Host key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Left:        key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "lane left")),
		Right:       key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "lane right")),
		Next:        key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "next needs you")),
		Top:         key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "lane's first")),
		Bottom:      key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "lane's last")),
		PageUp:      key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Attach:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "attach")),
		New:         key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new")),
		Kill:        key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "kill")),
		Restart:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart")),
		Send:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "send")),
		Remove:      key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "remove")),
		ClearDone:   key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "clear all of Done")),
		Preview:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "preview")),
		History:     key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "history")),
		Diff:        key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "diff")),
		Idle:        key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "idle stack")),
		AllDone:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "all done")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Theme:       key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "theme")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:        key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Allow:       key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "allow")),
		Deny:        key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "deny")),
		Always:      key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "always")),
		Mute:        key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mute")),
		OpenPR:      key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open PR")),
		CreatePR:    key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "push, create PR")),
		Restore:     key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "restore (tmux gone)")),
		Host:        key.NewBinding(key.WithKeys("@"), key.WithHelp("@", "host filter")),
	}
}

// ShortHelp is the bottom line.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Attach, k.New, k.Send, k.Kill, k.Preview, k.Filter, k.Help, k.Quit}
}

// footer is which key line the board shows, after the selected card: the
// keys that act on it (a card in a permission dialog has its own, see
// answerHelp).
type footer int

const (
	footLive       footer = iota // a live session, or no card selected
	footExited                   // live, but its agent exited
	footEnded                    // terminated
	footRestorable               // terminated, and R brings it back
	footMerged                   // its PR merged: d cleans it up
	footers
)

// footerKeys is the key line of f; footLive's is ShortHelp.
func (k keyMap) footerKeys(f footer) []key.Binding {
	remove, restore := helpBinding("d", "remove"), helpBinding("R", "restore")
	switch f {
	case footExited:
		return []key.Binding{k.Restart, remove, k.Attach, k.New, k.Preview, k.Filter, k.Help, k.Quit}
	case footEnded:
		return []key.Binding{remove, k.History, k.New, k.Filter, k.Help, k.Quit}
	case footRestorable:
		return []key.Binding{restore, remove, k.History, k.New, k.Filter, k.Help, k.Quit}
	case footMerged:
		return []key.Binding{helpBinding("d", "clean up"), k.OpenPR, k.History, k.New, k.Filter, k.Help, k.Quit}
	}
	return k.ShortHelp()
}

// FullHelp is the `?` overlay, one column per kind of key.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		// y, N, A: on a card in a permission dialog (its key line shows them).
		// The moves two to a line: the column fits 80×24 with them all.
		{helpBinding("↑↓/jk", "up, down"), helpBinding("←→/hl", "lane left, right"),
			helpBinding("g/G", "lane's first, last"), helpBinding("pgup", "page up; pgdn down"), k.Next, k.Attach,
			helpBinding("y", "allow (dialog card)"), helpBinding("N", "deny (dialog card)"), helpBinding("A", "always (dialog card)")},
		{k.New, k.Send, k.Restart, k.Restore, k.Kill, k.Remove, k.ClearDone, k.Mute, k.OpenPR, k.CreatePR},
		// Three columns: a fourth does not fit 80 columns.
		{k.Preview, k.History, k.Diff, k.Idle, k.AllDone, k.Filter, k.ClearFilter, k.Theme, k.Help, k.Quit},
	}
}

// dialogKeys is the help of an open dialog.
type dialogKeys struct{ bindings []key.Binding }

func (d dialogKeys) ShortHelp() []key.Binding  { return d.bindings }
func (d dialogKeys) FullHelp() [][]key.Binding { return [][]key.Binding{d.bindings} }

func helpBinding(keys, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys), key.WithHelp(keys, desc))
}
