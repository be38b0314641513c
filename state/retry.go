package state

import (
	"strings"
	"time"
	"unicode"
)

// Retries (issue 32, item 3): on a 429, a 529 or a dropped connection an
// agent retries by itself, for minutes, with no hook at all; the card said
// Working and nothing more. Claude Code 2.1.332 draws it on its spinner
// line: "✻ 429 …rate_limit_error · retrying in 19s · attempt 6/6"
// (testdata/real/harness/claude/retry). The witness looks at a working
// pane no hook has spoken for in a while, every WitnessRetryEvery, and
// keeps what the screen says as the fact Retry; any event clears it.

const (
	// WitnessRetryQuiet: a working agent this long without a hook event
	// may be retrying (a streamed answer may be silent as long: a look
	// costs one capture).
	WitnessRetryQuiet = 10 * time.Second
	// WitnessRetryEvery: such a pane is looked at this often.
	WitnessRetryEvery = 15 * time.Second
)

// retryLook is when an active session's pane is next looked at for a
// retry: WitnessRetryQuiet after its last event, then every
// WitnessRetryEvery.
func retryLook(a *ActivityFacts) time.Time {
	next := a.LastEventAt.Add(WitnessRetryQuiet)
	if again := a.WitnessAt.Add(WitnessRetryEvery); again.After(next) {
		next = again
	}
	return next
}

// seeRetry keeps what screen s says of a retry as a.Retry ("" when it
// shows none), and reports whether it shows one.
func seeRetry(a *ActivityFacts, m Markers, s Screen) bool {
	a.Retry = ""
	at := s.last(m.Retrying)
	if at < 0 {
		return false
	}
	a.Retry = retrySays(lineAt(s, at))
	return true
}

// whyFailed is what an agent's line about a failed request says of why,
// in a few words ("rate limited"), "" when it says nothing lanes knows.
func whyFailed(line string) string {
	switch l := strings.ToLower(line); {
	case strings.Contains(l, "usage limit") || strings.Contains(l, "hit your limit") || strings.Contains(l, "quota"):
		if at := resetTime(line); at != "" {
			return "usage limit, resets " + at
		}
		return "usage limit"
	case strings.Contains(l, "rate_limit") || strings.Contains(l, "rate limit") || strings.Contains(l, "429") || strings.Contains(l, "too many requests"):
		return "rate limited"
	case strings.Contains(l, "overloaded") || strings.Contains(l, "529") || strings.Contains(l, "at capacity") || strings.Contains(l, "high demand"):
		return "server overloaded"
	case strings.Contains(l, "api error"):
		return "API error"
	}
	return ""
}

// resetTime is when a usage-limit line says the limit resets: Codex's
// "try again at 10:04 PM.", Claude Code's "· resets 7pm (Europe/Paris)";
// "" when it says no time, or says it in more than a time's characters
// (a pane's text: letters, digits, spaces and ":.,/()+-_").
func resetTime(line string) string {
	for _, lead := range []string{"try again at ", "Try again at ", "resets at ", "resets "} {
		if i := strings.LastIndex(line, lead); i >= 0 {
			at, _, _ := strings.Cut(line[i+len(lead):], " ·")
			at = Summary(strings.TrimSuffix(strings.TrimSpace(at), "."), 40)
			if strings.IndexFunc(at, func(c rune) bool {
				return !unicode.IsLetter(c) && !unicode.IsDigit(c) && !strings.ContainsRune(" :.,/()+-_", c)
			}) >= 0 {
				return ""
			}
			return at
		}
	}
	return ""
}

// lineAt is the line of s holding byte at.
func lineAt(s Screen, at int) string {
	line := string(s[strings.LastIndex(string(s[:at]), "\n")+1:])
	line, _, _ = strings.Cut(line, "\n")
	return line
}

// retrySays is a retry line in a few words: "rate limited, attempt 6/6".
// The line is a pane's text: only the attempt's digits are taken from it.
func retrySays(line string) string {
	why := whyFailed(line)
	attempt := ""
	if _, rest, ok := strings.Cut(line, "attempt "); ok {
		attempt, _, _ = strings.Cut(strings.TrimSpace(rest), " ")
		attempt = strings.TrimRight(attempt, ")") // Qwen Code's "(attempt 1/10))"
		if !isAttempt(attempt) {
			attempt = ""
		}
	}
	switch {
	case why != "" && attempt != "":
		return why + ", attempt " + attempt
	case attempt != "":
		return "attempt " + attempt
	}
	return why
}

// isAttempt reports whether s is an attempt count: "6" or "6/10".
func isAttempt(s string) bool {
	n, of, _ := strings.Cut(s, "/")
	return len(s) <= 9 && n != "" && strings.Trim(n, "0123456789") == "" && strings.Trim(of, "0123456789") == "" &&
		!strings.HasSuffix(s, "/")
}

// httpFailure is a failed request's HTTP status in a few words, as a card
// says why a turn failed ("request refused (400)": a pi trial's card said
// only Failed); "" for none, or a status that is not one.
func httpFailure(status string) string {
	switch {
	case status == "429":
		return "rate limited"
	case status == "529" || status == "503":
		return "server overloaded"
	case len(status) != 3 || strings.Trim(status, "0123456789") != "":
		return ""
	case status[0] == '5':
		return "server error"
	case status == "401" || status == "403":
		return "not authorized (" + status + ")"
	case status[0] == '4':
		return "request refused (" + status + ")"
	}
	return ""
}
