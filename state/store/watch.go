package store

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/fsnotify/fsnotify"
)

// SpoolDebounce is how long WatchSpool gathers writes before it signals, so
// a burst of hook lines costs one cycle. Short, because it adds to every
// hook line's way to the screen.
const SpoolDebounce = 5 * time.Millisecond

// WatchSpool signals on the returned channel (capacity 1, never blocking the
// watcher) shortly after any spool file changes, so a board can run a cycle
// at once instead of waiting for its next tick. It stops when ctx ends.
func WatchSpool(ctx context.Context, stateDir string) (<-chan struct{}, error) {
	dir := SpoolDir(stateDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating spool dir: %w", err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching the spool: %w", err)
	}
	if err := w.Add(dir); err != nil {
		w.Close()
		return nil, fmt.Errorf("watching %s: %w", dir, err)
	}
	out := make(chan struct{}, 1)
	go func() {
		defer w.Close()
		var fire <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case _, ok := <-w.Events:
				if !ok {
					return
				}
				if fire == nil {
					fire = time.After(SpoolDebounce)
				}
			case <-w.Errors:
			case <-fire:
				fire = nil
				select {
				case out <- struct{}{}:
				default:
				}
			}
		}
	}()
	return out, nil
}
