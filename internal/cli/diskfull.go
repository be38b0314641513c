package cli

import (
	"errors"
	"fmt"
	"syscall"

	"lanes/state"
	"lanes/state/store"
)

// minFreeBytes: below this much free space on the state dir's filesystem
// doctor calls the disk full — hooks' lines and the store's next pages no
// longer fit.
const minFreeBytes = 1 << 20

// doctorDisk reports a full filesystem under the state dir: hooks then cut
// or lose lines (docs/design.md §6) and no cycle can commit.
func doctorDisk(dir string, add addFunc) {
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil {
		add(false, "", "free space under %s: %v", dir, err)
		return
	}
	free := uint64(fs.Bavail) * uint64(fs.Bsize)
	if free < minFreeBytes {
		add(false, "free space on that filesystem; hook events meanwhile may have been lost (see "+hookErrorsLog(dir)+")",
			"disk full: %s free under %s — hooks cannot record events and the store cannot be written", bytesText(free), dir)
		return
	}
	add(true, "", "disk: %s free under %s", bytesText(free), dir)
}

func bytesText(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n/1024)
}

// readOnlyRecords is what `lanes ls` shows when its cycle could not write the
// store because the disk is full: the records as stored, with a warning. Any
// other error is returned as it is.
func (a *app) readOnlyRecords(cycleErr error) ([]*state.Record, error) {
	if !errors.Is(cycleErr, syscall.ENOSPC) {
		return nil, cycleErr
	}
	dir, err := a.stateDir()
	if err != nil {
		return nil, cycleErr
	}
	var recs []*state.Record
	if err := store.New(dir).View(func(tx *store.Tx) error {
		var err error
		recs, err = tx.All()
		return err
	}); err != nil {
		return nil, fmt.Errorf("%w; reading the store as it is: %w", cycleErr, err)
	}
	a.warn("the store cannot be written (%v): showing it as last stored, without new events or pane reads; free space under %s", cycleErr, dir)
	return recs, nil
}
