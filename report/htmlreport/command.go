package htmlreport

import (
	"github.com/fpareto/fp/internal/shellword"
	"strconv"
	"strings"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// TrainCommand returns the fp train command that reproduces (or resumes)
// the run of configuration c in folder out: the flags of every setting that
// differs from d, fp train's defaults as its flags state them
// (experiments.CommandDefaults: ρ and the λ draw included).
func TrainCommand(c, d runfolder.Config, out string) string {
	args := []string{"fp", "train"}
	str := func(flag, v, def string) {
		if v != def {
			args = append(args, "--"+flag, shellword.Quote(v))
		}
	}
	num := func(flag string, v, def float64) {
		if v != def {
			args = append(args, "--"+flag, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	if c.CSV != "" {
		str("data", c.CSV, "")
		str("target", c.Target, "")
		str("sensitive", c.Sensitive, "")
		str("positive", c.Positive, "")
		str("sensitive-positive", c.SensitivePositive, "")
		if c.DropMissing {
			args = append(args, "--drop-missing")
		}
	} else {
		str("dataset", c.Dataset, d.Dataset)
		str("preset", c.Preset, "")
	}
	str("sensitive-levels", strings.Join(c.SensitiveLevels, ","), "")
	str("group-map", strings.Join(c.GroupMap, ","), "")
	num("min-group-rows", float64(c.MinGroupRows), 0)
	str("data-dir", c.DataDir, "")
	str("features", strings.Join(c.Features, ","), "")
	str("exclude", strings.Join(c.Exclude, ","), "")
	str("method", c.Method, d.Method)
	if c.Method == runfolder.MethodChebAug {
		num("rho", c.Rho, d.Rho)
	}
	if c.Method != runfolder.MethodAdversarial {
		str("penalty", c.Penalty, d.Penalty)
	}
	num("splits", float64(c.Splits), float64(d.Splits))
	str("lambdas", c.Lambdas, d.Lambdas)
	num("epochs", float64(c.Epochs), float64(d.Epochs))
	// config.json stores the resolved architecture and batch size: name
	// them unless they are the dataset's defaults.
	arch, batch := "", 0
	switch c.Dataset {
	case "compas":
		arch, batch = "4x4", 150
	case "adult-sex", "adult-race":
		arch, batch = "10x32", 1000
	}
	if c.Batch != 0 {
		num("batch", float64(c.Batch), float64(batch))
	}
	if c.Arch != "" {
		str("arch", c.Arch, arch)
	}
	num("dropout", c.Dropout, d.Dropout)
	num("lr", c.LR, d.LR)
	num("train-fraction", c.TrainFraction, 0)
	num("train-size", float64(c.TrainSize), 0)
	num("test-size", float64(c.TestSize), 0)
	// fp train keeps half of a CSV's test rows as selection rows and none
	// of a built-in dataset's (experiments.DefaultSelectFraction).
	selectDefault := 0.0
	if c.CSV != "" {
		selectDefault = 0.5
	}
	if c.SelectFraction >= 0 { // a negative share is fp train's default
		num("select-fraction", c.SelectFraction, selectDefault)
	}
	// Likewise the validation share: 0.2 of a CSV's training rows, none of
	// a built-in dataset's.
	valDefault := 0.0
	if c.CSV != "" {
		valDefault = 0.2
	}
	if c.ValFraction >= 0 {
		num("val-fraction", c.ValFraction, valDefault)
	}
	num("propensity-epochs", float64(c.PropensityEpochs), float64(d.PropensityEpochs))
	num("threshold", c.Threshold, 0)
	if c.Method == runfolder.MethodAdversarial {
		num("beta-scale", c.AdvBetaScale, d.AdvBetaScale)
		num("adv-rounds", float64(c.AdvEpochs), float64(d.AdvEpochs))
		num("adv-pretrain-clf", float64(c.AdvPretrainClf), float64(d.AdvPretrainClf))
		num("adv-pretrain-adv", float64(c.AdvPretrainAdv), float64(d.AdvPretrainAdv))
		// A matched budget stores the steps it gives; the budget alone
		// gives them again.
		if c.AdvBudget == "matched" {
			args = append(args, "--adv-budget", "matched")
		} else if c.AdvClfSteps != 0 {
			num("adv-clf-steps", float64(c.AdvClfSteps), float64(d.AdvClfSteps))
		}
	}
	if c.Conditioned {
		args = append(args, "--conditioned")
		if c.FiLMWidth != 0 {
			num("film-width", float64(c.FiLMWidth), float64(model.DefaultFiLMWidth))
		}
		if c.FiLMOutput {
			args = append(args, "--film-output")
		}
		if c.LambdaDraw != "" {
			str("lambda-draw", c.LambdaDraw, d.LambdaDraw)
		}
		str("eval-lambdas", c.EvalLambdas, "")
		num("schedule-rows", float64(c.ScheduleRows), 0)
		str("film-penalty", c.FiLMPenalty, "")
		num("conditioned-epochs", float64(c.ConditionedEpochs), 0)
		str("conditioned-lr", c.ConditionedLR, "")
		num("lambdas-per-step", float64(c.LambdasPerStep), 0)
		str("conditioned-arch", c.ConditionedArch, "")
	}
	// fp train trains in lockstep wherever the configuration allows it, so
	// a backprop run of one network after another says so (redundant, and
	// harmless, where lockstep was not possible anyway).
	if !c.Lockstep && c.Engine == "backprop" && !c.Conditioned && c.Method != runfolder.MethodAdversarial {
		args = append(args, "--lockstep=false")
	}
	if c.Seed != d.Seed {
		args = append(args, "--seed", strconv.FormatUint(c.Seed, 10))
	}
	str("engine", c.Engine, d.Engine)
	args = append(args, "--out", shellword.Quote(out))
	return strings.Join(args, " ")
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
