package theme

import (
	"strconv"
	"time"
)

// Age is how long ago t was, as a board card or `lanes ls` shows it: "12s",
// "5m", "3h" (up to two days), then "2d". A zero t is "-"; a t in the future
// (clock skew between processes) reads "0s", never a negative age.
func Age(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := max(now.Sub(t), 0)
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d.Seconds())) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d.Minutes())) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d.Hours())) + "h"
	}
	return strconv.Itoa(int(d.Hours()/24)) + "d"
}
