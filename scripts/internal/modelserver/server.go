package modelserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Server serves scenarios per session key. The zero value is not usable; call New.
type Server struct {
	mu       sync.Mutex
	sessions map[string]*session
	library  map[string]Scenario // by name, for POST /admin/assign {"name": …}

	http *http.Server
	base string
}

type session struct {
	sc       *Scenario // nil: nothing assigned to this key
	served   []bool    // turns served (a Match turn may wait for its request)
	lastBody [sha256.Size]byte
	lastTurn int // index served for lastBody, -1 before any main request
	retries  int // retries of lastBody served since
	log      []Entry
}

// Entry is one request as the server saw it, for recording fixtures.
type Entry struct {
	Time   time.Time         `json:"time"`
	Method string            `json:"method"`
	Path   string            `json:"path"` // without the /s/KEY prefix
	Query  string            `json:"query,omitempty"`
	Header map[string]string `json:"header"` // credentials left out
	Body   json.RawMessage   `json:"body,omitempty"`
	// Kind is main (consumed a turn), retry (served the previous turn
	// again), unscripted (main, but the script had no turn for it), side,
	// or probe (HEAD, model lists).
	Kind string `json:"kind"`
	Turn int    `json:"turn,omitempty"` // 1-based turn served, for main and retry
	// Done is when the answer to a main request was over (its stream
	// ended, or the agent went away): from then on the model is not
	// working for the agent.
	Done time.Time `json:"done,omitzero"`
	// Usage is what the answer reported (nil: none, as for an error,
	// a stream cut short, a token count or a probe).
	Usage *Usage `json:"usage,omitempty"`
}

// New returns a server with no scenarios assigned.
func New() *Server {
	return &Server{sessions: map[string]*session{}, library: map[string]Scenario{}}
}

// Listen serves on addr (e.g. 127.0.0.1:0) in the background and returns the
// base URL; agents get URL(key).
func (s *Server) Listen(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("modelserver listening on %s: %w", addr, err)
	}
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.base = "http://" + ln.Addr().String()
	go s.http.Serve(ln) //nolint:errcheck // Serve returns ErrServerClosed on Close
	return s.base, nil
}

// Close stops the server and cuts open streams.
func (s *Server) Close() error {
	if s.http == nil {
		return nil
	}
	return s.http.Close()
}

// URL is the base URL an agent uses to get key's scenario.
func (s *Server) URL(key string) string { return s.base + "/s/" + key }

// Assign starts key afresh on sc: its next main request gets sc's first
// turn. The key's request log carries on.
func (s *Server) Assign(key string, sc Scenario) error {
	if strings.Contains(key, "/") {
		return fmt.Errorf("session key %q cannot contain a slash", key)
	}
	if err := sc.Validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var log []Entry
	if old := s.sessions[key]; old != nil {
		log = old.log // the requests stay on record
	}
	s.sessions[key] = &session{sc: &sc, lastTurn: -1, served: make([]bool, len(sc.Turns)), log: log}
	return nil
}

// Add makes sc assignable by name over HTTP and assigns it to the key equal
// to its name, so BASE/s/NAME serves it on a hand run.
func (s *Server) Add(sc Scenario) error {
	if err := s.Assign(sc.Name, sc); err != nil {
		return err
	}
	s.mu.Lock()
	s.library[sc.Name] = sc
	s.mu.Unlock()
	return nil
}

// Log returns a copy of key's request log.
func (s *Server) Log(key string) []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss := s.sessions[key]; ss != nil {
		return append([]Entry(nil), ss.log...)
	}
	return nil
}

// ServeHTTP routes admin calls, then BASE[/s/KEY]/… model API calls.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/admin/assign":
		s.adminAssign(w, r)
		return
	case "/admin/log":
		writeJSON(w, http.StatusOK, s.Log(r.URL.Query().Get("key")))
		return
	}
	key, path := splitKey(r.URL.Path)
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "reading request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	api, req := classify(r.Method, path, body)
	e := Entry{Time: time.Now(), Method: r.Method, Path: path, Query: r.URL.RawQuery,
		Header: headerMap(r.Header), Kind: req.kind}
	if json.Valid(body) {
		e.Body = json.RawMessage(body)
	} else if len(body) > 0 {
		e.Body, _ = json.Marshal(string(body))
	}
	if api != nil {
		if d, ok := api().(windows); ok {
			d.limitHeaders(w.Header(), s.limitsFor(key), time.Now())
		}
	}
	if req.kind == "side" {
		u := sideUsage
		e.Usage = &u
	}
	var turn Turn
	var served *Usage // a main answer's usage, once its stream got to the end
	if req.kind == "main" {
		var at int
		turn, at = s.take(key, body, &e)
		turn = turn.filled(body)
		defer func() { s.done(key, at, served) }()
	} else {
		s.record(key, e)
	}
	switch {
	case req.kind == "probe":
		probe(w, r, path)
	case api == nil:
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{
			"type": "not_found", "message": "modelserver does not serve " + r.Method + " " + path}})
	case req.kind == "count":
		writeJSON(w, http.StatusOK, api().tokenCount())
	case req.kind == "side" && !req.stream:
		writeJSON(w, http.StatusOK, api().plain(req.model, sideText))
	case req.kind == "side":
		play(w, r, api, req.model, Turn{Text(sideText)}, sideUsage)
	default:
		_, writes := api().(*anthropic)
		if u := turnUsage(e.Turn, writes); play(w, r, api, req.model, turn, u) {
			served = &u
		}
	}
}

