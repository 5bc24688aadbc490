package experiments_test

import (
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// The defaults runfolder.Settings states for fp train's flags are the
// library's, which runfolder, a reader of run folders, cannot import; and
// CommandDefaults, which the report's command is given, agrees with them.
func TestSettingsDefaultsAreTheLibrarys(t *testing.T) {
	want := map[string]any{
		"rho": scalarize.DefaultRho, "threshold": fairness.DefaultThreshold, "adv-budget": experiments.AdvBudgetPaper,
		"film-width": model.DefaultFiLMWidth, "lambdas-per-step": 1, "lambda-draw": train.DefaultDraw,
		"film-penalty": train.PenaltyAfterFiLM, "constraint": runfolder.ConstraintDP,
	}
	d := experiments.CommandDefaults()
	for _, s := range runfolder.Settings {
		if s.Default == nil {
			continue
		}
		w, ok := want[s.Flag]
		if !ok || s.Default != w {
			t.Errorf("--%s: default %v, want %v", s.Flag, s.Default, w)
		}
		delete(want, s.Flag)
		if v := s.Value(&d); !s.IsZero(&d) && v != s.Default {
			t.Errorf("--%s: CommandDefaults has %v, the table %v", s.Flag, v, s.Default)
		}
	}
	for flag := range want {
		t.Errorf("--%s has no default in the table", flag)
	}
}
