package agent

import (
	"path/filepath"

	"lanes/state"
)

// pi is pi (pi-coding-agent) as lanes drives it: lanes' extension, which
// `pi -e` loads, --session to resume. It asks nothing: no dialog keys.
var pi = Driver{
	Agent: state.AgentPi, Binary: "pi",
	launch:     piLaunch,
	userConfig: filepath.Join(".pi", "agent", "extensions", "lanes.ts"), projectConfig: filepath.Join(".pi", "extensions", "lanes.ts"),
	plugin:      piExtension,
	resume:      func(id string) []string { return []string{"--session", id} },
	userCommand: piUserCommand,
	injected:    piFile,
}

// piFile is the extension under HookDir a pi launch loads with -e.
const piFile = "pi-lanes.ts"

// piLaunch: `pi -e FILE ARGS…`; pi loads an extension given so beside
// those it finds, so the user's own keep running.
func piLaunch(lanesBin, dir string, userArgs []string, _ func(string) string) (Plan, error) {
	file := filepath.Join(dir, piFile)
	return Plan{
		Args:     append([]string{"pi", "-e", file}, userArgs...),
		Env:      injectedEnv(),
		Files:    map[string][]byte{file: piExtension(lanesBin, false)},
		Injected: true,
	}, nil
}

// piUserCommand: pi's launch adds -e FILE after the binary; the rest is
// the user's.
func piUserCommand(dir string, argv []string) ([]string, bool) {
	if len(argv) >= 3 && argv[0] == "pi" && argv[1] == "-e" {
		if argv[2] != filepath.Join(dir, piFile) {
			return nil, false // another session's, or the user's own extension
		}
		return append([]string{"pi"}, argv[3:]...), true
	}
	return argv, argv[0] == "pi"
}

// piExtension is the extension file: it forwards pi's session, run and
// tool events to `lanes hook pi`, as a JSON payload on stdin with the hook
// field names (hook_event_name, session_id, transcript_path, source, reason, status,
// tool_name, tool_use_id, tool_input, last_assistant_message). It never
// sends a prompt; of a tool's input the short string fields, of a run the
// start of its last text.
func piExtension(lanesBin string, installed bool) []byte {
	return pluginFile(pluginMarker+"pi session's activity to lanes.", "pi", piExtensionSource, lanesBin, installed)
}