// sideText answers requests that are not turns: titles, summaries, routing.
const sideText = "Scripted session"

// take picks the turn for a main request and logs it, under one lock so
// concurrent requests of a key cannot both take the same turn; it returns
// the turn and where in the log the request is.
func (s *Server) take(key string, body []byte, e *Entry) (Turn, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessionLocked(key)
	at := len(ss.log)
	defer func() { ss.log = append(ss.log, *e) }()
	return ss.turnFor(key, body, e), at
}

// done notes when the answer to the main request at log index at was
// over, and the usage it reported.
func (s *Server) done(key string, at int, u *Usage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss := s.sessions[key]; ss != nil && at < len(ss.log) {
		ss.log[at].Done, ss.log[at].Usage = time.Now(), u
	}
}

func (ss *session) turnFor(key string, body []byte, e *Entry) Turn {
	if ss.sc == nil {
		e.Kind = "unscripted"
		return Turn{Text(fmt.Sprintf("modelserver: no scenario is assigned to session key %q.", key))}
	}
	sum := sha256.Sum256(body)
	if ss.lastTurn >= 0 && sum == ss.lastBody && !ss.recovers() {
		ss.retries++
		e.Kind, e.Turn = "retry", ss.lastTurn+1
		return ss.sc.Turns[ss.lastTurn][skipMatch(ss.sc.Turns[ss.lastTurn]):]
	}
	i := ss.nextFor(body)
	if i < 0 {
		e.Kind = "unscripted"
		return Turn{Text(fmt.Sprintf("modelserver: scenario %q has only %d turns.", ss.sc.Name, len(ss.sc.Turns)))}
	}
	ss.served[i] = true
	ss.lastBody, ss.lastTurn, ss.retries = sum, i, 0
	e.Turn = i + 1
	return ss.sc.Turns[i][skipMatch(ss.sc.Turns[i]):]
}

// recovers reports whether the last turn's error has answered all the
// retries its Recover allows, so a retry now gets the next turn.
func (ss *session) recovers() bool {
	last := ss.sc.Turns[ss.lastTurn]
	st := last[len(last)-1]
	return st.Recover > 0 && ss.retries >= st.Recover
}

// nextFor is the first turn not served yet that takes body: one without a
// Match, or one whose Match body contains; -1 when none is left.
func (ss *session) nextFor(body []byte) int {
	for i, t := range ss.sc.Turns {
		if !ss.served[i] && (t[0].Match == "" || bytes.Contains(body, []byte(t[0].Match))) {
			return i
		}
	}
	return -1
}

// skipMatch is where a turn's played steps begin: after its Match.
func skipMatch(t Turn) int {
	if t[0].Match != "" {
		return 1
	}
	return 0
}

func (s *Server) record(key string, e Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessionLocked(key)
	ss.log = append(ss.log, e)
}

func (s *Server) sessionLocked(key string) *session {
	ss := s.sessions[key]
	if ss == nil {
		ss = &session{lastTurn: -1}
		s.sessions[key] = ss
	}
	return ss
}

// adminAssign takes {"key": K, "scenario": {…}} or {"key": K, "name": N}.
func (s *Server) adminAssign(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Key      string    `json:"key"`
		Name     string    `json:"name"`
		Scenario *Scenario `json:"scenario"`
	}
	if r.Method != http.MethodPost {
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "POST {key, scenario} or {key, name}"})
		return
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "parsing assignment: " + err.Error()})
		return
	}
	sc := in.Scenario
	if sc == nil {
		s.mu.Lock()
		named, ok := s.library[in.Name]
		s.mu.Unlock()
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("no scenario named %q was loaded", in.Name)})
			return
		}
		sc = &named
	}
	if err := s.Assign(in.Key, *sc); err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, ErrBadScenario) {
			code = http.StatusUnprocessableEntity
		}
		writeJSON(w, code, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": s.URL(in.Key)})
}

// splitKey takes the session key off /s/KEY/rest; other paths are key "".
func splitKey(p string) (key, rest string) {
	if !strings.HasPrefix(p, "/s/") {
		return "", p
	}
	key, rest, _ = strings.Cut(p[len("/s/"):], "/")
	return key, "/" + rest
}

// probe answers reachability checks (Claude's HEAD /) and model lists.
func probe(w http.ResponseWriter, r *http.Request, path string) {
	if r.Method == http.MethodHead {
		w.WriteHeader(http.StatusOK)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []any{
		map[string]any{"id": "fake-model", "object": "model", "created": 0, "owned_by": "modelserver"}}})
}

var secretHeaders = map[string]bool{"Authorization": true, "X-Api-Key": true, "X-Goog-Api-Key": true}

func headerMap(h http.Header) map[string]string {
	m := make(map[string]string, len(h))
	for k, v := range h {
		if !secretHeaders[k] {
			m[k] = strings.Join(v, ", ")
		}
	}
	return m
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		http.Error(w, "encoding reply: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(buf.Bytes()) //nolint:errcheck // the client went away; nothing to tell
}
