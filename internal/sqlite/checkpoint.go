package sqlite

import (
	"context"
	"time"
)

// closingCheckpoint leaves the WAL empty when nobody else is using it, as
// a process stops: what the last tick did not copy back, and a TRUNCATE
// that, like the ticker's, waits for nobody. (When this process is the
// last on the file, SQLite removes the WAL as the connection closes.)
func (s *Store) closingCheckpoint() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if w, err := s.walCheckpoint(ctx, "PASSIVE"); err == nil {
		s.truncateWhenCopied(ctx, w)
	}
}

// restartFrames is the WAL length (in pages) beyond which the background
// checkpoint tries a RESTART. SQLite's automatic checkpoint (every 1000
// pages, PASSIVE, run by the committing connection) copies pages back but can
// only rewind the WAL when no reader is using it; with writes and seat-map
// reads arriving back to back that moment never comes and the WAL grows
// without bound. With the RESTART it stays far below walSizeLimit
// (TestWALStaysBounded; its figures are in docs/PERFORMANCE.md).
const restartFrames = 2000

// checkpoint is the ticker's: it keeps the WAL small without ever making
// anybody wait. It runs a PASSIVE checkpoint, which copies what it can
// and takes no lock that a reader or writer waits for. Then, if this
// process has written nothing since the last tick and the PASSIVE one
// found every frame copied back, it tries to empty the file with a
// TRUNCATE; and under load, if the WAL has grown past restartFrames, it
// tries a RESTART so that the next commit starts the WAL from its
// beginning. Both are tried without waiting (walCheckpoint): each needs
// the write lock and then every reader, in every process, to be done with
// the WAL, and a checkpoint that waited for them would hold that lock
// meanwhile: an idle process's TRUNCATE behind a long read of another
// process would hold every write of every process for its tick's second.
// A try that finds a reader gives up at once and the next tick tries
// again; SQLite's own autocheckpoint goes on copying meanwhile.
// TestIdleProcessDoesNotStallHolds checks what this buys: no hold waits
// behind another process's idle checkpoint (figures in docs/PERFORMANCE.md).
func (s *Store) checkpoint(ctx context.Context) {
	idle := time.Since(time.Unix(0, s.lastWrite.Load())) > s.opt.checkpointEvery
	// Errors are not fatal here: the next tick, or SQLite's own
	// autocheckpoint, tries again.
	w, err := s.walCheckpoint(ctx, "PASSIVE")
	switch {
	case err != nil:
	case idle:
		s.truncateWhenCopied(ctx, w)
	case w.frames > restartFrames:
		_, _ = s.walCheckpoint(ctx, "RESTART")
	}
}

// truncateWhenCopied tries to empty the WAL when w, a PASSIVE checkpoint's
// report, says that every frame is copied back: a reader of an older
// snapshot would make the TRUNCATE give up anyway.
func (s *Store) truncateWhenCopied(ctx context.Context, w walState) {
	if w.frames > 0 && w.copied == w.frames {
		_, _ = s.walCheckpoint(ctx, "TRUNCATE")
	}
}

// walState is what PRAGMA wal_checkpoint reports: whether a RESTART or
// TRUNCATE was kept from finishing by a reader or writer (busy), the WAL's
// length in frames and how many of them are copied back into the
// database.
type walState struct {
	busy           bool
	frames, copied int
}

// walCheckpoint runs PRAGMA wal_checkpoint(mode) on the write connection.
// That connection has no busy handler, so a mode that waits for others
// (RESTART, TRUNCATE) waits for nobody: SQLite gives up as soon as the write
// lock is taken or a reader is still on the WAL, reports busy, and the
// checkpoint has done what a PASSIVE one would have.
func (s *Store) walCheckpoint(ctx context.Context, mode string) (walState, error) {
	var w walState
	err := s.write.QueryRowContext(ctx, "PRAGMA wal_checkpoint("+mode+")").Scan(&w.busy, &w.frames, &w.copied)
	return w, err
}
