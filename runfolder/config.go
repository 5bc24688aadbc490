package runfolder

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/records"
)

// Methods of a sweep.
const (
	MethodCheb        = "cheb"
	MethodLinear      = "linear"
	MethodChebAug     = "cheb-aug"
	MethodAdversarial = "adversarial"
	// MethodThresholds fits group-specific decision thresholds to each
	// split's λ = 0 network (docs/method.md §13.1).
	MethodThresholds = "thresholds"
	// MethodReductions is the reductions approach's grid search over the
	// Lagrange multipliers of a DP or EO constraint (docs/method.md §13.2).
	MethodReductions = "reductions"
)

// The constraints of the thresholds and reductions methods (Config.Constraint).
const (
	ConstraintDP = "dp"
	ConstraintEO = "eo"
)

// Family is the family of methods of the sweep's method, as its records
// carry it (records.Record.Family).
func (c *Config) Family() string {
	switch c.Method {
	case MethodAdversarial:
		return records.FamilyAdversarial
	case MethodThresholds:
		return records.FamilyThresholds
	case MethodReductions:
		return records.FamilyReductions
	}
	return records.FamilyPenalty
}

// ConfigFile is the name of the configuration stored in an output folder.
const ConfigFile = "config.json"

// Config is the stored part of a sweep's configuration: the data, the
// method and its objective, the grid, the training settings and the seed,
// every setting that has a JSON key. Its JSON form is stored beside the
// records (config.json) so that a folder always says what produced it.
// experiments.Config embeds it with the settings that change no result or
// cannot be stored (workers, shard, custom terms, the command line).
type Config struct {
	// Data: a built-in dataset (Dataset, Preset) or a CSV file.
	Dataset           string `json:"dataset,omitempty"`
	Preset            string `json:"preset,omitempty"`
	CSV               string `json:"csv,omitempty"`
	Target            string `json:"target,omitempty"`
	Sensitive         string `json:"sensitive,omitempty"`
	Positive          string `json:"positive,omitempty"`
	SensitivePositive string `json:"sensitive_positive,omitempty"`
	DropMissing       bool   `json:"drop_missing,omitempty"`
	// SensitiveLevels asks for the sensitive attribute in groups
	// (docs/method.md §1.9): ["all"], or the values kept as groups of their
	// own. MinGroupRows is the fewest rows of a group (0:
	// datasets.DefaultMinGroupRows). Both are empty without groups, so a
	// configuration without them has the digest it always had.
	SensitiveLevels []string `json:"sensitive_levels,omitempty"`
	MinGroupRows    int      `json:"min_group_rows,omitempty"`
	// GroupMap puts values in groups of the user's naming before
	// SensitiveLevels and MinGroupRows act: VALUE=GROUP entries, in the
	// order given (datasets.GroupOptions.Map). Empty without a map, so a
	// configuration without one has the digest it always had.
	GroupMap []string `json:"group_map,omitempty"`
	// Features keeps only these source columns as features; Exclude keeps
	// every feature column but these (give one or neither). Names are
	// source columns, checked against the data before anything trains.
	Features []string `json:"features,omitempty"`
	Exclude  []string `json:"exclude,omitempty"`
	// DataDir reads the original data files from a folder instead of the
	// embedded copies (same data, so not part of the digest).
	DataDir string `json:"data_dir,omitempty"`

	Method  string `json:"method"`  // cheb, linear, cheb-aug, adversarial or a custom scalarization's name
	Penalty string `json:"penalty"` // a built-in (penalties.BuiltinNames) or a custom penalty's name; "" for adversarial
	// PenaltyVersion is a custom penalty's Version ("" for the built-ins):
	// a changed penalty changes the digest, so its records are not resumed.
	PenaltyVersion string `json:"penalty_version,omitempty"`
	// Risk and RiskVersion name a custom risk ("" for the built-in BCE).
	Risk        string `json:"risk,omitempty"`
	RiskVersion string `json:"risk_version,omitempty"`
	// Rho is ρ of the augmented Chebyshev scalarization (cheb-aug); 0 for
	// the other methods, so that their digests are those of folders
	// written before it existed.
	Rho float64 `json:"rho,omitempty"`
	// ScalarizationVersion is a custom scalarization's Version ("" for the
	// built-ins); its name is Method.
	ScalarizationVersion string `json:"scalarization_version,omitempty"`
	Lambdas              string `json:"lambdas"` // λ grid (β grid for adversarial): log:N, linear:N, adaptive:N or a list
	// Constraint is the fairness constraint the thresholds and reductions
	// methods trade accuracy against (ConstraintDP, ConstraintEO); "" for
	// the other methods, whose digests stay those of folders written
	// before it existed. Those two methods also carry it as Penalty, the
	// second part of their candidates' keys.
	Constraint string `json:"constraint,omitempty"`
	// BaseRun is the run folder whose λ = 0 networks the thresholds method
	// post-processes (same data and seed); "" trains them as the λ = 0
	// network of a sweep.
	BaseRun string `json:"base_run,omitempty"`

	Splits        int     `json:"splits"`
	TrainFraction float64 `json:"train_fraction,omitempty"`
	TrainSize     int     `json:"train_size,omitempty"`
	TestSize      int     `json:"test_size,omitempty"`

	Epochs  int     `json:"epochs"`
	Batch   int     `json:"batch,omitempty"` // 0: the dataset's default
	Arch    string  `json:"arch,omitempty"`  // "LxH"; "": the dataset's default
	Dropout float64 `json:"dropout"`
	LR      float64 `json:"lr"`

	PropensityEpochs int `json:"propensity_epochs"`

	// ValFraction keeps this share of every training split aside (stratified
	// by label and group): the networks train on the rest, are scored on it
	// after every epoch, and each keeps the network of its epoch with the
	// lowest validation objective. 0 trains on the whole split for all
	// epochs (the paper's protocol); experiments.ValFractionAuto (the
	// default) is experiments.DefaultValFraction for a CSV and 0 for the
	// built-in datasets.
	ValFraction float64 `json:"val_fraction,omitempty"`

	// SelectFraction sets this share of every split's test rows aside as
	// selection rows (stratified by label and group, drawn from a generator
	// of their own, so that it changes no other draw): records carry the
	// candidates' metrics on them (sel_*), fronts and picks are decided on
	// those, and the test metrics come from the remaining test rows
	// (docs/method.md §1.4). 0 keeps none (the paper's protocol);
	// experiments.SelectFractionAuto (the default) is
	// experiments.DefaultSelectFraction for a CSV and 0 for the built-in
	// datasets.
	SelectFraction float64 `json:"select_fraction,omitempty"`

	// Adversarial baseline (docs/method.md §6).
	AdvEpochs      int `json:"adv_epochs,omitempty"`
	AdvPretrainClf int `json:"adv_pretrain_clf,omitempty"`
	AdvPretrainAdv int `json:"adv_pretrain_adv,omitempty"`
	// AdvBetaScale multiplies the grid to give β: the paper draws β from
	// [0, 1]; the public code its adversary came from used β of 30 to 200.
	AdvBetaScale float64 `json:"adv_beta_scale,omitempty"`
	// AdvVersion is the baseline's training schedule
	// (adversarial.VersionLouppe, the default, or the earlier
	// adversarial.VersionEvalFreshAdam); 0 for the other methods. It enters
	// the digest, so records of the two schedules are never mixed.
	AdvVersion int `json:"adv_version,omitempty"`
	// AdvClfSteps is the classifier's Adam steps per round; 0 stands for
	// 1, the paper's, so that folders of the paper's schedule keep their
	// digest. AdvBudget "matched" derives it from the sweep (docs/method.md
	// §6); "" is the paper's budget.
	AdvClfSteps int    `json:"adv_clf_steps,omitempty"`
	AdvBudget   string `json:"adv_budget,omitempty"`

	// Threshold is the decision threshold of accuracy and the decision
	// metrics (docs/method.md §7.2): a row is selected when its predicted
	// probability is at least Threshold. 0 stands for the default, 0.5, so
	// that configurations at the default keep the digest they always had.
	Threshold float64 `json:"threshold,omitempty"`

	Seed   uint64 `json:"seed"`
	Engine string `json:"engine"` // graph or backprop
	// Lockstep trains the candidates of a split together (docs/method.md
	// §5): the λ = 0 and λ = 1 runs as one group, then the other λ as
	// another, each group on one shared batch order, each network with its
	// own weights, dropout masks, Adam state and plateau schedule. It needs
	// an engine that can (train.GroupEngine) and a fixed grid
	// (experiments.Config.LockstepPossible).
	Lockstep bool `json:"lockstep,omitempty"`

	// Conditioned trains, per split, one λ-conditioned network after the
	// λ = 0 and λ = 1 runs instead of one network per λ, and records it at
	// every λ of the grid (docs/method.md §12). FiLMWidth is its
	// conditioning network's width, LambdaDraw the distribution of the λ
	// it trains at (train.Draws), EvalLambdas an optional denser grid it is
	// also recorded at (records marked eval_only), ScheduleRows the most
	// training rows its schedule is measured on (0: all of them). All five
	// are zero for a sweep of one network per λ, so that its digest is that
	// of folders written before they existed. FiLMPenalty is "before" when
	// the penalty reads the hidden layers before the modulation
	// (train.PenaltyBeforeFiLM), and "" for the default, after it, so that
	// the digests of sweeps made before it existed stay theirs.
	// ConditionedEpochs is the epochs the conditioned network trains, 0 for
	// Epochs (the λ = 0 and λ = 1 runs train Epochs either way); 0 keeps
	// the digests of sweeps made before it existed. ConditionedLR is
	// "constant" when the conditioned network trains at a constant learning
	// rate instead of the plateau schedule, "" for the schedule.
	// FiLMOutput has the conditioning network modulate the output layer's
	// logit too (model.FiLM.Output); false keeps the digests of sweeps made
	// before it existed. LambdasPerStep is the number of λ each of the
	// conditioned network's steps trains at (train.ConditionedOptions.PerStep),
	// 0 for one, so that the digests of sweeps made before it existed stay
	// theirs. ConditionedArch is the conditioned network's architecture
	// ("" for Arch; the λ = 0 and λ = 1 networks train with Arch either
	// way), "" keeping the digests of sweeps made before it existed.
	Conditioned       bool   `json:"conditioned,omitempty"`
	FiLMWidth         int    `json:"film_width,omitempty"`
	LambdaDraw        string `json:"lambda_draw,omitempty"`
	EvalLambdas       string `json:"eval_lambdas,omitempty"`
	ScheduleRows      int    `json:"schedule_rows,omitempty"`
	FiLMPenalty       string `json:"film_penalty,omitempty"`
	ConditionedEpochs int    `json:"conditioned_epochs,omitempty"`
	ConditionedLR     string `json:"conditioned_lr,omitempty"`
	FiLMOutput        bool   `json:"film_output,omitempty"`
	LambdasPerStep    int    `json:"lambdas_per_step,omitempty"`
	ConditionedArch   string `json:"conditioned_arch,omitempty"`

	// Coding records which raw target and sensitive values the data coded
	// 1; experiments.NewRunner fills it. It follows from the other
	// settings, so it is not part of the digest.
	Coding *Coding `json:"coding,omitempty"`
	// DataID is the identity of the rows trained on (datasets.Dataset.ID);
	// experiments.NewRunner fills it. Runs with the same DataID and seed
	// have the same splits and are compared split by split. It follows from
	// the data, so it is not part of the digest.
	DataID string `json:"data_id,omitempty"`
}

