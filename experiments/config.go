package experiments

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"

	"github.com/fpareto/fp/adversarial"
	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Methods of a sweep.
const (
	MethodCheb        = runfolder.MethodCheb
	MethodLinear      = runfolder.MethodLinear
	MethodChebAug     = runfolder.MethodChebAug
	MethodAdversarial = runfolder.MethodAdversarial
	MethodThresholds  = runfolder.MethodThresholds
	MethodReductions  = runfolder.MethodReductions
)

// Config is one sweep: the data, the method and its objective, the grid, the
// training settings and the seed. Its stored part (runfolder.Config, every
// setting with a JSON key) is written beside the records (config.json) so
// that a folder always says what produced it; the fields here change no
// result or cannot be stored.
type Config struct {
	runfolder.Config

	// Workers is how many candidates train at once (0: one per CPU). It
	// does not change any result.
	Workers int `json:"-"`
	// Shard restricts the run to the splits of one shard.
	Shard Shard `json:"-"`
	// CustomPenalty, when set, is used instead of a built-in penalty; its
	// Name is the Penalty of the records and its Version enters the digest
	// (change it whenever the penalty's code changes). Library use only;
	// for the graph engine it is a penalties.Penalty (penalties.NewPenalty).
	CustomPenalty train.Term `json:"-"`
	// CustomRisk, when set, replaces the built-in BCE as the risk of every
	// network of the sweep (not of the propensity model); its name and
	// version enter the digest. Library use only; for the graph engine it is
	// a losses.Risk (losses.NewRisk).
	CustomRisk train.Term `json:"-"`
	// CustomScalarization, when set, combines R̃ and Ũ instead of a
	// built-in scalarization; Method must be its Name, and its Version
	// enters the digest. Library use only; for the graph engine it is a
	// scalarizations.Scalarization (scalarizations.New), and the
	// handwritten engine refuses it.
	CustomScalarization scalarize.Scalarization `json:"-"`
	// LockstepAuto leaves the lockstep mode to the sweep, in place of
	// Lockstep (which must then be false): a folder that already holds a
	// sweep keeps the mode it was made with, so that the same call resumes
	// it whatever the default was then, and a new one trains in lockstep
	// wherever the configuration allows it (LockstepPossible). fp train
	// without --lockstep sets it.
	LockstepAuto bool `json:"-"`
	// Args are the command-line arguments that started the run, as typed;
	// each run appends them with its start and end times to the folder's
	// runs.log (see runfolder.Invocation). They change no result.
	Args []string `json:"-"`

	// groups is R, the number of groups of the sensitive attribute, when
	// the data has more than two (docs/method.md §3.3); 0 otherwise. It
	// comes from the data (NewRunner), so a configuration validated before
	// the data is read checks the binary penalty.
	groups int
}

// Groups is R when the sweep's sensitive attribute has R > 2 groups, 0 for
// two groups.
func (c Config) Groups() int {
	return c.groups
}

// Coding is the meaning of y = 1 and a = 1 (Config.Coding).
type Coding = runfolder.Coding

// Shard i of n runs the splits m with m mod n = i. The zero value is "no sharding".
type Shard = runfolder.Shard

// ValFractionAuto asks for the data's default validation share: held-out
// stopping for a CSV, none for the built-in datasets, whose default
// reproduces the paper's protocol (500 epochs on the whole training split).
const ValFractionAuto = -1

// DefaultValFraction is the validation share of a CSV sweep by default.
const DefaultValFraction = 0.2

// SelectFractionAuto asks for the data's default selection share: half of
// each split's test rows for a CSV, none for the built-in datasets, whose
// default reproduces the paper's protocol (fronts decided on the test
// rows).
const SelectFractionAuto = -1

// DefaultSelectFraction is the share of a CSV sweep's test rows kept as
// selection rows by default.
const DefaultSelectFraction = 0.5

// MinGroupRows is the fewest rows of a group in a training split below which
// a sweep warns that the ATO estimates of that split are noisy: the count
// below which the overlap rule puts a finding down to the group's size.
const MinGroupRows = propensity.MinGroupRows

