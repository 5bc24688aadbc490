package runfolder

import (
	"reflect"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
)

// The categories of fp train's flags (Setting.Category).
const (
	CategoryData        = "data"
	CategoryMethod      = "method"
	CategoryTraining    = "training"
	CategoryOutput      = "output"
	CategoryAdversarial = "adversarial baseline"
	CategoryConditioned = "λ-conditioned network"
)

// The conditions under which a setting applies (Setting.Only).
const (
	// OnlyChebAug: the method cheb-aug.
	OnlyChebAug = "cheb-aug"
	// OnlyAdversarial: the method adversarial.
	OnlyAdversarial = "adversarial"
	// OnlyConditioned: a λ-conditioned sweep (Conditioned).
	OnlyConditioned = "conditioned"
	// OnlyConstrained: the methods thresholds and reductions.
	OnlyConstrained = "thresholds, reductions"
	// OnlyThresholds: the method thresholds.
	OnlyThresholds = "thresholds"
)

// A Setting is one stored setting of a sweep: a field of Config, its key in
// config.json and the flag of fp train that sets it. fp train's flags, the
// keys its --config file reads, the checks that refuse a setting given where
// it does not apply and the command that reproduces a run folder all come
// from Settings.
type Setting struct {
	Flag     string // fp train's flag, without the dashes
	Key      string // the key in config.json (Config's JSON tag)
	Category string // the group of fp train --help it is listed in
	// Only is the condition under which the setting applies (OnlyChebAug,
	// OnlyAdversarial, OnlyConditioned), "" where it always does. Outside
	// it, fp train keeps the value of experiments.DefaultConfig unless the
	// flag is given.
	Only string
	// Usage is the setting's help line, with the name of the flag's value
	// in backquotes where it has one; docs/settings.md says more.
	Usage string
	// DefaultText is the default the help shows where the flag's value
	// does not say it (a default that depends on the data, say).
	DefaultText string
	// Default is the flag's default where it is not the field's value in
	// experiments.DefaultConfig: the value a stored zero stands for. nil
	// elsewhere. A reader of run folders, runfolder imports neither the
	// trainer nor the scalarizations: the defaults that are theirs are
	// written here, and a test of experiments holds them to the library's.
	Default any
	// ZeroIsDefault stores the setting as its zero when its value is
	// Default, so that sweeps at the default keep the digest of folders
	// written before the setting existed.
	ZeroIsDefault bool
	// List settings are comma-separated on the command line (ParseList: a
	// name holding a comma in double quotes) and lists in config.json.
	List bool
	// Field is the setting's field of c: a *string, *int, *uint64,
	// *float64, *bool or, for a List, *[]string.
	Field func(c *Config) any
}

// Applies reports whether the setting applies to the sweep c.
func (s Setting) Applies(c *Config) bool {
	switch s.Only {
	case OnlyChebAug:
		return c.Method == MethodChebAug
	case OnlyAdversarial:
		return c.Method == MethodAdversarial
	case OnlyConditioned:
		return c.Conditioned
	case OnlyConstrained:
		return c.Method == MethodThresholds || c.Method == MethodReductions
	case OnlyThresholds:
		return c.Method == MethodThresholds
	}
	return true
}

