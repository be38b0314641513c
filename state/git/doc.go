// Package git reads what lanes shows of a session's checkout: its branch
// from the HEAD file (no process), ahead, behind and changed files from
// one `git status` per checkout beside the cycles (Poller), and whether a
// checkout or its configuration may be another user's (ForeignCheckout).
// Every git it runs gets an environment and arguments that keep another
// user's files from choosing what it runs (Env, SafeArgs, Command).
//
// The store's cycle takes what it reads into the records (Read.Apply).
package git