// DefaultConfig is `fp train` with no flags: a Chebyshev sweep with the
// penultimate-layer ATO penalty on the embedded COMPAS data.
func DefaultConfig() Config {
	return Config{Config: runfolder.Config{
		Dataset:          "compas",
		Method:           MethodCheb,
		Penalty:          penalties.NameATOPenultimate,
		Lambdas:          scalarize.DefaultGrid,
		Splits:           2,
		Epochs:           500,
		Dropout:          0.2,
		LR:               1e-3,
		PropensityEpochs: 100,
		ValFraction:      ValFractionAuto,
		SelectFraction:   SelectFractionAuto,
		AdvEpochs:        200,
		AdvPretrainClf:   2,
		AdvPretrainAdv:   5,
		AdvBetaScale:     1,
		AdvVersion:       adversarial.Version,
		AdvClfSteps:      1,
		Seed:             1,
		Engine:           DefaultEngine,
	}}
}

// FieldError is a configuration error in one field of Config, named by its
// JSON key (e.g. "epochs", "engine"), so that a front end can name the
// setting its users know (a command-line flag, say).
type FieldError struct {
	Field string // the Config field's JSON key
	Err   error
}

func (e *FieldError) Error() string { return "config: " + e.Field + ": " + e.Err.Error() }

func (e *FieldError) Unwrap() error { return e.Err }

// fieldErr returns a *FieldError for field with a formatted message.
func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Err: fmt.Errorf(format, args...)}
}

