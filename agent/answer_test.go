package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"lanes/state"
)

// dialogScreens are the recorded real permission dialogs of each agent.
func dialogScreens(t *testing.T, a state.Agent) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{"testdata/real/%s/permission-*/dialog.screen", "testdata/real/harness/%s/*/dialog.screen"} {
		files, _ := filepath.Glob(filepath.Join("..", strings.ReplaceAll(pattern, "%s", string(a))))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), Words(a)[Yes]) || strings.Contains(f, "permission-") {
				out = append(out, f+"\x00"+string(b))
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no recorded dialog screen for %s", a)
	}
	return out
}

// Each answer's keys pick an option the recorded real dialog shows, by
// what the dialog itself advertises: a digit in front of the option, a
// letter in brackets after it, "(esc)" or "Esc to cancel" for Escape, and
// Enter for the option that comes first (the highlighted one) where the
// dialog says enter confirms. An agent release that renumbers, renames
// or drops an option fails here.
func TestDialogKeysOnScreens(t *testing.T) {
	for _, d := range drivers {
		ag, k := d.Agent, d.keys
		if len(Offers(ag)) == 0 {
			continue // it asks nothing (pi)
		}
		for _, file := range dialogScreens(t, ag) {
			name, screen, _ := strings.Cut(file, "\x00")
			if refused[strings.TrimPrefix(filepath.ToSlash(filepath.Dir(name)), "../testdata/real/")] != "" {
				continue
			}
			for _, ans := range Offers(ag) {
				if opt := k.Options[ans]; opt.numbered {
					// The key is the number the dialog draws before it.
					dlg, _ := readDialog(ag, screen)
					if key, ok := dlg.pick(opt); !ok || strings.Trim(key, "0123456789") != "" || key == "" {
						t.Errorf("%s %s on %s: no one option line %q numbered (got %q, %v in %q)", ag, ans, name, opt.text, key, ok, dlg.options)
					}
					continue
				}
				keys, _ := k.Keys(ans)
				if err := advertised(ag, screen, k.Words[ans], keys); err != nil {
					t.Errorf("%s %s on %s: %v", ag, ans, name, err)
				}
			}
		}
	}
}

// advertised says why keys would not pick the option labelled word on
// screen (nil when they would).
func advertised(ag state.Agent, screen, word string, keys []string) error {
	i := strings.Index(screen, word)
	if i < 0 {
		return errors.New("the screen shows no option " + `"` + word + `"`)
	}
	start := strings.LastIndexByte(screen[:i], '\n') + 1
	end := strings.IndexByte(screen[i:], '\n')
	if end < 0 {
		end = len(screen) - i
	}
	line := screen[start : i+end]
	if len(keys) > 1 {
		return selected(screen, line, word, keys)
	}
	key := keys[0]
	switch {
	case len(key) == 1 && unicode.IsDigit(rune(key[0])):
		if !strings.Contains(line, key+". ") {
			return errors.New("the option's line does not number it " + key + ": " + strings.TrimSpace(line))
		}
	case len(key) == 1:
		if !strings.Contains(line, "("+key+")") {
			return errors.New("the option's line does not advertise (" + key + "): " + strings.TrimSpace(line))
		}
	case key == "Escape":
		// OpenCode's dialog does not say so; its Escape is settled by the
		// harness alone (scripts/agents reject, answer_no).
		if !strings.Contains(line, "(esc)") && !strings.Contains(screen, "Esc to cancel") && ag != state.AgentOpenCode {
			return errors.New("neither the option nor the dialog advertises Esc: " + strings.TrimSpace(line))
		}
	case key == "Enter":
		if strings.TrimSpace(line[:i-start]) != "┃" && strings.TrimSpace(line[:i-start]) != "" {
			return errors.New("Enter picks the first option, and " + word + " is not first on its line")
		}
		if !strings.Contains(screen, "enter confirm") {
			return errors.New("the dialog does not say enter confirms")
		}
	default:
		return errors.New("key " + key + " is no key the dialog advertises")
	}
	return nil
}

// selected checks keys that move the highlight and confirm (Right…,
// Enter) where the dialog says "⇆ select" and "enter confirm": n Rights
// pick the option n places after the first on its line.
func selected(screen, line, word string, keys []string) error {
	if !strings.Contains(screen, "⇆ select") || !strings.Contains(screen, "enter confirm") {
		return errors.New("the dialog does not say ⇆ selects and enter confirms")
	}
	n := len(keys) - 1
	for _, k := range keys[:n] {
		if k != "Right" {
			return errors.New("only Right moves the highlight here, not " + k)
		}
	}
	if keys[n] != "Enter" {
		return errors.New("the keys do not end with Enter")
	}
	var options []string
	for _, f := range regexp.MustCompile(`\s{2,}`).Split(strings.Trim(line, " ┃"), -1) {
		options = append(options, f)
	}
	if n >= len(options) || options[n] != word {
		return fmt.Errorf("%d Rights pick %q of %q, not %q", n, pick(options, n), options, word)
	}
	return nil
}

func pick(options []string, n int) string {
	if n < len(options) {
		return options[n]
	}
	return ""
}

func TestKeysForRefusals(t *testing.T) {
	for _, c := range []struct {
		agent  state.Agent
		answer Answer
		want   error
	}{
		{state.AgentShell, Yes, ErrNoDialogKeys},
		{state.AgentCustom, No, ErrNoDialogKeys},
		{state.AgentOpenCode, Always, ErrNoAlways},
	} {
		if _, err := KeysFor(c.agent, c.answer); !errors.Is(err, c.want) {
			t.Errorf("KeysFor(%s, %s) = %v, want %v", c.agent, c.answer, err, c.want)
		}
	}
	if got, want := Offers(state.AgentClaude), []Answer{Yes, No, Always}; strings.Join(answerStrings(got), ",") != strings.Join(answerStrings(want), ",") {
		t.Errorf("Offers(claude) = %v, want %v", got, want)
	}
	if _, err := ParseAnswer("maybe"); err == nil {
		t.Error("ParseAnswer(maybe) took it")
	}
}

func answerStrings(as []Answer) []string {
	var out []string
	for _, a := range as {
		out = append(out, string(a))
	}
	return out
}
