package modelserver

import (
	"net/http"
	"strconv"
	"time"
)

// Usage is the tokens one answer reported, in neutral terms: Input is the
// uncached input only (OpenAI and Gemini count the cached part inside
// their input; Anthropic counts it apart), CacheWrite is only Anthropic's.
// A harness sums the logged Usage per key to know what an agent was told.
type Usage struct {
	Input      int `json:"input"`
	CacheRead  int `json:"cache_read"`
	CacheWrite int `json:"cache_write"`
	Output     int `json:"output"`
}

// sideUsage is what side answers (titles, summaries, non-streamed calls)
// and unscripted ones report: small, fixed, and cacheless.
var sideUsage = Usage{Input: 10, Output: 5}

// turnUsage is what the answer to turn k (1-based) reports: distinct per
// turn, so a reader that sums, keeps the last, or counts a message twice
// gets a number that tells which it did. Only Anthropic writes caches.
func turnUsage(k int, cacheWrites bool) Usage {
	if k <= 0 {
		return sideUsage
	}
	u := Usage{Input: 1000*k + 7, CacheRead: 300 * k, Output: 40*k + 3}
	if cacheWrites {
		u.CacheWrite = 50 * k
	}
	return u
}

// prompt is the whole input, cached or not, as OpenAI and Gemini count it.
func (u Usage) prompt() int { return u.Input + u.CacheRead + u.CacheWrite }

// Limits are the rate-limit windows a Responses answer reports in its
// headers, which Codex shows and writes to its session log: how much of
// each window is used, how long it is, and when it resets (seconds from
// the answer).
type Limits struct {
	PrimaryUsed        float64 `json:"primary_used"`
	PrimaryWindowMin   int     `json:"primary_window_min"`
	PrimaryResetIn     int     `json:"primary_reset_in"`
	SecondaryUsed      float64 `json:"secondary_used"`
	SecondaryWindowMin int     `json:"secondary_window_min"`
	SecondaryResetIn   int     `json:"secondary_reset_in"`
}

// DefaultLimits is a five-hour window 42% used, resetting in an hour, and
// a weekly one 61% used, resetting in three days: under 75%, past which
// Codex 0.171.0 warns ("Heads up, you have less than 10% of your weekly
// limit left" at 93%) and opens an "Approaching rate limits" menu that
// offers another model, which every walk would meet.
var DefaultLimits = Limits{PrimaryUsed: 42, PrimaryWindowMin: 300, PrimaryResetIn: 3600,
	SecondaryUsed: 61, SecondaryWindowMin: 10080, SecondaryResetIn: 3 * 24 * 3600}

// windows is a dialect whose API reports rate-limit windows in headers.
type windows interface {
	limitHeaders(h http.Header, l Limits, now time.Time)
}

// limitHeaders are the names Codex 0.171.0 reads (found in its binary):
// x-codex-{primary,secondary}-{used-percent,window-minutes,reset-at}, the
// reset in epoch seconds.
func (o *responses) limitHeaders(h http.Header, l Limits, now time.Time) {
	for _, w := range []struct {
		name       string
		used       float64
		window, in int
	}{{"primary", l.PrimaryUsed, l.PrimaryWindowMin, l.PrimaryResetIn},
		{"secondary", l.SecondaryUsed, l.SecondaryWindowMin, l.SecondaryResetIn}} {
		p := "x-codex-" + w.name + "-"
		h.Set(p+"used-percent", strconv.FormatFloat(w.used, 'f', -1, 64))
		h.Set(p+"window-minutes", strconv.Itoa(w.window))
		h.Set(p+"reset-at", strconv.FormatInt(now.Add(time.Duration(w.in)*time.Second).Unix(), 10))
	}
}

// limitsFor is key's scenario's Limits, or DefaultLimits.
func (s *Server) limitsFor(key string) Limits {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss := s.sessions[key]; ss != nil && ss.sc != nil && ss.sc.Limits != nil {
		return *ss.sc.Limits
	}
	return DefaultLimits
}

// anthropicUsage is the Messages API's usage: input apart from the cache.
// output is what message_start says before any is written (the API sends
// 1 there; message_delta has the final count).
func anthropicUsage(u Usage, output int) map[string]int {
	return map[string]int{"input_tokens": u.Input, "cache_read_input_tokens": u.CacheRead,
		"cache_creation_input_tokens": u.CacheWrite, "output_tokens": output}
}

func responsesUsage(u Usage) map[string]any {
	return map[string]any{"input_tokens": u.prompt(), "input_tokens_details": map[string]int{"cached_tokens": u.CacheRead},
		"output_tokens": u.Output, "output_tokens_details": map[string]int{"reasoning_tokens": 0},
		"total_tokens": u.prompt() + u.Output}
}

func chatUsage(u Usage) map[string]any {
	return map[string]any{"prompt_tokens": u.prompt(), "completion_tokens": u.Output,
		"total_tokens": u.prompt() + u.Output, "prompt_tokens_details": map[string]int{"cached_tokens": u.CacheRead}}
}

func geminiUsage(u Usage) map[string]int {
	return map[string]int{"promptTokenCount": u.prompt(), "candidatesTokenCount": u.Output,
		"cachedContentTokenCount": u.CacheRead, "thoughtsTokenCount": 0, "totalTokenCount": u.prompt() + u.Output}
}