// SettingByKey returns the setting with the config.json key key.
func SettingByKey(key string) (Setting, bool) {
	for _, s := range Settings {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}

// Settings are the stored settings of a sweep, in the order of fp train's
// help. Config's fields that are not here follow from the others or from
// library code (Coding, DataID, the custom terms' names and versions).
var Settings = []Setting{
	// Data.
	{Flag: "dataset", Key: "dataset", Category: CategoryData,
		Usage: "built-in dataset `NAME` (fp datasets lists them)",
		Field: func(c *Config) any { return &c.Dataset }},
	{Flag: "preset", Key: "preset", Category: CategoryData, DefaultText: "paper",
		Usage: "adult preset: paper or full",
		Field: func(c *Config) any { return &c.Preset }},
	{Flag: "data-dir", Key: "data_dir", Category: CategoryData,
		Usage: "read the original data files from `DIR`, not the embedded copies",
		Field: func(c *Config) any { return &c.DataDir }},
	{Flag: "data", Key: "csv", Category: CategoryData,
		Usage: "train on a CSV (or .parquet) `FILE`, with --target and --sensitive",
		Field: func(c *Config) any { return &c.CSV }},
	{Flag: "target", Key: "target", Category: CategoryData,
		Usage: "--data: the label `COLUMN` (two values)",
		Field: func(c *Config) any { return &c.Target }},
	{Flag: "sensitive", Key: "sensitive", Category: CategoryData,
		Usage: "--data: the sensitive `COLUMNS` (one, or several comma-separated)",
		Field: func(c *Config) any { return &c.Sensitive }},
	{Flag: "positive", Key: "positive", Category: CategoryData,
		Usage: "--data: the label `VALUE` coded 1 (with more values: against the rest)",
		Field: func(c *Config) any { return &c.Positive }},
	{Flag: "sensitive-positive", Key: "sensitive_positive", Category: CategoryData,
		Usage: "--data: the sensitive `VALUE` coded 1 (against the rest)",
		Field: func(c *Config) any { return &c.SensitivePositive }},
	{Flag: "sensitive-levels", Key: "sensitive_levels", Category: CategoryData, List: true,
		Usage: "the sensitive attribute in groups: all, or the `VALUES` kept",
		Field: func(c *Config) any { return &c.SensitiveLevels }},
	{Flag: "group-map", Key: "group_map", Category: CategoryData, List: true,
		Usage: "name groups of sensitive values: `VALUE=GROUP`, comma-separated",
		Field: func(c *Config) any { return &c.GroupMap }},
	{Flag: "min-group-rows", Key: "min_group_rows", Category: CategoryData, DefaultText: "30",
		Usage: "a group with fewer than `N` rows joins \"other\"",
		Field: func(c *Config) any { return &c.MinGroupRows }},
	{Flag: "drop-missing", Key: "drop_missing", Category: CategoryData,
		Usage: "--data: drop rows with an empty cell in a column in use",
		Field: func(c *Config) any { return &c.DropMissing }},
	{Flag: "features", Key: "features", Category: CategoryData, List: true,
		Usage: "use only these source `COLUMNS` as features (\"x,y\": one name)",
		Field: func(c *Config) any { return &c.Features }},
	{Flag: "exclude", Key: "exclude", Category: CategoryData, List: true,
		Usage: "leave these source `COLUMNS` out of the features (\"x,y\": one name)",
		Field: func(c *Config) any { return &c.Exclude }},
	{Flag: "splits", Key: "splits", Category: CategoryData,
		Usage: "number `M` of train/test splits",
		Field: func(c *Config) any { return &c.Splits }},
	{Flag: "train-fraction", Key: "train_fraction", Category: CategoryData, DefaultText: "0.5",
		Usage: "share `F` of the rows in each training split",
		Field: func(c *Config) any { return &c.TrainFraction }},
	{Flag: "train-size", Key: "train_size", Category: CategoryData,
		Usage: "`N` rows in each training split (instead of --train-fraction)",
		Field: func(c *Config) any { return &c.TrainSize }},
	{Flag: "test-size", Key: "test_size", Category: CategoryData, DefaultText: "the rest",
		Usage: "`N` rows in each test split",
		Field: func(c *Config) any { return &c.TestSize }},
	{Flag: "val-fraction", Key: "val_fraction", Category: CategoryData, DefaultText: "0.2 CSV, else 0",
		Usage: "share `F` of training rows to stop on",
		Field: func(c *Config) any { return &c.ValFraction }},
	{Flag: "select-fraction", Key: "select_fraction", Category: CategoryData, DefaultText: "0.5 CSV, else 0",
		Usage: "share `F` of test rows kept to select on",
		Field: func(c *Config) any { return &c.SelectFraction }},

	// Method.
	{Flag: "method", Key: "method", Category: CategoryMethod,
		Usage: "cheb|linear|cheb-aug|adversarial|thresholds|reductions",
		Field: func(c *Config) any { return &c.Method }},
	{Flag: "constraint", Key: "constraint", Category: CategoryMethod, Only: OnlyConstrained, Default: ConstraintDP,
		Usage: "thresholds, reductions: the constraint `C`, dp or eo",
		Field: func(c *Config) any { return &c.Constraint }},
	{Flag: "base-run", Key: "base_run", Category: CategoryMethod, Only: OnlyThresholds, DefaultText: "train them",
		Usage: "thresholds: the λ = 0 networks of run folder `RUN`",
		Field: func(c *Config) any { return &c.BaseRun }},
	{Flag: "rho", Key: "rho", Category: CategoryMethod, Only: OnlyChebAug, Default: 0.01, // scalarize.DefaultRho
		Usage: "cheb-aug: the augmentation's weight `ρ` > 0",
		Field: func(c *Config) any { return &c.Rho }},
	{Flag: "penalty", Key: "penalty", Category: CategoryMethod,
		Usage: "unfairness penalty `NAME` (docs/method.md §3.3)",
		Field: func(c *Config) any { return &c.Penalty }},
	{Flag: "lambdas", Key: "lambdas", Category: CategoryMethod,
		Usage: "λ `GRID`: log:N, linear:N, adaptive:N or a list 0,0.1,1",
		Field: func(c *Config) any { return &c.Lambdas }},
	{Flag: "threshold", Key: "threshold", Category: CategoryMethod, Default: fairness.DefaultThreshold, ZeroIsDefault: true,
		Usage: "decision threshold `T` of accuracy and the decision metrics",
		Field: func(c *Config) any { return &c.Threshold }},
	{Flag: "propensity-epochs", Key: "propensity_epochs", Category: CategoryMethod,
		Usage: "training epochs `N` of the propensity network",
		Field: func(c *Config) any { return &c.PropensityEpochs }},

	// Training.
	{Flag: "epochs", Key: "epochs", Category: CategoryTraining,
		Usage: "training epochs `N` per candidate (the paper's: 500)",
		Field: func(c *Config) any { return &c.Epochs }},
	{Flag: "batch", Key: "batch", Category: CategoryTraining, DefaultText: "the dataset's",
		Usage: "mini-batch size `N`",
		Field: func(c *Config) any { return &c.Batch }},
	{Flag: "arch", Key: "arch", Category: CategoryTraining, DefaultText: "the dataset's",
		Usage: "`LxH`: L linear layers of H hidden units",
		Field: func(c *Config) any { return &c.Arch }},
	{Flag: "dropout", Key: "dropout", Category: CategoryTraining,
		Usage: "dropout probability `P` after every hidden layer",
		Field: func(c *Config) any { return &c.Dropout }},
	{Flag: "lr", Key: "lr", Category: CategoryTraining,
		Usage: "Adam's initial learning rate `R`",
		Field: func(c *Config) any { return &c.LR }},
	{Flag: "seed", Key: "seed", Category: CategoryTraining,
		Usage: "the sweep's seed `N`",
		Field: func(c *Config) any { return &c.Seed }},
	{Flag: "engine", Key: "engine", Category: CategoryTraining,
		Usage: "`NAME`: graph (extensible) or backprop (fast, built-in terms)",
		Field: func(c *Config) any { return &c.Engine }},
	{Flag: "lockstep", Key: "lockstep", Category: CategoryTraining, DefaultText: "where possible",
		Usage: "train a split's candidates together (=false: one by one)",
		Field: func(c *Config) any { return &c.Lockstep }},

	// The adversarial baseline.
	{Flag: "beta-scale", Key: "adv_beta_scale", Category: CategoryAdversarial, Only: OnlyAdversarial,
		Usage: "β = λ × `S`",
		Field: func(c *Config) any { return &c.AdvBetaScale }},
	{Flag: "adv-rounds", Key: "adv_epochs", Category: CategoryAdversarial, Only: OnlyAdversarial,
		Usage: "`N` rounds of (one adversary epoch, one classifier step)",
		Field: func(c *Config) any { return &c.AdvEpochs }},
	{Flag: "adv-pretrain-clf", Key: "adv_pretrain_clf", Category: CategoryAdversarial, Only: OnlyAdversarial,
		Usage: "classifier pre-training epochs `N`",
		Field: func(c *Config) any { return &c.AdvPretrainClf }},
	{Flag: "adv-pretrain-adv", Key: "adv_pretrain_adv", Category: CategoryAdversarial, Only: OnlyAdversarial,
		Usage: "adversary pre-training epochs `N`",
		Field: func(c *Config) any { return &c.AdvPretrainAdv }},
	{Flag: "adv-version", Key: "adv_version", Category: CategoryAdversarial, Only: OnlyAdversarial,
		Usage: "schedule `V`: 2 (Louppe et al.'s) or 1 (the earlier one)",
		Field: func(c *Config) any { return &c.AdvVersion }},
	{Flag: "adv-clf-steps", Key: "adv_clf_steps", Category: CategoryAdversarial, Only: OnlyAdversarial,
		Usage: "classifier Adam steps `K` per round (the paper's: 1)",
		Field: func(c *Config) any { return &c.AdvClfSteps }},
	{Flag: "adv-budget", Key: "adv_budget", Category: CategoryAdversarial, Only: OnlyAdversarial, Default: "paper", ZeroIsDefault: true,
		Usage: "classifier budget `B`: paper or matched (method.md §6)",
		Field: func(c *Config) any { return &c.AdvBudget }},

	// The λ-conditioned network.
	{Flag: "conditioned", Key: "conditioned", Category: CategoryConditioned,
		Usage: "per split, one λ-conditioned network instead of one per λ",
		Field: func(c *Config) any { return &c.Conditioned }},
	{Flag: "film-width", Key: "film_width", Category: CategoryConditioned, Only: OnlyConditioned, Default: model.DefaultFiLMWidth,
		Usage: "units `N` of the conditioning network's hidden layer",
		Field: func(c *Config) any { return &c.FiLMWidth }},
	{Flag: "film-output", Key: "film_output", Category: CategoryConditioned, Only: OnlyConditioned,
		Usage: "modulate the output layer's logit too",
		Field: func(c *Config) any { return &c.FiLMOutput }},
	{Flag: "conditioned-arch", Key: "conditioned_arch", Category: CategoryConditioned, Only: OnlyConditioned, DefaultText: "--arch",
		Usage: "architecture `LxH` of the conditioned network",
		Field: func(c *Config) any { return &c.ConditionedArch }},
	{Flag: "lambdas-per-step", Key: "lambdas_per_step", Category: CategoryConditioned, Only: OnlyConditioned, Default: 1, ZeroIsDefault: true,
		Usage: "`K` λ drawn together for each training step",
		Field: func(c *Config) any { return &c.LambdasPerStep }},
	{Flag: "lambda-draw", Key: "lambda_draw", Category: CategoryConditioned, Only: OnlyConditioned, Default: "log-uniform", // train.DefaultDraw
		Usage: "the λ `D` of a training step: log-uniform or grid",
		Field: func(c *Config) any { return &c.LambdaDraw }},
	{Flag: "conditioned-epochs", Key: "conditioned_epochs", Category: CategoryConditioned, Only: OnlyConditioned, DefaultText: "--epochs",
		Usage: "training epochs `N` of the conditioned network",
		Field: func(c *Config) any { return &c.ConditionedEpochs }},
	{Flag: "conditioned-lr", Key: "conditioned_lr", Category: CategoryConditioned, Only: OnlyConditioned, DefaultText: "plateau schedule",
		Usage: "`S`: constant trains at --lr throughout",
		Field: func(c *Config) any { return &c.ConditionedLR }},
	{Flag: "schedule-rows", Key: "schedule_rows", Category: CategoryConditioned, Only: OnlyConditioned, DefaultText: "all",
		Usage: "training rows `N` the plateau schedule is measured on",
		Field: func(c *Config) any { return &c.ScheduleRows }},
	{Flag: "film-penalty", Key: "film_penalty", Category: CategoryConditioned, Only: OnlyConditioned,
		Default: "after", ZeroIsDefault: true, // train.PenaltyAfterFiLM
		Usage: "`W`: the penalty reads the layers after or before FiLM",
		Field: func(c *Config) any { return &c.FiLMPenalty }},
	{Flag: "eval-lambdas", Key: "eval_lambdas", Category: CategoryConditioned, Only: OnlyConditioned,
		Usage: "also record the network at this λ `GRID` (eval_only)",
		Field: func(c *Config) any { return &c.EvalLambdas }},
}

// Value is the setting's value in c.
func (s Setting) Value(c *Config) any {
	return reflect.ValueOf(s.Field(c)).Elem().Interface()
}

// Copy sets the setting in dst to its value in src.
func (s Setting) Copy(dst, src *Config) {
	reflect.ValueOf(s.Field(dst)).Elem().Set(reflect.ValueOf(s.Field(src)).Elem())
}

// IsZero reports whether the setting is its zero in c.
func (s Setting) IsZero(c *Config) bool {
	return reflect.ValueOf(s.Field(c)).Elem().IsZero()
}

// IsDefault reports whether the setting in c is its Default (false where
// Default is nil).
func (s Setting) IsDefault(c *Config) bool {
	return s.Default != nil && s.Value(c) == s.Default
}

// StoreZero sets the setting in c to its zero where it is its Default and
// ZeroIsDefault says that the zero stands for it.
func (s Setting) StoreZero(c *Config) {
	if s.ZeroIsDefault && s.IsDefault(c) {
		v := reflect.ValueOf(s.Field(c)).Elem()
		v.Set(reflect.Zero(v.Type()))
	}
}
