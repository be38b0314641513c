// Package fsafe writes files where another user may have planted links: it
// never follows a symlink at a name it writes, creates new files with
// O_CREATE|O_EXCL|O_NOFOLLOW under names nobody can predict, and replaces a
// file by renaming a finished one over it; a file in a directory others may
// write (a project's config) is replaced through one handle of the directory
// it checked (OpenTarget). It also says whether a path is private to a user.
// Every file lanes writes goes through it, but for the store (bbolt) and the
// spool (store.AppendLine, also O_NOFOLLOW).
package fsafe