const piExtensionSource = `@HEADER@
export default function (pi: any) {
  // An installed extension stands down where lanes injected its own.
  if (INSTALLED && process.env.@ENV@ === "1") return;

@SEND@
  const sid = (ctx: any): string => {
    try {
      return String(ctx.sessionManager.getSessionId() || "");
    } catch {
      return "";
    }
  };
  // Its session file: lanes reads the usage pi writes there (numbers only).
  const tp = (ctx: any): string => {
    try {
      return String(ctx.sessionManager.getSessionFile() || "");
    } catch {
      return "";
    }
  };
  // A handler that throws can break the run: never throw.
  const on = (event: string, f: (e: any, ctx: any) => unknown) =>
    pi.on(event, async (e: any, ctx: any) => {
      try {
        await f(e || {}, ctx);
      } catch {}
    });

  // pi 0.73.1 runs again, with agent_start and no input, a run whose error
  // it may retry (its _isRetryableError: this pattern), as its settings say
  // (retry.enabled, retry.maxRetries, retry.baseDelayMs: 3 times 2, 4 and
  // 8 s apart unless a project or the user says otherwise), read through
  // its own SettingsManager. Such a run's end says the retry at once, and
  // is held for the next start (the retry's run) or, should none come in
  // the retry's time (Esc), released as the run's end.
  const RETRYABLE = /overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|connection.?refused|connection.?lost|websocket.?closed|websocket.?error|other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|http2 request did not get a response|timed? out|timeout|terminated|retry delay/i;
  const retries = async (cwd: string) => {
    try {
      const pkg: any = await import("@mariozechner/pi-coding-agent");
      const r = pkg.SettingsManager.create(cwd, pkg.getAgentDir()).getRetrySettings();
      const num = (v: any, d: number) => (Number.isFinite(Number(v)) ? Number(v) : d);
      return { on: r.enabled !== false, max: num(r.maxRetries, 3), delay: num(r.baseDelayMs, 2000) };
    } catch {
      return { on: true, max: 3, delay: 2000 };
    }
  };
  let held: Record<string, unknown> | null = null;
  let heldTimer: ReturnType<typeof setTimeout> | undefined;
  let unlisten: (() => void) | undefined;
  let attempt = 0;
  const release = () => {
    if (held) send("agent_end", held);
    held = null;
  };
  // Esc while it waits to retry cancels the retry, with no event: the
  // held end goes at once, as the human's interrupt (a pi trial: the card
  // said retrying for 5 s more, then Failed in Needs you). Its keys are
  // only read, never taken. Esc alone, as a terminal sends it: plain,
  // kitty's CSI 27 u (its modifiers, its event type), or xterm's
  // modifyOtherKeys CSI 27;m;27 ~; not any CSI 27;m;k ~, every other
  // modified key (a hostile re-run: Shift+Enter under tmux's extended-keys
  // ended the retry as interrupted).
  const escKey = /^\x1b(\[27(;\d+(:\d+)?)?u|\[27;\d+;27~)?$/;
  const escListen = (ctx: any) => {
    unlisten?.();
    unlisten = ctx?.ui?.onTerminalInput?.((data: string) => {
      if (held && escKey.test(data)) {
        clearTimeout(heldTimer);
        const end = { ...held, reason: "aborted" };
        held = null;
        send("agent_end", end);
      }
      return undefined;
    });
  };

  on("session_start", (e, ctx) => send("session_start", { session_id: sid(ctx), transcript_path: tp(ctx), source: String(e.reason || "") }));
  on("input", () => {
    // A prompt of the human's: a held end was the last run's (its next
    // start is this prompt's run, no retry), and errors count afresh.
    clearTimeout(heldTimer);
    release();
    attempt = 0;
  });
  on("agent_start", (_e, ctx) => {
    clearTimeout(heldTimer);
    if (held) {
      held = null; // the retry's run, said at the end before it
      return;
    }
    return send("agent_start", { session_id: sid(ctx), transcript_path: tp(ctx) });
  });
  on("tool_execution_start", (e, ctx) =>
    send("tool_start", { session_id: sid(ctx), tool_name: String(e.toolName || ""), tool_use_id: String(e.toolCallId || ""), tool_input: slim(e.args) }));
  on("tool_execution_end", (e, ctx) =>
    send("tool_end", { session_id: sid(ctx), tool_name: String(e.toolName || ""), tool_use_id: String(e.toolCallId || "") }));
  on("agent_end", async (e, ctx) => {
    const messages = Array.isArray(e.messages) ? e.messages : [];
    const last = [...messages].reverse().find((m: any) => m && m.role === "assistant") || {};
    const error = String(last.errorMessage || "");
    const text = Array.isArray(last.content)
      ? last.content.filter((c: any) => c && c.type === "text").map((c: any) => String(c.text || "")).join("")
      : "";
    const fields = {
      session_id: sid(ctx),
      transcript_path: tp(ctx),
      reason: String(last.stopReason || ""),
      status: (/^([1-5][0-9][0-9])\b/.exec(error) || ["", ""])[1],
      last_assistant_message: text.slice(0, 1024),
    };
    if (fields.reason === "error" && RETRYABLE.test(error)) {
      held = fields; // before the settings are read: the retry may start meanwhile
      const retry = await retries(String(ctx.cwd || ""));
      const taken = held !== fields; // its retry's start, or a prompt, came
      if (retry.on && attempt < retry.max) {
        attempt++;
        if (!taken) {
          heldTimer = setTimeout(release, retry.delay * 2 ** (attempt - 1) + 3000);
          escListen(ctx);
        }
        return send("agent_retry", { session_id: sid(ctx), reason: "attempt " + attempt + "/" + retry.max });
      }
      if (taken) return; // a prompt released it
      held = null;
    }
    attempt = 0;
    return send("agent_end", fields);
  });
  // The process ends after it: wait for the line to be written.
  on("session_shutdown", (e, ctx) => {
    clearTimeout(heldTimer);
    release();
    return send("session_shutdown", { session_id: sid(ctx), reason: String(e.reason || "") });
  });
}
`
