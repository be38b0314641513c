package agent

import (
	"path/filepath"
	"strings"

	"lanes/state"
)

// opencode is OpenCode as lanes drives it: lanes' plugin in a config
// directory of its own, its dialog's keys and screen, -s to resume.
var opencode = Driver{
	Agent: state.AgentOpenCode, Binary: "opencode",
	launch:     opencodeLaunch,
	userConfig: filepath.Join(".config", "opencode", "plugins", "lanes.js"), projectConfig: filepath.Join(".opencode", "plugins", "lanes.js"),
	plugin: opencodePlugin,
	// OpenCode 1.18: "Allow once   Allow always   Reject" with "⇆ select
	// enter confirm": Enter takes the option highlighted (the first, as
	// it opens), Right moves the highlight along, wrapping; no key picks
	// an option outright (testdata/real/opencode/highlight), but Esc
	// rejects, wherever the highlight is. Yes's keys are counted from the
	// highlight the styled capture shows. "Allow always" is not offered:
	// it asks again ("△ Always allow … Confirm Cancel"), and that step is
	// backed out of with Esc if a moved highlight made Enter open it.
	keys: DialogKeys{Yes: []string{"Enter"}, No: []string{"Escape"},
		Words: map[Answer]string{Yes: "Allow once", No: "Reject"},
		Row:   []string{"Allow once", "Allow always", "Reject"},
		Back:  []string{"△ Always allow"},
		// One line; its own key hints follow on the same line where
		// there is no sidebar (120 columns or less).
		Options: map[Answer]option{Yes: {text: "Allow once   Allow always   Reject", prefix: true},
			No: {text: "Allow once   Allow always   Reject", prefix: true}}},
	readDialog: opencodeDialog, callText: plainCall,
	resume:   func(id string) []string { return []string{"-s", id} },
	injected: "opencode",
	// Its permission dialog's header and its question dialog's footer
	// (testdata/real/opencode, testdata/real/harness/opencode/question).
	dialogWords: []string{"△ Permission required", "⇆ select", "enter submit  esc dismiss"},
}

// EnvOpenCodeConfigDir is OpenCode's variable naming an extra config
// directory; its plugins/ are loaded alongside the global and project ones.
const EnvOpenCodeConfigDir = "OPENCODE_CONFIG_DIR"

// opencodePluginMarker is the first line of every plugin file lanes writes.
const opencodePluginMarker = pluginMarker + "OpenCode session's activity to lanes."

// opencodeLaunch writes lanes' plugin under the state dir and points
// OPENCODE_CONFIG_DIR at it. When the user already sets OPENCODE_CONFIG_DIR,
// lanes leaves it alone and injects nothing (it would hide their directory).
func opencodeLaunch(lanesBin, dir string, userArgs []string, env func(string) string) (Plan, error) {
	args := append([]string{"opencode"}, userArgs...)
	if v := env(EnvOpenCodeConfigDir); v != "" {
		return Plan{Args: args, Note: "OpenCode hooks not injected: " + EnvOpenCodeConfigDir + " is already set (" + v + "); `lanes hooks install opencode` adds the plugin instead"}, nil
	}
	cfg := filepath.Join(dir, "opencode")
	file := filepath.Join(cfg, "plugins", "lanes.js")
	return Plan{
		Args:     args,
		Env:      injectedEnv(EnvOpenCodeConfigDir + "=" + cfg),
		Files:    map[string][]byte{file: opencodePlugin(lanesBin, false)},
		Injected: true,
	}, nil
}

// opencodePlugin is the plugin file: it forwards the OpenCode events
// state.Translate knows to `lanes hook opencode`, as a JSON payload on stdin
// using the hook field names (hook_event_name, session_id, status, reason,
// tool_name, tool_use_id, agent_id, tool_input, last_assistant_message). It
// never sends a prompt; of a tool's input it sends the short string fields
// (the hook keeps a summary of one), and of the assistant's messages the
// last text of a turn (the hook keeps its start). Besides the bus events it forwards (session.*, permission.*,
// question.*) and the hooks it implements (chat.message, tool.execute.*), it
// sends three events of its own: lanes.start when it loads, and
// subagent.start/subagent.stop when a child session (a subagent) turns busy
// or idle. Events of child sessions are reported against their parent, and a
// reply to a permission or question carries the tool call id of the request
// it answers, remembered from permission.asked / question.asked. Of a
// complete assistant message it sends the token counts and cost
// (message.usage): OpenCode keeps its records in a database lanes does not
// read.
func opencodePlugin(lanesBin string, installed bool) []byte {
	return pluginFile(opencodePluginMarker, "opencode", opencodePluginSource, lanesBin, installed)
}

