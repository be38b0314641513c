// Package gh reads PR facts from GitHub through the gh CLI: one
// `gh pr list` per repository beside the cycles (Poller), never prompting,
// with gh missing or logged out telling the poller to stop (ErrOff). The
// store's cycle takes what it reads into the records (Poller.Apply).
package gh