// Validate checks every field without reading any data, and asks the engine
// whether it can train what the method needs (Engine.Check): a penalty or
// risk of one's own, or the adversarial baseline, on an engine that cannot
// differentiate it is refused here, before anything is loaded or written.
// Errors are *FieldError values.
func (c Config) Validate() error {
	if c.Dataset == "" && c.CSV == "" {
		return &FieldError{Field: "dataset", Err: fmt.Errorf("give a built-in dataset or a CSV file")}
	}
	if c.Dataset != "" && c.CSV != "" {
		return fieldErr("csv", "give a built-in dataset (%q) or a CSV file (%q), not both", c.Dataset, c.CSV)
	}
	if len(c.Features) > 0 && len(c.Exclude) > 0 {
		return fieldErr("exclude", "give --features or --exclude, not both")
	}
	if c.Arch != "" {
		if _, err := model.ParseArch(c.Arch); err != nil {
			return &FieldError{Field: "arch", Err: err}
		}
	}
	eng, err := EngineByName(c.Engine)
	if err != nil {
		return &FieldError{Field: "engine", Err: err}
	}
	if c.CustomScalarization != nil {
		name := c.CustomScalarization.Name()
		switch {
		case scalarize.IsBuiltinName(name) || name == MethodAdversarial || name == "":
			return fieldErr("method", "a custom scalarization needs a name of its own, not %q", name)
		case c.Method != name:
			return fieldErr("method", "%q: with a custom scalarization the method is its name, %q", c.Method, name)
		}
	}
	if c.Method != MethodChebAug && c.Rho != 0 {
		return fieldErr("rho", "ρ = %g applies to the method cheb-aug only, not %q", c.Rho, c.Method)
	}
	if c.Method == MethodChebAug {
		if err := scalarize.ValidateRho(c.Rho); err != nil {
			return &FieldError{Field: "rho", Err: err}
		}
	}
	if err := c.checkConstrained(); err != nil {
		return err
	}
	method := c.Method
	if c.CustomScalarization != nil {
		method = MethodCheb // checked above: the method is its name
	}
	switch method {
	case MethodCheb, MethodLinear, MethodChebAug:
		if c.CustomPenalty == nil {
			if _, err := penalties.Builtin(c.Penalty); err != nil {
				return &FieldError{Field: "penalty", Err: err}
			}
		}
	case MethodAdversarial:
		if c.AdvEpochs < 1 {
			return fieldErr("adv_epochs", "%d adversarial rounds, want ≥ 1", c.AdvEpochs)
		}
		if c.AdvPretrainClf < 0 || c.AdvPretrainAdv < 0 {
			return fieldErr("adv_pretrain_clf", "pre-training epochs %d (classifier) and %d (adversary), want ≥ 0", c.AdvPretrainClf, c.AdvPretrainAdv)
		}
		if !(c.AdvBetaScale > 0) {
			return fieldErr("adv_beta_scale", "β scale %g, want > 0", c.AdvBetaScale)
		}
		if c.AdvVersion != adversarial.VersionLouppe && c.AdvVersion != adversarial.VersionEvalFreshAdam {
			return fieldErr("adv_version", "schedule version %d, want %d (one optimizer, the adversary on training-mode output) or %d (the earlier schedule)",
				c.AdvVersion, adversarial.VersionLouppe, adversarial.VersionEvalFreshAdam)
		}
		if c.CustomRisk != nil {
			return fieldErr("risk", "the adversarial baseline trains on the built-in risk, not %q", c.CustomRisk.Name())
		}
		if err := c.checkAdvBudget(); err != nil {
			return err
		}
	case MethodThresholds, MethodReductions:
		// checkConstrained checked them.
	default:
		return fieldErr("method", "%q: want cheb, linear, cheb-aug, adversarial, thresholds or reductions", c.Method)
	}
	if err := c.checkBounds(); err != nil {
		return err
	}
	if _, _, err := c.lambdaGrid(); err != nil {
		return err
	}
	switch {
	case c.Splits < 1:
		return fieldErr("splits", "%d, want ≥ 1", c.Splits)
	case c.Epochs < 1:
		return fieldErr("epochs", "%d, want ≥ 1", c.Epochs)
	case c.Batch < 0:
		return fieldErr("batch", "%d, want ≥ 1 (or 0 for the dataset's default)", c.Batch)
	case !(c.Dropout >= 0 && c.Dropout < 1):
		return fieldErr("dropout", "%g, want a value in [0, 1)", c.Dropout)
	case !(c.LR > 0):
		return fieldErr("lr", "learning rate %g, want > 0", c.LR)
	case c.PropensityEpochs < 1:
		return fieldErr("propensity_epochs", "%d, want ≥ 1", c.PropensityEpochs)
	case c.ValFraction != ValFractionAuto && !(c.ValFraction >= 0 && c.ValFraction <= 0.5):
		return fieldErr("val_fraction", "%g, want a value in [0, 0.5] (0: no validation part)", c.ValFraction)
	case c.ValFraction > 0 && c.Method == MethodAdversarial:
		return fieldErr("val_fraction", "the adversarial baseline trains on a fixed schedule (docs/method.md §6) without held-out stopping; use 0")
	case c.SelectFraction != SelectFractionAuto && !(c.SelectFraction >= 0 && c.SelectFraction < 1):
		return fieldErr("select_fraction", "%g, want a value in [0, 1) (0: no selection rows)", c.SelectFraction)
	case c.Threshold != 0 && !(c.Threshold > 0 && c.Threshold < 1):
		return fieldErr("threshold", "%g, want a probability in (0, 1) (0.5 by default)", c.Threshold)
	case c.TrainFraction < 0 || c.TrainFraction >= 1:
		return fieldErr("train_fraction", "%g, want a value in (0, 1)", c.TrainFraction)
	case c.TrainSize < 0:
		return fieldErr("train_size", "%d, want ≥ 0", c.TrainSize)
	case c.TestSize < 0:
		return fieldErr("test_size", "%d, want ≥ 0", c.TestSize)
	case c.Workers < 0:
		return fieldErr("workers", "%d, want ≥ 0", c.Workers)
	}
	if err := c.Shard.Validate(); err != nil {
		return &FieldError{Field: "shard", Err: err}
	}
	if err := c.checkConditioned(eng); err != nil {
		return err
	}
	req, err := c.requirements()
	if err != nil {
		return err
	}
	if err := eng.Check(req); err != nil {
		if c.Method == MethodAdversarial {
			err = fmt.Errorf("the adversarial baseline trains its classifier through the adversary: %w", err)
		}
		return &FieldError{Field: "engine", Err: err}
	}
	if c.Lockstep {
		if c.LockstepAuto {
			return fieldErr("lockstep", "lockstep is both asked for and left to the sweep: set Lockstep or LockstepAuto, not both")
		}
		if err := c.checkLockstep(eng); err != nil {
			return err
		}
	}
	return c.checkMemory()
}

// LockstepPossible reports whether c, set to train in lockstep, is valid:
// an engine that can (the backprop engine), the cheb, linear or cheb-aug method, a
// fixed grid and terms that engine trains. fp train trains in lockstep by
// default wherever it is: its fronts are those of one network after
// another within the per-split noise, and it is faster
// (results/compas.md, "Lockstep training").
func (c Config) LockstepPossible() bool {
	c.Lockstep, c.LockstepAuto = true, false
	err := c.Validate()
	// Free memory is the machine's state, not the configuration's: the
	// choice must not change with it (a resumed run keeps its mode), so a
	// sweep too large for memory is refused in lockstep, not moved off it.
	return err == nil || tooBigForMemory(err)
}

