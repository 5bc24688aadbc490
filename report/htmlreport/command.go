package htmlreport

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fpareto/fp/internal/shellword"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// TrainCommand returns the fp train command that reproduces (or resumes)
// the run of configuration c in folder out: the flags of every setting
// (runfolder.Settings) that applies to c and differs from d, fp train's
// defaults (experiments.CommandDefaults).
func TrainCommand(c, d runfolder.Config, out string) string {
	args := []string{"fp", "train"}
	// config.json stores the resolved architecture and batch size: name
	// them unless they are the dataset's defaults.
	arch, batch := "", 0
	switch c.Dataset {
	case "compas":
		arch, batch = "4x4", 150
	case "adult-sex", "adult-race":
		arch, batch = "10x32", 1000
	}
	// fp train keeps half of a CSV's test rows as selection rows and none
	// of a built-in dataset's (experiments.DefaultSelectFraction), and 0.2
	// of its training rows for validation; a negative share is fp train's
	// default.
	selectDefault, valDefault := 0.0, 0.0
	if c.CSV != "" {
		selectDefault, valDefault = 0.5, 0.2
	}
	for _, s := range runfolder.Settings {
		if !s.Applies(&c) {
			continue
		}
		def := s.Value(&d)
		switch s.Key {
		case "dataset":
			if c.CSV != "" {
				continue
			}
		case "penalty":
			if c.Method == runfolder.MethodAdversarial {
				continue
			}
		case "batch":
			if c.Batch == 0 {
				continue
			}
			def = batch
		case "arch":
			if c.Arch == "" {
				continue
			}
			def = arch
		case "select_fraction":
			if c.SelectFraction < 0 {
				continue
			}
			def = selectDefault
		case "val_fraction":
			if c.ValFraction < 0 {
				continue
			}
			def = valDefault
		case "adv_clf_steps":
			// A matched budget stores the steps it gives; the budget alone
			// gives them again. 0 stands for the paper's 1.
			if c.AdvBudget == "matched" || c.AdvClfSteps == 0 {
				continue
			}
		case "lockstep":
			// fp train trains in lockstep wherever the configuration allows
			// it, so a backprop run of one network after another says so
			// (redundant, and harmless, where lockstep was not possible
			// anyway).
			if !c.Lockstep && c.Engine == "backprop" && !c.Conditioned && c.Method != runfolder.MethodAdversarial {
				args = append(args, "--lockstep=false")
			}
			continue
		}
		if s.Default != nil {
			// A stored zero stands for the default.
			if s.IsZero(&c) || s.IsDefault(&c) {
				continue
			}
			def = s.Default
		}
		args = append(args, flagArgs(s.Flag, s.Value(&c), def)...)
	}
	args = append(args, "--out", shellword.Quote(out))
	return strings.Join(args, " ")
}

// flagArgs are the arguments that set the flag to v, none where v is def.
func flagArgs(flag string, v, def any) []string {
	var text string
	switch v := v.(type) {
	case string:
		if v == def {
			return nil
		}
		text = shellword.Quote(v)
	case []string:
		d, _ := def.([]string)
		if slices.Equal(v, d) {
			return nil
		}
		text = shellword.Quote(runfolder.FormatList(v))
	case bool:
		switch {
		case v == def:
			return nil
		case v:
			return []string{"--" + flag}
		}
		return []string{"--" + flag + "=false"}
	case int:
		if v == def {
			return nil
		}
		text = strconv.Itoa(v)
	case uint64:
		if v == def {
			return nil
		}
		text = strconv.FormatUint(v, 10)
	case float64:
		if v == def {
			return nil
		}
		text = strconv.FormatFloat(v, 'g', -1, 64)
	default:
		panic(fmt.Sprintf("--%s: a setting of type %T", flag, v))
	}
	return []string{"--" + flag, text}
}

// PredictCommand is the fp predict command that applies the network at
// path to new data, as fp pick names it: NEW.csv stands for the new rows,
// whatever the run trained on (the training data would only give back its
// own, optimistic figures); a λ-conditioned network at the candidate's
// --lambda. It suits Options.Predict.
func PredictCommand(network string, rec *records.Record, _ *runfolder.Config) string {
	model := shellword.Quote(network)
	if rec != nil && rec.Conditioned {
		model += " --lambda " + records.FormatLambda(rec.Lambda)
	}
	return "fp predict --model " + model + " --data NEW.csv --out scores.csv"
}