const opencodePluginSource = `@HEADER@
export const LanesPlugin = async () => {
  // An installed plugin stands down where lanes injected its own.
  if (INSTALLED && process.env.@ENV@ === "1") return {};

  const parents = new Map(); // child session id -> parent session id
  const live = new Set(); // child sessions currently busy
  const calls = new Map(); // permission/question request id -> tool call id
  const errored = new Set(); // sessions whose turn just ended in session.error
  const assistant = new Set(); // ids of assistant messages
  const said = new Map(); // session id -> the last text an assistant message gave
  const counted = new Map(); // assistant message id -> the usage sent for it
  let current = ""; // the top-level session last seen at work

@SEND@
  const top = (sid) => parents.get(sid) || sid || "";
  // The child sessions of sid still busy when sid's turn ends: background
  // subagents (the task tool's background), in the shape lanes reads.
  const bgOf = (sid) =>
    [...live].filter((c) => parents.get(c) === sid).map((id) => ({ id, type: "subagent", status: "running" }));
  // A plugin hook that throws can block the tool or the turn: never throw.
  const safe = (f) => async (...a) => {
    try {
      f(...a);
    } catch {}
  };

  send("lanes.start", {});

  return {
    "chat.message": safe((input, output) => {
      const sid = input && input.sessionID;
      if (!sid || parents.has(sid)) return;
      current = sid;
      errored.delete(sid);
      // OpenCode's own prompt when background work ends ("<task
      // id=… state=\"completed\">"): its opening tag only, never a
      // human's prompt.
      const parts = (output && output.parts) || [];
      const text = parts.length && parts[0].type === "text" ? String(parts[0].text || "") : "";
      send("chat.message", text.startsWith("<task id=") ? { session_id: sid, prompt: text.slice(0, 120) } : { session_id: sid });
    }),
    "tool.execute.before": safe((input, output) => {
      send("tool.execute.before", {
        session_id: top(input.sessionID),
        tool_name: input.tool,
        tool_use_id: input.callID,
        tool_input: slim(output && output.args),
      });
    }),
    "tool.execute.after": safe((input) => {
      send("tool.execute.after", { session_id: top(input.sessionID), tool_name: input.tool, tool_use_id: input.callID });
    }),
    event: safe(({ event }) => {
      const p = (event && event.properties) || {};
      switch (event && event.type) {
        case "message.updated": {
          const info = p.info || {};
          if (info.role === "assistant" && info.id) assistant.add(info.id);
          // Its usage once the message is complete (numbers only), again
          // should they change; a child session's counts for its parent.
          const t = info.tokens;
          if (info.role === "assistant" && info.id && info.time && info.time.completed && t) {
            const num = (v) => (Number.isFinite(Number(v)) ? Number(v) : 0);
            const usage = {
              input: num(t.input), output: num(t.output) + num(t.reasoning),
              cache_read: num(t.cache && t.cache.read), cache_write: num(t.cache && t.cache.write), cost: num(info.cost),
            };
            const key = JSON.stringify(usage);
            if (counted.get(info.id) !== key) {
              counted.set(info.id, key);
              send("message.usage", { session_id: top(info.sessionID), message_id: String(info.id), usage });
            }
          }
          return;
        }
        case "message.part.updated": {
          const part = p.part || {};
          if (part.type === "text" && assistant.has(part.messageID) && part.text && !parents.has(part.sessionID)) {
            said.set(part.sessionID, part.text.slice(0, 1024));
          }
          return;
        }
        case "session.created":
        case "session.updated": {
          const info = p.info || {};
          if (info.id && info.parentID) parents.set(info.id, info.parentID);
          return;
        }
        case "session.status": {
          const sid = p.sessionID;
          const status = (p.status && p.status.type) || "";
          if (parents.has(sid)) {
            if (status === "busy" && !live.has(sid)) {
              live.add(sid);
              send("subagent.start", { session_id: top(sid), agent_id: sid });
            } else if (status === "idle" && live.delete(sid)) {
              send("subagent.stop", { session_id: top(sid), agent_id: sid });
            }
            return;
          }
          if (status === "busy") {
            current = sid;
            errored.delete(sid);
          } else if (status === "idle" && errored.has(sid)) {
            return; // the error already ended the turn, with its outcome
          }
          const fields = { session_id: sid, status };
          if (status === "idle") fields.background_tasks = bgOf(sid);
          if (status === "retry") {
            // What it retries and which attempt: the card says it.
            fields.reason = (String(p.status.message || "").slice(0, 120) + " · attempt " + p.status.attempt).trim();
          }
          send("session.status", fields);
          return;
        }
        case "session.idle": {
          const sid = p.sessionID;
          if (parents.has(sid)) {
            if (live.delete(sid)) send("subagent.stop", { session_id: top(sid), agent_id: sid });
            return;
          }
          if (errored.has(sid)) return;
          send("session.idle", { session_id: sid, last_assistant_message: said.get(sid) || "", background_tasks: bgOf(sid) });
          said.delete(sid);
          assistant.clear();
          return;
        }
        case "session.error": {
          const sid = p.sessionID;
          if (!sid || parents.has(sid)) return;
          errored.add(sid);
          const error = p.error || {};
          const code = error.data && error.data.statusCode;
          // The error's name, and its HTTP status where it has one (the card
          // says "rate limited" for a 429).
          send("session.error", { session_id: sid, reason: error.name || "", status: code ? String(code) : "" });
          return;
        }
        case "session.deleted": {
          const id = p.info && p.info.id;
          if (live.delete(id)) send("subagent.stop", { session_id: top(id), agent_id: id });
          parents.delete(id);
          if (id && id === current) send("session.deleted", { session_id: id });
          return;
        }
        case "permission.asked":
        case "permission.updated":
        case "question.asked": {
          const call = (p.tool && p.tool.callID) || p.callID || "";
          if (p.id) calls.set(p.id, call);
          const fields = { session_id: top(p.sessionID), tool_use_id: call };
          if (event.type === "question.asked") {
            fields.tool_input = { questions: (p.questions || []).map((q) => ({ question: q && q.question })) };
          } else {
            fields.tool_name = p.permission || "";
            fields.tool_input = { pattern: (p.patterns || []).join(" "), ...slim(p.metadata) };
          }
          send(event.type, fields);
          return;
        }
        case "permission.replied":
        case "question.replied":
        case "question.rejected": {
          const id = p.requestID || p.permissionID;
          const call = calls.get(id) || "";
          calls.delete(id);
          const fields = { session_id: top(p.sessionID), tool_use_id: call };
          // The option the dialog took (once, always, reject; "response"
          // before OpenCode 1.x): lanes checks its answer took the one meant.
          const reply = p.reply || p.response;
          if (event.type === "permission.replied" && typeof reply === "string") fields.reason = reply.slice(0, 16);
          send(event.type, fields);
          return;
        }
      }
    }),
  };
};
`

