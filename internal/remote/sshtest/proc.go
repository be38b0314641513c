package sshtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// LanesBinary is the lanes under test, built once per test binary (as
// internal/cli's tests build theirs) into a temporary directory that
// Cleanup removes: call it from TestMain after m.Run.
func LanesBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "lanes-sshtest-"); buildErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "lanes"), "lanes/cmd/lanes").CombinedOutput()
		if err != nil {
			buildErr = err
			binDir = binDir + " (" + string(out) + ")"
		}
	})
	if buildErr != nil {
		t.Fatalf("building lanes for the ssh tests: %v in %s", buildErr, binDir)
	}
	return filepath.Join(binDir, "lanes")
}

// Cleanup removes the binary LanesBinary built.
func Cleanup() {
	if binDir != "" && buildErr == nil {
		os.RemoveAll(binDir)
	}
}

// stat is a process's parent and CPU time, from /proc/PID/stat.
type stat struct {
	ppid int
	cpu  time.Duration
	comm string
}

// clockTick is USER_HZ, 100 on every Linux lanes runs on.
const clockTick = 100

func readStat(pid int) (stat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, false
	}
	// comm is in parentheses and may hold spaces: fields count from the last ')'.
	i := bytes.LastIndexByte(b, ')')
	j := bytes.IndexByte(b, '(')
	if i < 0 || j < 0 {
		return stat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return stat{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return stat{ppid: ppid, cpu: time.Duration(utime+stime) * time.Second / clockTick, comm: string(b[j+1 : i])}, true
}

// CPU is the user and system time pid has used so far.
func CPU(pid int) (time.Duration, bool) {
	s, ok := readStat(pid)
	return s.cpu, ok
}

// pids are the processes running now.
func pids() []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// Children are the processes whose parent is pid and whose command is comm
// ("" for any).
func Children(pid int, comm string) []int {
	var out []int
	for _, p := range pids() {
		if s, ok := readStat(p); ok && s.ppid == pid && (comm == "" || s.comm == comm) {
			out = append(out, p)
		}
	}
	return out
}

// descendants are every process below pid.
func descendants(pid int) []int {
	parent := map[int]int{}
	for _, p := range pids() {
		if s, ok := readStat(p); ok {
			parent[p] = s.ppid
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Using are the processes of the rig's links: those whose command line
// names the rig's directory (its ssh clients and wrappers) and the lanes
// whose environment does (the remote lanes: their state dirs are in it).
// A test that ended everything it started finds none. The sshd's
// listener is not one of them.
func (r *Rig) Using() []int {
	listener := 0
	r.mu.Lock()
	if r.sshd != nil {
		listener = r.sshd.Process.Pid
	}
	r.mu.Unlock()
	var out []int
	dir := []byte(r.Dir)
	for _, p := range pids() {
		if p == os.Getpid() || p == listener {
			continue
		}
		proc := "/proc/" + strconv.Itoa(p) + "/"
		cmdline, _ := os.ReadFile(proc + "cmdline")
		if bytes.Contains(cmdline, dir) {
			out = append(out, p)
			continue
		}
		if s, ok := readStat(p); ok && s.comm == "lanes" {
			if env, _ := os.ReadFile(proc + "environ"); bytes.Contains(env, dir) {
				out = append(out, p)
			}
		}
	}
	return out
}