// scalarization is the sweep's scalarization: the custom one or the
// built-in of Method (with ρ for cheb-aug); nil for the adversarial
// baseline.
func (c Config) scalarization() (scalarize.Scalarization, error) {
	if c.Method == MethodAdversarial {
		return nil, nil
	}
	if c.CustomScalarization != nil {
		return c.CustomScalarization, nil
	}
	s, err := scalarize.Builtin(scalarize.Method(c.Method), c.Rho)
	if err != nil {
		return nil, &FieldError{Field: "method", Err: err}
	}
	return s, nil
}

// checkLockstep refuses what cannot train in lockstep, one reason each.
func (c Config) checkLockstep(eng train.Engine) error {
	if _, ok := eng.(train.GroupEngine); !ok {
		return fieldErr("lockstep", "the %s engine cannot train candidates in lockstep; use the backprop engine", eng.Name())
	}
	if c.Method == MethodAdversarial {
		return fieldErr("lockstep", "the adversarial baseline alternates classifier and adversary steps and cannot train in lockstep")
	}
	if c.constrained() {
		return fieldErr("lockstep", "the %s method trains (or fits) its candidates one by one and cannot train in lockstep", c.Method)
	}
	if scalarize.IsAdaptive(c.Lambdas) {
		return fieldErr("lockstep", "%q: the adaptive grid places λ in rounds after the coarse grid and cannot train in lockstep; give a fixed grid (log:N, linear:N or a list)", c.Lambdas)
	}
	return nil
}

// requirements are what the sweep asks of its engine.
func (c Config) requirements() (train.Requirements, error) {
	if c.Method == MethodAdversarial {
		return adversarial.Requirements(), nil
	}
	if c.constrained() {
		// The networks minimise the risk alone; the penalty only measures
		// train_u.
		pen, err := c.penalty()
		return train.Requirements{Penalty: pen, Risk: c.CustomRisk}, err
	}
	pen, err := c.penalty()
	if err != nil {
		return train.Requirements{}, err
	}
	s, err := c.scalarization()
	if err != nil {
		return train.Requirements{}, err
	}
	return train.Requirements{Penalty: pen, Risk: c.CustomRisk, Scalarization: s,
		PenaltyBeforeFiLM: c.Conditioned && c.FiLMPenalty == train.PenaltyBeforeFiLM}, nil
}

// penalty is the sweep's penalty: the custom one or the built-in named by
// Penalty, those that decide (dp-rate, eo-rate) at the sweep's threshold.
func (c Config) penalty() (train.Term, error) {
	name := c.Penalty
	if c.constrained() {
		// The constraint's mean gap of the probabilities: what a record's
		// train_u and val_u measure for these methods.
		name = constraintPenalty(c.Constraint)
	}
	if c.CustomPenalty != nil {
		if c.groups > 2 && train.TermGroups(c.CustomPenalty) != c.groups {
			return nil, fieldErr("penalty", "the custom penalty %s compares two groups, but the sensitive attribute has %d; give a train.GroupTerm of %d groups or a built-in penalty",
				c.CustomPenalty.Name(), c.groups, c.groups)
		}
		return c.CustomPenalty, nil
	}
	p, err := penalties.BuiltinAt(name, c.threshold())
	if err != nil {
		return nil, &FieldError{Field: "penalty", Err: err}
	}
	if c.groups > 2 {
		// The R-group form: the spread of the overlap-weighted group means
		// in place of |τ̂| (docs/method.md §3.3). Two groups keep p.
		g, err := penalties.ForGroups(p, c.groups)
		if err != nil {
			return nil, &FieldError{Field: "penalty", Err: err}
		}
		return g, nil
	}
	return p, nil
}