// Coding is the meaning of y = 1 and a = 1: the raw values of the target
// and the sensitive column that the data coded 1.
type Coding struct {
	Target            string `json:"target"`
	TargetPositive    string `json:"target_positive"`
	Sensitive         string `json:"sensitive"`
	SensitivePositive string `json:"sensitive_positive"`
}

// Digest identifies everything in the config that changes results: two
// configs with the same digest produce the same records. Records carry it
// (records.Record.Config), so it must never change for a stored folder.
func (c Config) Digest() string {
	d := c
	d.DataDir = ""
	d.Coding = nil
	d.DataID = ""
	b, _ := json.Marshal(d) // a struct of plain fields always marshals
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:6])
}

// Diff lists the settings in which c and d differ, as "name: a → b".
func (c Config) Diff(d Config) []string {
	var a, b map[string]any
	ja, _ := json.Marshal(c)
	jb, _ := json.Marshal(d)
	_ = json.Unmarshal(ja, &a)
	_ = json.Unmarshal(jb, &b)
	var out []string
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	for _, k := range sortedKeys(keys) {
		if k == "data_dir" || k == "coding" || k == "data_id" {
			continue
		}
		if fmt.Sprint(a[k]) != fmt.Sprint(b[k]) {
			out = append(out, fmt.Sprintf("%s: %v → %v", k, show(a[k]), show(b[k])))
		}
	}
	return out
}

