package remote

import (
	"context"
	"time"

	"lanes/internal/listing"
)

// Status is what this host knows of another at a moment.
type Status struct {
	Host string
	// Sessions are the host's sessions as last received; they stay while
	// the host is down (its sessions are not over because the link is).
	Sessions []listing.Session
	// Up: a stream is open and its last line came in time.
	Up bool
	// Since is when Up last changed, by this host's clock.
	Since time.Time
	// Err is why the host is down: what ssh or lanes said, or that the
	// stream fell silent.
	Err string
	// Heard: a snapshot came from this host at least once.
	Heard bool
}

// Watch mirrors hosts: one `ssh DEST lanes ls --json --watch` each,
// restarted with backoff when it ends or falls silent, and sends each
// host's Status whenever its sessions or reachability change. The
// channel closes after ctx ends and every ssh it ran has exited.
func (s SSH) Watch(ctx context.Context, hosts []Host) <-chan Status {
	panic("not yet")
}
