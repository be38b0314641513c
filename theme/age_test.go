package theme

import (
	"testing"
	"time"
)

func TestAge(t *testing.T) {
	now := time.Date(2026, 11, 29, 17, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		ago  time.Duration
		zero bool
		want string
	}{
		{zero: true, want: "-"},
		{ago: -5 * time.Second, want: "0s"},
		{ago: 0, want: "0s"},
		{ago: 12 * time.Second, want: "12s"},
		{ago: 59*time.Second + 900*time.Millisecond, want: "59s"},
		{ago: time.Minute, want: "1m"},
		{ago: 5*time.Minute + 30*time.Second, want: "5m"},
		{ago: time.Hour, want: "1h"},
		{ago: 47 * time.Hour, want: "47h"},
		{ago: 48 * time.Hour, want: "2d"},
		{ago: 10 * 24 * time.Hour, want: "10d"},
	} {
		at := now.Add(-tc.ago)
		if tc.zero {
			at = time.Time{}
		}
		if got := Age(now, at); got != tc.want {
			t.Errorf("Age(now, now-%s) = %q, want %q", tc.ago, got, tc.want)
		}
	}
}
