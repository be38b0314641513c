// Command drill runs lanes' fault drills: each throws one thing a real
// machine throws at lanes and prints PASS or FAIL with its evidence.
// Run it through scripts/drill.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"lanes/scripts/internal/world"
)

var (
	quick = flag.Bool("quick", false, "small counts, for CI")
	only  = flag.String("run", "", "run only the drills whose name contains this text")
)

type drill struct {
	name string
	run  func(w *world.World) (evidence string, err error)
}

func main() {
	flag.Parse()
	drills := []drill{
		{"1 collector SIGKILLed during heavy ingest", drillCrash},
		{"2 tmux server crashes under a running board", drillServerKilled},
		{"3 store lock held by another process", drillLockHeld},
		{"4 spool unwritable", drillSpoolUnwritable},
		{"5 hostile spool input", drillHostile},
		{"6 clock jumps backwards", drillClockBack},
		{"16.1 hooks install --project with planted symlinks", drillPlantedLinks},
		{"16.1b hooks install --project raced by a directory swapper", drillInstallRace},
		{"16.1c lanes.db and snapshot links not followed", drillStoreLinks},
		{"16.2 state dir owned by another user", drillForeignStateDir},
		{"16.3 prompts never in argv", drillPromptsNotInArgv},
		{"16.4 lanes new killed at random points", drillNewKilled},
		{"16.4b restart killed mid-way", drillRestartKilled},
		{"16.4c an interrupted lanes new reads as starting", drillStarting},
		{"16.5 spool line over 8 MiB", drillLongLine},
		{"16.5b spool lines framed alike at any read timing", drillSpoolTiming},
		{"16.6 damaged store", drillDamagedStore},
		{"16.6b snapshot after a write that was not a cycle", drillSnapshotAfterForeignWrite},
		{"16.6c first use from many processes at once", drillFirstUseRace},
		{"16.6d repair of records a newer lanes wrote", drillNewerRecords},
		{"16.7 full disk", drillFullDisk},
		{"16.8 kill/rm while tmux is down", drillKillWhileDown},
		{"16.8b doctor's tmux advice", drillDoctorTmux},
		{"16.8c commands while tmux is down", drillTmuxDown},
		{"16.8d board while tmux hangs: lasting note, kill confirm says so", drillBoardWhileHung},
		{"16.8e a start in flight while tmux hangs shows unreachable", drillStartingWhileHung},
		{"16.8f busy wait rounded, kill --yes with tmux gone", drillHungMessages},
		{"16.9 clock steps back an hour", drillClockStepBack},
		{"16.10 no false Working at launch", drillNoFalseWorking},
		{"16.11 status line under load", drillStatusUnderLoad},
		{"16.11b status-line with a hung tmux server", drillHungTmux},
		{"16.12 send argument edge cases", drillSendArgs},
		{"16.12b hook/pr/history edge cases", drillHookEdges},
		{"16.12c send/hook edges: C1, CRLF, a terminal, no state dir", drillSendAndHookEdges},
		{"16.12d a NAME never means two sessions", drillNames},
		{"16.12e usage words and exit codes", drillUsageWords},
		{"11.W1 approve → working", drillWitnessApprove},
		{"11.W2 Esc → idle, send allowed", drillWitnessReject},
		{"11.W3 interrupt → idle + interrupted", drillWitnessInterrupt},
		{"11.R1 StopFailure leaves the card idle + failed and send free", drillStopFailure},
		{"11.R2 /exit (SessionEnd, then exit 0 after 10 s) closes the session", drillExitAfterSessionEnd},
		{"11.R3 send to Claude: a final backslash still submits; view mode left", drillClaudeBackslash},
		{"11.G3 codex Interrupt hook → idle + interrupted", drillCodexInterruptHook},
		{"14.A1 answer from the board", drillAnswer},
		{"14.N1 notified on entering needs you", drillNotify},
		{"33.H1 a host dies mid-answer: refused at once, nothing fires once it is back", drillHostDiesMidAnswer},
		{"12.W1 new --worktree", drillWorktree},
		{"12.G1 ahead, behind, changed beside the board", drillGitFacts},
		{"13.G1 PRs from GitHub beside the board, 50 sessions over 5 repositories", drillPRSync},
		{"13.P1 open and create a PR", drillPRKeys},
		{"15.O1 orphans and names", drillOrphans},
		{"15.R1 restore after a reboot", drillRestore},
		{"17.T1 Codex config.toml read by a TOML decoder", drillCodexConfig},
		{"17.D1 hooks install --dry-run shows hunks", drillDryRunDiff},
		{"17.J1 hooks install keeps a JSONC settings file byte for byte", drillJSONCSettings},
		{"17.A1 one argument parser: the hook's --session=NAME, a mistyped hook flag logged", drillOneParser},
		{"17.Q1 a question before the start holds Needs you over pane output", drillStartQuestionHolds},
		{"17.U1 hooks uninstall gives the file back; doctor names a gone hook binary", drillHooksUninstall},
		{"30.A1 an answer goes only to the dialog shown, each agent's real screens", drillAnswerRace},
		{"30.G1 planted .git files (a FIFO, /dev/zero) hold no command and no board", drillPlantedGit},
		{"30.E1 a branch full of terminal control reaches no terminal raw", drillEscapes},
		{"30.W1 a worktree root or worktree another user could change gets no worktree and no agent", drillForeignWorktree},
		{"30.N1 an interrupted lanes new --worktree leaves nothing, or what doctor lists", drillWorktreeInterrupted},
		{"30.K1 a kill stays a kill: the board open, lanes kill stopped mid-way", drillKillKept},
		{"38.C1 a board starting while sessions open and close never crashes tmux", drillNoServerCrash},
	}
	drills = slices.DeleteFunc(drills, func(d drill) bool { return !strings.Contains(d.name, *only) })
	failed := 0
	for _, d := range drills {
		w, err := world.New(".")
		if err == nil {
			err = w.StartServer()
		}
		var evidence string
		if err == nil {
			evidence, err = d.run(w)
		}
		if w != nil {
			w.Close()
		}
		if err != nil {
			failed++
			fmt.Printf("FAIL drill %s\n     %v\n", d.name, err)
			if evidence != "" {
				fmt.Printf("     %s\n", strings.ReplaceAll(evidence, "\n", "\n     "))
			}
			continue
		}
		fmt.Printf("PASS drill %s\n     %s\n", d.name, strings.ReplaceAll(evidence, "\n", "\n     "))
	}
	fmt.Printf("%d passed, %d failed\n", len(drills)-failed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

// sum adds a session's applied and dropped counts.
func accounted(s world.Session) (applied, dropped int) {
	for _, n := range s.EventsDropped {
		dropped += n
	}
	return s.EventsApplied, dropped
}

// drillCrash: 8 writers run `lanes hook` while `lanes ls` processes (each a
// collector cycle) are SIGKILLed at random points and restarted; every line
// must be applied or counted exactly once.
func drillCrash(w *world.World) (string, error) {
	writers, perWriter, kills := 8, 2000, 20
	if *quick {
		perWriter, kills = 60, 8
	}
	if err := w.NewSleeper("sink"); err != nil {
		return "", err
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range perWriter {
				ev := []string{"active", "idle", "blocked", "active"}[j%4]
				if r := w.Lanes("", "hook", "generic", ev, "--session", "sink"); r.Code != 0 {
					errs <- fmt.Errorf("writer %d: hook exit %d", i, r.Code)
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	killed := 0
	for running := true; running || killed < kills; {
		cmd := exec.Command(w.Bin, "ls", "--json")
		cmd.Env = w.Env()
		if err := cmd.Start(); err != nil {
			return "", err
		}
		time.Sleep(time.Duration(rand.IntN(25)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		killed++
		select {
		case <-done:
			running = false
		default:
		}
	}
	close(errs)
	for err := range errs {
		return "", err
	}
	sessions, err := w.Ls()
	if err != nil {
		return "", err
	}
	applied, dropped := accounted(sessions["sink"])
	total := writers * perWriter
	evidence := fmt.Sprintf("%d writers × %d events, %d collector kills: applied %d + dropped %d = %d of %d lines",
		writers, perWriter, killed, applied, dropped, applied+dropped, total)
	if applied+dropped != total || dropped != 0 {
		return evidence, fmt.Errorf("events lost, duplicated or dropped")
	}
	return evidence, nil
}

// drillLockHeld: another process holds the store's lock for 5 s while a
// board runs and a hook writes.
func drillLockHeld(w *world.World) (string, error) {
	if err := w.NewSleeper("l"); err != nil {
		return "", err
	}
	view := w.Socket + "-view"
	if err := w.StartBoard(view, 120, 30); err != nil {
		return "", err
	}
	screen := func() string { return w.Screen(view) }
	if !world.WaitFor(10*time.Second, func() bool { return strings.Contains(screen(), "○ 1 idle") }) {
		return screen(), fmt.Errorf("the board never showed the session")
	}
	hold := 6 * time.Second // the board says "store busy" on its second busy cycle in a row
	if *quick {
		hold = 5 * time.Second
	}
	f, err := os.OpenFile(filepath.Join(w.State, "lanes.db"), os.O_RDWR, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return "", err
	}
	released := time.Now().Add(hold)
	hook := w.Lanes("", "hook", "generic", "active", "--session", "l")
	ls := w.Lanes("", "ls")
	sl := w.Lanes("", "status-line")
	sawBusy := world.WaitFor(time.Until(released)-200*time.Millisecond, func() bool { return strings.Contains(screen(), "store busy") })
	evidence := fmt.Sprintf("ls: exit %d in %v (%q); status-line: exit %d in %v (%q); hook: exit %d in %v; board showed \"store busy\": %v",
		ls.Code, ls.Took.Round(time.Millisecond), firstLine(ls.Stderr), sl.Code, sl.Took.Round(time.Millisecond),
		strings.TrimSpace(sl.Stdout), hook.Code, hook.Took.Round(time.Millisecond), sawBusy)
	switch {
	case !strings.Contains(ls.Stderr, "store busy"):
		// Exit 0 when it showed the holder's last cycle (under 2 s old).
		return evidence, fmt.Errorf("ls did not report a busy store")
	case ls.Took > 3*time.Second:
		return evidence, fmt.Errorf("ls took too long to give up")
	case sl.Code != 0 || sl.Took > 300*time.Millisecond || strings.TrimSpace(sl.Stdout) == "":
		return evidence, fmt.Errorf("status-line must print its marker or last line, exit 0, within 300 ms")
	case hook.Code != 0 || hook.Took > 500*time.Millisecond:
		return evidence, fmt.Errorf("the hook waited on the lock")
	case !sawBusy:
		return evidence + "\n" + screen(), fmt.Errorf("the board did not say the store was busy")
	}
	time.Sleep(time.Until(released))
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if !world.WaitFor(10*time.Second, func() bool { return strings.Contains(screen(), "● 1 working") }) {
		return evidence + "\n" + screen(), fmt.Errorf("the board did not recover after the lock was released")
	}
	if dead, _ := w.Tmux(view, "display-message", "-p", "#{pane_dead}"); strings.TrimSpace(dead) != "0" {
		return evidence, fmt.Errorf("the board exited")
	}
	s, err := w.Ls()
	if err != nil {
		return evidence, fmt.Errorf("after release: %v", err)
	}
	if s["l"].EventsApplied != 1 || s["l"].Status != "working" {
		return evidence, fmt.Errorf("the hook line written under the lock was lost: %+v", s["l"])
	}
	return evidence + "\nafter release: the board shows l working (the hook line written under the lock), ls works", nil
}

func firstLine(s string) string { l, _, _ := strings.Cut(strings.TrimSpace(s), "\n"); return l }

func grepLine(s, word string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, word) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}