// isLanesPlugin reports whether a plugin file's content was written by lanes.
func isLanesPlugin(b []byte) bool {
	return strings.HasPrefix(string(b), pluginMarker)
}

// OpenCode 1.18, its sidebar sharing the lines far to the right; the
// command after "$ " on a line of its own, the options on one line, and
// only the sidebar under them:
//
//	┃  △ Permission required
//	┃    # Shell command
//	┃
//	┃  $ touch approved.txt && sleep 12
//	┃                                                  /root/proj
//	┃   Allow once   Allow always   Reject        ⇆ select  enter confirm
//	┃                                                  • OpenCode 1.18.33
func opencodeDialog(lines []string) (dialog, bool) {
	const gap = "          " // ten spaces: the sidebar's column begins
	// main is a line's text left of the sidebar.
	main := func(l string) string {
		if i := strings.Index(l, gap); i >= 0 {
			return strings.TrimRight(l[:i], " ")
		}
		return l
	}
	// Its header, once: a command's lines are drawn at the same margin, so
	// a header in one could pass for the dialog's.
	q := -1
	for i, l := range lines {
		if trim(main(l)) == "┃  △ Permission required" {
			if q >= 0 {
				return dialog{}, false
			}
			q = i
		}
	}
	opt := -1
	for i := q + 1; i < len(lines) && opt < 0 && q >= 0; i++ {
		if strings.HasPrefix(trim(main(lines[i])), "┃   Allow once") {
			opt = i
		}
	}
	if q < 0 || opt < q+4 {
		return dialog{}, false
	}
	// The sidebar's column: where its text starts under the options.
	col := -1
	for _, l := range lines[opt+1:] {
		bar, ok := strings.CutPrefix(strings.TrimLeft(l, " "), "┃")
		switch t := strings.TrimLeft(bar, " "); {
		case ok && t != "":
			if c := len(l) - len(t); col < 0 || c < col {
				col = c
			}
		case ok: // its bare bar: no sidebar beside it (120 columns or less)
		case trim(l) != "":
			return dialog{}, false // anything but the sidebar under the options
		}
	}
	// Every line of the dialog but the command's: its text, or the sidebar.
	side := func(l string) string {
		if col > 0 && len(l) > col && trim(l[:col]) == "┃" {
			return "┃"
		}
		return trim(l)
	}
	if side(lines[q+1]) != "┃    # Shell command" || side(lines[q+2]) != "┃" {
		return dialog{}, false
	}
	cmd := ""
	for _, l := range lines[q+3 : opt] {
		switch t := side(l); {
		case t == "┃":
		case cmd == "" && strings.HasPrefix(t, "┃  $ ") && !strings.Contains(l, gap):
			cmd = strings.TrimPrefix(t, "┃  $ ")
		default:
			return dialog{}, false // a second line of the command, or text beside it
		}
	}
	if cmd == "" {
		return dialog{}, false
	}
	return dialog{cmd, []string{strings.TrimPrefix(trim(main(lines[opt])), "┃   ")}}, true
}
