package agent

import (
	"errors"
	"fmt"
	"strings"

	"lanes/state"
)

// A plan approval is answered like a permission dialog, on the plan the
// witness read (state/plan.go): the record's CallSum is then the digest
// of the plan as drawn ("plan-…"), and a key goes only while the pane's
// newest dialog draws that same plan and the option the key picks.

// ErrPlanNotRead: the witness has not read the plan on screen yet, so the
// card shows none: nothing can be checked against it.
var ErrPlanNotRead = errors.New("lanes has not read a plan on its screen (it does within a few seconds of the dialog, and answers none that shows no plan); look again, or attach to answer")

// planAnswer is how an answer picks an option of a plan approval: the
// option it needs drawn, and its keys — nil for the number the option is
// drawn with. With no option, the keys decline whatever the plan offers.
type planAnswer struct {
	opt  option
	keys []string
}

// planned reports whether r asks to leave its plan mode.
func planned(r *state.Record) bool { return state.PlanTool(r.Agent, r.Activity.Tool) }

// checkPlan is CheckDialog for a plan approval.
func checkPlan(a state.Agent, ans Answer, callSum, screen string) ([]string, error) {
	drv, _ := DriverOf(a)
	pa, offered := drv.plan[ans]
	p, ok := state.ReadPlan(a, screen)
	switch {
	case !ok:
		return nil, ErrNoDialogOnScreen
	case p.Sum() != callSum:
		return nil, &OtherCallError{Call: "plan: " + visible(p.First(), 300)}
	case !offered:
		return nil, fmt.Errorf("%w: its plan approval offers no %q", ErrNoDialogOnScreen, ans)
	case pa.opt.text == "":
		return pa.keys, nil
	}
	key, drawn := dialog{options: optionLines(p.Options)}.pick(pa.opt)
	switch {
	case !drawn:
		return nil, fmt.Errorf("%w: its plan approval does not offer %q where the key would pick it", ErrNoDialogOnScreen, pa.opt.text)
	case pa.keys != nil:
		return pa.keys, nil
	}
	return []string{key}, nil
}

// isPlanSum: a digest of a plan as drawn, not of a call.
func isPlanSum(callSum string) bool { return strings.HasPrefix(callSum, "plan-") }