// Resolved checks the config (Validate), fills the dataset-dependent
// defaults (validation share, architecture and batch size, docs/method.md §2) and
// records the names and versions of custom terms, so that they enter the
// digest. nTrain is the number of rows in a training split; the CSV batch
// default is ≈5% of the rows the networks train on (without the validation
// part). LockstepAuto becomes the mode it gives a new folder.
func (c Config) Resolved(nTrain int) (Config, error) {
	if err := c.Validate(); err != nil {
		return c, err
	}
	c = c.lockstepChosen()
	c.ValFraction = c.resolvedValFraction()
	c.SelectFraction = c.resolvedSelectFraction()
	if c.ValFraction > 0 {
		nTrain -= int(math.Round(c.ValFraction * float64(nTrain)))
	}
	if c.Arch == "" || c.Batch == 0 {
		arch, batch := "4x16", int(math.Round(0.05*float64(nTrain)))
		// A variant with groups (compas-race4) has its base dataset's rows.
		switch datasets.Base(c.Dataset) {
		case "compas":
			arch, batch = "4x4", 150
		case "adult-sex", "adult-race":
			arch, batch = "10x32", 1000
		}
		if c.Arch == "" {
			c.Arch = arch
		}
		if c.Batch == 0 {
			c.Batch = max(1, batch)
		}
	}
	if c.ConditionedArch != "" {
		// The same architecture as the rest is the default: the same
		// digest.
		if ca, err := model.ParseArch(c.ConditionedArch); err == nil {
			if a, _ := model.ParseArch(c.Arch); ca == a {
				c.ConditionedArch = ""
			}
		}
	}
	if c.CSV != "" {
		c.CSV = filepath.Clean(c.CSV)
	}
	switch c.Method {
	case MethodThresholds, MethodReductions:
		// The constraint is the second part of the candidates' keys, as a
		// penalty is of the penalty methods'.
		if c.Constraint == "" {
			c.Constraint = runfolder.ConstraintDP
		}
		c.Penalty, c.PenaltyVersion = c.Constraint, ""
		c.AdvVersion, c.AdvClfSteps, c.AdvBudget = 0, 0, ""
	case MethodAdversarial:
		c.Penalty, c.PenaltyVersion = "", ""
		k, err := c.advClfSteps(nTrain)
		if err != nil {
			return c, err
		}
		if c.AdvBudget == AdvBudgetPaper {
			c.AdvBudget = ""
		}
		// K = 1 is kept as 0, outside the digest: folders of the paper's
		// schedule keep theirs.
		c.AdvClfSteps = k
		if k == 1 {
			c.AdvClfSteps = 0
		}
	default:
		c.AdvVersion = 0 // not a setting of these methods
		c.AdvClfSteps, c.AdvBudget = 0, ""
		if c.CustomPenalty != nil {
			c.Penalty, c.PenaltyVersion = c.CustomPenalty.Name(), c.CustomPenalty.Version()
		}
	}
	if c.CustomRisk != nil {
		c.Risk, c.RiskVersion = c.CustomRisk.Name(), c.CustomRisk.Version()
	}
	if c.CustomScalarization != nil {
		c.ScalarizationVersion = c.CustomScalarization.Version()
	}
	if c.Conditioned {
		if c.FiLMWidth == 0 {
			c.FiLMWidth = model.DefaultFiLMWidth
		}
		if c.LambdaDraw == "" {
			c.LambdaDraw = train.DefaultDraw
		}
		// The default is stored as "", so that the digests of sweeps made
		// before the setting existed stay theirs.
		if c.FiLMPenalty == train.PenaltyAfterFiLM {
			c.FiLMPenalty = ""
		}
	}
	if c.Workers == 0 {
		c.Workers = runtime.NumCPU()
	}
	return c, nil
}

// resolvedValFraction is ValFraction with ValFractionAuto replaced by the
// data's default.
func (c Config) resolvedValFraction() float64 {
	switch {
	case c.ValFraction != ValFractionAuto:
		return c.ValFraction
	case c.CSV != "" && c.Method != MethodAdversarial:
		return DefaultValFraction
	}
	return 0
}

// resolvedSelectFraction is SelectFraction with SelectFractionAuto
// replaced by the data's default.
func (c Config) resolvedSelectFraction() float64 {
	switch {
	case c.SelectFraction != SelectFractionAuto:
		return c.SelectFraction
	case c.CSV != "":
		return DefaultSelectFraction
	}
	return 0
}

// Digest identifies everything in the config that changes results: two
// configs with the same digest produce the same records
// (runfolder.Config.Digest).
func (c Config) Digest() string { return c.Config.Digest() }

// Diff lists the settings in which c and d differ, as "name: a → b".
func (c Config) Diff(d Config) []string { return c.Config.Diff(d.Config) }

