package state

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
)

// Claude Code submits a scheduled prompt by itself — a CronCreate job's,
// a ScheduleWakeup's or a /loop's — as a UserPromptSubmit no different
// from a human's (2.1.332 sends no `source` with it: harness cron_turn,
// recorded). Its Stop lists the session's scheduled prompts
// (`session_crons`, each clipped at 1000 characters): the record keeps a
// digest of each one's start, and a submitted prompt whose start has one
// of them is an automatic turn. Neither prompt is kept.

// ScheduledMax bounds the scheduled prompts a record keeps.
const ScheduledMax = 16

// promptHead is how many runes of a prompt its digest covers: fewer than a
// clipped scheduled prompt keeps, as a whole pasted file costs the hook
// no more than this.
const promptHead = 200

// PromptSum is the digest of the start of a prompt (a JSON string), ""
// for none. Only its first few kilobytes are decoded.
func PromptSum(raw json.RawMessage) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	var s string
	head := raw[:min(len(raw), 4096)]
	for k := 0; k < 16 && len(head) > 1; k++ {
		if err := json.Unmarshal(append(slices.Clip(head), '"'), &s); err == nil {
			break
		}
		if len(head) == len(raw) && json.Unmarshal(raw, &s) == nil {
			break
		}
		head = head[:len(head)-1] // cut inside an escape: back off
	}
	if s == "" {
		return ""
	}
	return promptSum(s)
}

// ScheduledList is the digests of the prompts a session_crons list holds
// (nil: the payload did not say).
func ScheduledList(raw json.RawMessage) *[]string {
	var crons []struct{ Prompt string }
	if len(raw) == 0 || json.Unmarshal(raw, &crons) != nil {
		return nil
	}
	out := []string{}
	for _, c := range crons {
		if sum := promptSum(c.Prompt); c.Prompt != "" && len(out) < ScheduledMax && !slices.Contains(out, sum) {
			out = append(out, sum)
		}
	}
	return &out
}

func promptSum(s string) string {
	r := []rune(s)
	h := sha256.Sum256([]byte(string(r[:min(len(r), promptHead)])))
	return hex.EncodeToString(h[:12])
}

// scheduledPrompt reports whether a prompt whose start has digest sum is
// one the agent said it would submit by itself.
func (a *ActivityFacts) scheduledPrompt(sum string) bool {
	return sum != "" && slices.Contains(a.Scheduled, sum)
}
