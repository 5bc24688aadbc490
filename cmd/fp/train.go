package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
	"github.com/urfave/cli/v2/altsrc"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/internal/printable"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/progress"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

func init() { register(trainCommand()) }

func trainCommand() *cli.Command {
	d := experiments.DefaultConfig()
	flags := []cli.Flag{
		&cli.StringFlag{Name: "config", Usage: "read settings from a YAML (.yaml, .yml), TOML (.toml) or JSON (.json, e.g. a run's config.json) `FILE`: keys are flag names or config.json's keys; flags given on the command line win"},
		altsrc.NewStringFlag(&cli.StringFlag{Name: "dataset", Value: d.Dataset, Usage: "built-in dataset: compas, adult-sex or adult-race, or one with its sensitive attribute in groups, compas-race4 or adult-race5 (see fp datasets)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "preset", Usage: "adult preset: paper or full", DefaultText: "paper"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "data-dir", Usage: "read the original data files from `DIR` instead of the embedded copies"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "data", Usage: "train on a CSV `FILE` (or a Parquet file, when its name ends in .parquet) instead of a built-in dataset (with --target and --sensitive)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "target", Usage: "CSV: the label column (two values)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "sensitive", Usage: "CSV: the sensitive-attribute column (two values), or several `COLUMNS`, comma-separated, for the groups of their intersection"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "positive", Usage: "CSV: the label value coded 1"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "sensitive-positive", Usage: "CSV: the sensitive value coded 1; with more than two values, that value against the rest"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "sensitive-levels", Usage: "the sensitive attribute in groups: all (every value its own group) or `VALUES`, comma-separated (those values, the rest together as \"other\"); two groups train as the binary a they code, more train as R groups (docs/method.md §1.9)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "group-map", Usage: "put sensitive values in groups of your naming before --sensitive-levels and --min-group-rows act: `VALUE=GROUP` entries, comma-separated (for several --sensitive columns, VALUE is a combination, v1*v2); a GROUP named other joins the rest; without --sensitive-levels, every group is kept (all)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "min-group-rows", Usage: "with groups: a value (or a group of --group-map) with fewer than `N` rows in the data joins the group \"other\"", DefaultText: "30"}),
		altsrc.NewBoolFlag(&cli.BoolFlag{Name: "drop-missing", Usage: "CSV: drop rows with an empty cell in a column in use (target, sensitive, the features kept) instead of failing"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "features", Usage: "use only these source `COLUMNS` as features, comma-separated (names as in the file's header, not encoded ones such as col=level; default: every column but the target and the sensitive one)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "exclude", Usage: "leave these source `COLUMNS` out of the features, comma-separated (an identifier, a name, a column that stands in for the sensitive attribute); not with --features"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "method", Value: d.Method, Usage: "cheb (Chebyshev), linear, cheb-aug (augmented Chebyshev, with --rho) or adversarial (the baseline of Louppe et al.)"}),
		altsrc.NewFloat64Flag(&cli.Float64Flag{Name: "rho", Value: scalarize.DefaultRho, Usage: "cheb-aug: ρ of max{(1−λ)R̃, λŨ} + ρ((1−λ)R̃ + λŨ), > 0; refused with the other methods"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "penalty", Value: d.Penalty, Usage: "unfairness penalty: " + strings.Join(penalties.BuiltinNames, ", ") + " (docs/method.md §3.3)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "splits", Value: d.Splits, Usage: "number of train/test splits M"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "lambdas", Value: d.Lambdas, Usage: "λ grid: log:N, linear:N, a list such as 0,0.01,0.1,1 (0 and 1 are always added), or adaptive:N (N per split: log:⌈N/3⌉ first, then each λ where the split's front on training data has its widest gap)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "epochs", Value: d.Epochs, Usage: "training epochs per candidate (the paper uses 500)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "batch", Usage: "mini-batch size", DefaultText: "automatic: 150 for compas, 1000 for adult, ≈5% of the training rows for a CSV"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "arch", Usage: "architecture LxH: L linear layers, H hidden units (default: 4x4 compas, 10x32 adult, 4x16 CSV)"}),
		altsrc.NewFloat64Flag(&cli.Float64Flag{Name: "dropout", Value: d.Dropout, Usage: "dropout probability after every hidden layer"}),
		altsrc.NewFloat64Flag(&cli.Float64Flag{Name: "lr", Value: d.LR, Usage: "Adam's initial learning rate"}),
		altsrc.NewFloat64Flag(&cli.Float64Flag{Name: "train-fraction", Usage: "share of the rows in each training split", DefaultText: "0.5"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "train-size", Usage: "rows in each training split (instead of --train-fraction)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "test-size", Usage: "rows in each test split", DefaultText: "the rows not in the training split"}),
		altsrc.NewFloat64Flag(&cli.Float64Flag{Name: "val-fraction", Value: d.ValFraction, DefaultText: "0.2 for --data, 0 for built-in datasets", Usage: "keep this share `F` of each training split aside and keep each network's epoch with the best validation objective (0: train on all of it for every epoch, the paper's protocol)"}),
		altsrc.NewFloat64Flag(&cli.Float64Flag{Name: "threshold", Value: fairness.DefaultThreshold, Usage: "the decision threshold `T`: a row is selected when its predicted probability is ≥ T; accuracy and the decision metrics (dp_diff, dp_ratio, eo_diff, eopp_diff) are taken at it; part of the configuration unless 0.5"}),
		altsrc.NewFloat64Flag(&cli.Float64Flag{Name: "select-fraction", Value: d.SelectFraction, DefaultText: "0.5 for --data, 0 for built-in datasets; an existing --out folder keeps its fraction", Usage: "keep this share `F` of each split's test rows (as --test-size draws them) as selection rows: fronts and picks are decided on their metrics (sel_*), the test metrics come from the remaining test rows (0: none, the paper's protocol); part of the configuration"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "propensity-epochs", Value: d.PropensityEpochs, Usage: "training epochs of the propensity network"}),
		altsrc.NewFloat64Flag(&cli.Float64Flag{Name: "beta-scale", Value: d.AdvBetaScale, Usage: "adversarial: β = λ × this scale (the paper's β lie in [0, 1]; the code its adversary came from used 30 to 200)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "adv-rounds", Value: d.AdvEpochs, Usage: "adversarial: rounds of (one adversary epoch, one classifier step)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "adv-pretrain-clf", Value: d.AdvPretrainClf, Usage: "adversarial: classifier pre-training epochs"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "adv-version", Value: d.AdvVersion, Usage: "adversarial: training schedule, 2 (one classifier optimizer from pre-training on, the adversary trained on the classifier's training-mode output as in Louppe et al.'s code) or 1 (the earlier schedule: evaluation-mode output, a fresh optimizer after pre-training)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "adv-clf-steps", Value: d.AdvClfSteps, Usage: "adversarial: classifier Adam steps per round (1: the paper's)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "adv-budget", Value: experiments.AdvBudgetPaper, Usage: "adversarial: the classifier's budget, paper (--adv-clf-steps per round) or matched (⌈(epochs·B − pretrain·B)/rounds⌉ steps per round, B the batches per epoch: at least a Chebyshev network's steps)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "adv-pretrain-adv", Value: d.AdvPretrainAdv, Usage: "adversarial: adversary pre-training epochs"}),
		altsrc.NewUint64Flag(&cli.Uint64Flag{Name: "seed", Value: d.Seed, Usage: "the sweep's seed: splits, weights, dropout masks and batch order derive from it"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "engine", Value: d.Engine, Usage: "graph (Gorgonia, extensible) or backprop (handwritten, fast, built-in objectives only)"}),
		altsrc.NewBoolFlag(&cli.BoolFlag{Name: "lockstep", Usage: "train a split's candidates together on one shared batch order, each with its own weights, dropout masks and optimizer (about 4× faster on COMPAS): on wherever the configuration allows it (the backprop engine, cheb, linear or cheb-aug, a fixed grid, built-in terms; an existing --out folder keeps its mode); --lockstep=false trains one network after another; part of the configuration", DefaultText: "where possible"}),
		altsrc.NewBoolFlag(&cli.BoolFlag{Name: "conditioned", Usage: "per split, train one λ-conditioned network (after the λ = 0 and λ = 1 runs) instead of one network per λ, and record it at every λ of the grid (docs/method.md §12); not with adaptive:N, the adversarial method or --lockstep; part of the configuration"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "film-width", Value: model.DefaultFiLMWidth, Usage: "--conditioned: units of the conditioning network's hidden layer"}),
		altsrc.NewBoolFlag(&cli.BoolFlag{Name: "film-output", Usage: "--conditioned: the conditioning network modulates the output layer's logit too, γ_out(λ)·z + δ_out(λ), besides every hidden layer (docs/method.md §12)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "conditioned-arch", DefaultText: "--arch", Usage: "--conditioned: architecture `LxH` of the conditioned network; the λ = 0 and λ = 1 networks, whose extremes standardize its objective, keep --arch (docs/method.md §12)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "lambdas-per-step", DefaultText: "1", Usage: "--conditioned: train each step at `K` λ drawn together (stratified over the log-uniform range), on the mean of their objectives: one Adam step for K gradients (docs/method.md §12)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "lambda-draw", Value: train.DefaultDraw, Usage: "--conditioned: the λ each training step draws, log-uniform (on [smallest positive λ of the grid, 1]) or grid (one of the grid's λ in (0, 1), each as likely)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "conditioned-epochs", DefaultText: "--epochs", Usage: "--conditioned: training epochs `N` of the conditioned network; the λ = 0 and λ = 1 runs, whose extremes standardize its objective, keep --epochs (docs/method.md §12)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "conditioned-lr", DefaultText: "the plateau schedule", Usage: "--conditioned: constant trains the conditioned network at --lr throughout instead of lowering it on plateaus of its mean objective over the grid (docs/method.md §12)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "schedule-rows", Usage: "--conditioned: measure the plateau schedule's mean objective on at most `N` training rows, drawn once per split (0: every training row)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "film-penalty", Value: train.PenaltyAfterFiLM, Usage: "--conditioned: where a penalty on hidden layers reads them, after the modulation (the layers the network at λ computes) or before it (graph engine only; not with ato-output) (docs/method.md §12)"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "eval-lambdas", Usage: "--conditioned: also record the network at this λ `GRID` (syntax of --lambdas, e.g. log:64); its λ not in --lambdas are marked eval_only"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "workers", Usage: "candidates trained at once; does not change results", DefaultText: "automatic: the number of CPUs"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "shard", Usage: "run shard `i/n` only: the splits m with m mod n = i (default: from a Slurm array task, SLURM_ARRAY_TASK_*)"}),
		altsrc.NewIntFlag(&cli.IntFlag{Name: "shards", Usage: "the sweep has `N` shards; this run's index is JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm array 0…N−1 or a resubmission of some of its IDs)", DefaultText: "automatic: from a Slurm array, else not sharded"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "out", Usage: "output folder; rerun the same command to resume", DefaultText: "runs/DATASET-METHOD-PENALTY"}),
		altsrc.NewStringFlag(&cli.StringFlag{Name: "metric", Value: "ato", Usage: "unfairness metric of the front shown at the end: ato, dp, eo or eopp"}),
		decideFlag(),
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress output"},
		&cli.BoolFlag{Name: "no-plot", Usage: "do not draw the front figure at the end"},
		&cli.BoolFlag{Name: jsonFlag, Usage: "print the summary and the front at the end as JSON"},
	}
	return &cli.Command{
		Name:  "train",
		Usage: "find the fairness–accuracy Pareto front: train networks over splits × λ (Algorithm 1)",
		Description: "Trains one network per split and λ on the Chebyshev (or linear) scalarization of risk and\n" +
			"unfairness, scores each on its test split, appends one record per candidate to OUT/records.jsonl,\n" +
			"stores each network under OUT/networks, and ends with the front. Rerunning the same command\n" +
			"resumes: finished candidates are kept. Ctrl-C stops after writing what has finished.",
		Flags: flags,
		Before: func(c *cli.Context) error {
			path := c.String("config")
			if path == "" {
				return nil
			}
			coding, err := applyConfigFile(c, path)
			if coding != nil {
				if c.App.Metadata == nil {
					c.App.Metadata = map[string]any{}
				}
				c.App.Metadata[codingMeta] = coding
			}
			return err
		},
		Action: runTrain,
	}
}

// configFromFlags builds the sweep's configuration from the flags.
func configFromFlags(c *cli.Context) (experiments.Config, error) {
	cfg := experiments.DefaultConfig()
	cfg.Dataset = c.String("dataset")
	if c.String("data") != "" {
		if c.IsSet("dataset") {
			return cfg, fmt.Errorf("give --dataset or --data, not both")
		}
		cfg.Dataset, cfg.CSV = "", c.String("data")
	}
	cfg.Preset = c.String("preset")
	cfg.DataDir = c.String("data-dir")
	cfg.Target, cfg.Sensitive = c.String("target"), c.String("sensitive")
	cfg.Positive, cfg.SensitivePositive = c.String("positive"), c.String("sensitive-positive")
	cfg.DropMissing = c.Bool("drop-missing")
	cfg.SensitiveLevels, cfg.MinGroupRows = columnList(c.String("sensitive-levels")), c.Int("min-group-rows")
	cfg.GroupMap = columnList(c.String("group-map"))
	cfg.Features, cfg.Exclude = columnList(c.String("features")), columnList(c.String("exclude"))
	if cfg.Features != nil && cfg.Exclude != nil {
		return cfg, fmt.Errorf("give --features or --exclude, not both")
	}
	cfg.Method, cfg.Penalty = c.String("method"), c.String("penalty")
	if cfg.Method == experiments.MethodChebAug || c.IsSet("rho") {
		cfg.Rho = c.Float64("rho") // given with another method, Validate refuses it
	}
	cfg.Splits, cfg.Lambdas, cfg.Epochs = c.Int("splits"), c.String("lambdas"), c.Int("epochs")
	cfg.Batch, cfg.Arch = c.Int("batch"), c.String("arch")
	cfg.Dropout, cfg.LR = c.Float64("dropout"), c.Float64("lr")
	cfg.TrainFraction, cfg.TrainSize, cfg.TestSize = c.Float64("train-fraction"), c.Int("train-size"), c.Int("test-size")
	cfg.PropensityEpochs = c.Int("propensity-epochs")
	cfg.ValFraction = c.Float64("val-fraction")
	cfg.SelectFraction = c.Float64("select-fraction")
	cfg.Threshold = experiments.StoredThreshold(c.Float64("threshold"))
	cfg.AdvBetaScale, cfg.AdvEpochs = c.Float64("beta-scale"), c.Int("adv-rounds")
	cfg.AdvPretrainClf, cfg.AdvPretrainAdv = c.Int("adv-pretrain-clf"), c.Int("adv-pretrain-adv")
	cfg.AdvVersion = c.Int("adv-version")
	cfg.AdvClfSteps, cfg.AdvBudget = c.Int("adv-clf-steps"), c.String("adv-budget")
	cfg.Seed, cfg.Engine, cfg.Workers = c.Uint64("seed"), c.String("engine"), c.Int("workers")
	cfg.Conditioned = c.Bool("conditioned")
	// Given without --conditioned, Validate refuses them.
	if cfg.Conditioned || c.IsSet("film-width") {
		cfg.FiLMWidth = c.Int("film-width")
	}
	cfg.FiLMOutput = c.Bool("film-output")
	if cfg.Conditioned || c.IsSet("lambda-draw") {
		cfg.LambdaDraw = c.String("lambda-draw")
	}
	if c.IsSet("film-penalty") {
		cfg.FiLMPenalty = c.String("film-penalty")
	}
	cfg.EvalLambdas = c.String("eval-lambdas")
	cfg.ScheduleRows = c.Int("schedule-rows")
	cfg.ConditionedEpochs = c.Int("conditioned-epochs")
	cfg.ConditionedLR = c.String("conditioned-lr")
	cfg.LambdasPerStep = c.Int("lambdas-per-step")
	cfg.ConditionedArch = c.String("conditioned-arch")
	if cfg.Conditioned && cfg.LambdasPerStep == 1 {
		cfg.LambdasPerStep = 0 // one λ per step is the default: the same digest
	}
	if c.IsSet("lockstep") {
		cfg.Lockstep = c.Bool("lockstep")
	} else {
		cfg.LockstepAuto = true
	}
	cfg.Args = os.Args
	sh, err := shardFromContext(c, cfg)
	if err != nil {
		return cfg, err
	}
	cfg.Shard = sh
	return cfg, nil
}

// columnList splits a comma-separated list of column names, trimming each;
// nil for "". An empty name stays in the list, so that the data's check
// refuses it.
func columnList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	for n := range strings.SplitSeq(s, ",") {
		out = append(out, strings.TrimSpace(n))
	}
	return out
}

// configFlags maps the Config fields whose flag is not the JSON key with
// dashes for underscores.
var configFlags = map[string]string{
	"csv":            "data",
	"adv_epochs":     "adv-rounds",
	"adv_beta_scale": "beta-scale",
}

// flagError rewrites an *experiments.FieldError to name the flag that sets
// the field; other errors pass unchanged.
func flagError(err error) error {
	var fe *experiments.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	name, ok := configFlags[fe.Field]
	if !ok {
		name = strings.ReplaceAll(fe.Field, "_", "-")
	}
	return fmt.Errorf("--%s: %w", name, fe.Err)
}

// codingMeta is the key under which the Before of fp train leaves a config
// file's coding for runTrain to check against the data.
const codingMeta = "config-coding"

func runTrain(c *cli.Context) error {
	cfg, err := configFromFlags(c)
	if err != nil {
		return err
	}
	want, _ := c.App.Metadata[codingMeta].(*experiments.Coding)
	wantID, _ := c.App.Metadata[dataIDMeta].(string)
	if want != nil || wantID != "" {
		if err := checkCoding(want, wantID, cfg, c.String("config")); err != nil {
			return err
		}
	}
	// The metric of the front shown at the end is checked before training,
	// not after the sweep.
	if m := c.String("metric"); !slices.Contains(records.Metrics, m) {
		return fmt.Errorf("--metric %q: want one of %s", m, strings.Join(records.Metrics, ", "))
	}
	if _, err := records.ParseDecide(c.String("decide-on")); err != nil {
		return fmt.Errorf("--decide-on: %w", err)
	}
	out := c.String("out")
	if out == "" {
		out = experiments.DefaultOut(cfg)
	}
	var obs experiments.Observer = progress.Warnings{W: c.App.ErrWriter}
	if !c.Bool("quiet") {
		obs = progress.New(c.App.ErrWriter)
	}
	runner, err := experiments.NewRunner(cfg, out, obs)
	if err != nil {
		return flagError(err)
	}
	defer runner.Close()
	if rc := runner.Config(); rc.CSV != "" && rc.Coding != nil {
		// A CSV's 0/1 coding follows a rule; say what it made of this file.
		w := c.App.Writer
		if c.Bool(jsonFlag) {
			w = c.App.ErrWriter // standard output is the JSON document
		}
		if lv := runner.Levels(); lv != nil {
			// More than two groups train as groups, not as the binary a.
			q := make([]string, len(lv))
			for i, l := range lv {
				q[i] = strconv.Quote(l)
			}
			fmt.Fprintf(w, "coding: y = 1 means %s = %q; %d groups of %s: %s\n",
				printable.String(rc.Coding.Target), rc.Coding.TargetPositive, len(lv), printable.String(rc.Coding.Sensitive), strings.Join(q, ", "))
		} else {
			fmt.Fprintf(w, "coding: y = 1 means %s = %q; a = 1 means %s = %q\n",
				printable.String(rc.Coding.Target), rc.Coding.TargetPositive, printable.String(rc.Coding.Sensitive), rc.Coding.SensitivePositive)
		}
	}
	for _, s := range runner.Warnings() {
		fmt.Fprintln(c.App.ErrWriter, "warning: "+s)
	}

	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C ends the process at once
	}()
	sum, err := runner.Run(ctx)
	if p, ok := obs.(*progress.Sweep); ok {
		p.Finish()
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("interrupted: %d candidates recorded in %s; run the same command again to resume", sum.Resumed+sum.Trained, sum.Records)
	}
	if err != nil {
		return err
	}
	return showTrained(c, sum, out)
}