// The classifier budgets of the adversarial baseline (Config.AdvBudget,
// docs/method.md §6).
const (
	// AdvBudgetPaper is the paper's: Config.AdvClfSteps steps per round
	// (1 unless set). It is stored as "".
	AdvBudgetPaper = "paper"
	// AdvBudgetMatched gives the classifier at least as many Adam steps as
	// a Chebyshev network of the same sweep: K = ⌈(E·B − P·B)/rounds⌉ steps
	// per round, E the epochs, B the batches per epoch, P the classifier's
	// pre-training epochs.
	AdvBudgetMatched = "matched"
)

// checkAdvBudget refuses a classifier budget that cannot be trained or
// contradicts another setting; the check that needs the data's size is in
// advClfSteps.
func (c Config) checkAdvBudget() error {
	if c.AdvClfSteps < 0 {
		return fieldErr("adv_clf_steps", "%d classifier steps per round, want ≥ 1", c.AdvClfSteps)
	}
	switch c.AdvBudget {
	case "", AdvBudgetPaper:
	case AdvBudgetMatched:
		if c.AdvPretrainClf >= c.Epochs {
			return fieldErr("adv_budget", "matched: the classifier's %d pre-training epochs already reach the %d epochs of the sweep; lower --adv-pretrain-clf or give --adv-clf-steps",
				c.AdvPretrainClf, c.Epochs)
		}
	default:
		return fieldErr("adv_budget", "%q: want paper (--adv-clf-steps per round) or matched (as many classifier steps as --epochs gives a Chebyshev network)", c.AdvBudget)
	}
	if c.AdvVersion == adversarial.VersionEvalFreshAdam && (c.AdvClfSteps > 1 || c.AdvBudget == AdvBudgetMatched) {
		return fieldErr("adv_clf_steps", "more than one classifier step per round needs --adv-version %d, not %d", adversarial.VersionLouppe, c.AdvVersion)
	}
	return nil
}

// advClfSteps is the classifier's steps per round on training splits of
// nTrain rows: AdvClfSteps (0 for 1) under the paper's budget, the matched
// budget's K under AdvBudgetMatched. A K given beside the matched budget
// must be the one it gives (so that a resolved configuration resolves to
// itself); any other is a contradiction.
func (c Config) advClfSteps(nTrain int) (int, error) {
	if c.AdvBudget != AdvBudgetMatched {
		return max(c.AdvClfSteps, 1), nil
	}
	k := AdvMatchedSteps(c.Epochs, c.AdvPretrainClf, c.AdvEpochs, nTrain, c.Batch)
	if c.AdvClfSteps > 1 && c.AdvClfSteps != k {
		return 0, fieldErr("adv_clf_steps", "%d contradicts --adv-budget matched, which gives %d steps per round here; give one of the two", c.AdvClfSteps, k)
	}
	return k, nil
}

// AdvMatchedSteps is K = ⌈(E·B − P·B)/rounds⌉ of AdvBudgetMatched, with
// B = ⌈n/batch⌉ the batches of an epoch over n rows (a batch larger than
// the data is the data), and at least 1.
func AdvMatchedSteps(epochs, pretrain, rounds, n, batch int) int {
	if n < 1 || batch < 1 || rounds < 1 {
		return 1
	}
	b := (n + min(batch, n) - 1) / min(batch, n)
	steps := (epochs - pretrain) * b
	return max(1, (steps+rounds-1)/rounds)
}

// AdvClfStepsTotal is the classifier's Adam steps over a whole adversarial
// run of c (resolved) on n training rows: P epochs of pre-training, then
// rounds × K.
func (c Config) AdvClfStepsTotal(n int) int {
	batch := min(c.Batch, n)
	return c.AdvPretrainClf*((n+batch-1)/batch) + c.AdvEpochs*max(c.AdvClfSteps, 1)
}

// StoredThreshold is the decision threshold t as the configuration stores
// it: 0 for the default, fairness.DefaultThreshold, so that a sweep at the
// default keeps the digest of folders written before thresholds existed.
func StoredThreshold(t float64) float64 {
	if t == fairness.DefaultThreshold {
		return 0
	}
	return t
}

// threshold is the sweep's decision threshold.
func (c Config) threshold() float64 { return fairness.ThresholdOr(c.Threshold) }