func show(v any) any {
	if v == nil {
		return "(unset)"
	}
	return v
}

func sortedKeys(m map[string]bool) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	sort.Strings(k)
	return k
}

// Claim writes dir/config.json, or checks that the one there matches c: a
// folder belongs to one configuration, so another one is refused, naming
// the settings that differ.
func Claim(dir string, c Config) error {
	path := filepath.Join(dir, ConfigFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		nb, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			return err
		}
		return writeAtomic(path, append(nb, '\n'))
	}
	if err != nil {
		return fmt.Errorf("output folder: %w", err)
	}
	var old Config
	if err := json.Unmarshal(b, &old); err != nil {
		return fmt.Errorf("%s: not an fp configuration: %w", path, err)
	}
	if old.Digest() != c.Digest() {
		return fmt.Errorf("%s was made by another configuration (%s); use another --out, or the same settings to resume",
			dir, strings.Join(old.Diff(c), ", "))
	}
	return nil
}

// ReadConfig reads the configuration stored in an output folder.
func ReadConfig(dir string) (Config, error) {
	var c Config
	b, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if err != nil {
		return c, fmt.Errorf("read configuration: %w", err)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", filepath.Join(dir, ConfigFile), err)
	}
	return c, nil
}

// DataFile names the file that the networks of the run in dir read: the
// run's CSV, or the built-in dataset's original file; "" when the folder
// holds no readable configuration.
func DataFile(dir string) string {
	cfg, err := ReadConfig(dir)
	switch {
	case err != nil:
		return ""
	case cfg.CSV != "":
		return cfg.CSV
	}
	return datasets.OriginalFile(cfg.Dataset)
}
