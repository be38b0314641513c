package agent

import "lanes/state"

// ResumeArgs are the arguments that, appended to the user's own, make
// agent a resume its conversation id (state.ResumeID checked its shape);
// nil for an agent that cannot resume.
func ResumeArgs(a state.Agent, id string) []string {
	if d, ok := DriverOf(a); ok && id != "" && d.resume != nil {
		return d.resume(id)
	}
	return nil
}
