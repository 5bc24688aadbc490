package records

import (
	"fmt"
	"strconv"
	"strings"
)

// Status values of a record.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// Record is one trained candidate: what was trained, how, and its test
// metrics (docs/method.md §7, §9). The JSON key names are fixed so that any tool can
// read the files.
//
// A failed candidate (its loss diverged) has Status "failed", FailEpoch and
// FailReason set and zero metrics; every fp tool leaves such records out of
// fronts and plots.
type Record struct {
	Dataset string `json:"dataset"`
	Preset  string `json:"preset"`
	// Sensitive names the sensitive column; for a sensitive attribute of
	// R > 2 groups it names the column(s), joined by ",", and the levels
	// in code order: "race[African-American|Caucasian|Hispanic|other]".
	Sensitive string `json:"sensitive"`
	// GroupCounts are, for R > 2 groups, the test rows of each group, by
	// level; absent for two groups.
	GroupCounts map[string]int `json:"group_counts,omitempty"`
	Method      string         `json:"method"`
	Penalty     string         `json:"penalty"`
	// Family is the kind of method that made the candidate (FamilyPenalty,
	// FamilyAdversarial, FamilyReductions, FamilyThresholds); "" in records
	// written before it was recorded, which Family reads by rule.
	FamilyName string `json:"family,omitempty"`
	// UsesSensitive marks a candidate whose decision reads the sensitive
	// attribute at prediction time (group thresholds): it cannot decide a
	// row without the row's group. Absent otherwise.
	UsesSensitive bool `json:"uses_sensitive,omitempty"`
	// Multipliers are a reductions candidate's Lagrange multipliers, one per
	// constraint of the moment (docs/method.md §13); absent for the other
	// families.
	Multipliers []float64 `json:"multipliers,omitempty"`
	Split       int       `json:"split"`
	Lambda      float64   `json:"lambda"`
	Seed        uint64    `json:"seed"`
	Engine      string    `json:"engine"`
	Arch        string    `json:"arch"`
	Batch       int       `json:"batch"`
	Epochs      int       `json:"epochs"`
	Dim         int       `json:"dim"`
	NTrain      int       `json:"n_train"`
	NTest       int       `json:"n_test"`

	// EngineVersion is the engine's numerical implementation (e.g.
	// "backprop/2"); EngineMode is "lockstep" for a network trained in
	// lockstep with the other candidates of its split, "" otherwise.
	EngineVersion string `json:"engine_version,omitempty"`
	EngineMode    string `json:"engine_mode,omitempty"`

	RMin float64 `json:"r_min"`
	RMax float64 `json:"r_max"`
	UMin float64 `json:"u_min"`
	UMax float64 `json:"u_max"`

	TrainSeconds   float64 `json:"train_seconds"`
	SkippedBatches int     `json:"skipped_batches"`
	// Collapsed marks a constant predictor: the predicted probabilities on
	// the test split vary by less than 1e-6 (docs/method.md §2).
	Collapsed bool `json:"collapsed"`
	// SingleClass marks a candidate that predicts one class for every test
	// row (every predicted probability on one side of 0.5): whatever its
	// unfairness, it is no real choice.
	SingleClass bool `json:"single_class"`
	// NearConstant marks a candidate whose predicted probabilities on the
	// test rows have a standard deviation below 1e-3: not a constant
	// predictor, but one whose scores barely rank the rows.
	NearConstant bool `json:"near_constant,omitempty"`
	// ConstRisk is the test risk of the constant predictor at the base rate
	// of the split's training rows (docs/method.md §7): a candidate whose
	// risk is not below it is no better than that constant. Nil in records
	// written before it was recorded and in failed ones.
	ConstRisk *float64 `json:"const_risk,omitempty"`
	// ConstError is the test error of the same constant predictor: it
	// predicts the training majority class for every row. Nil in records
	// written before it was recorded.
	ConstError *float64 `json:"const_error,omitempty"`
	// MajorityShare is the share of the test rows given the more frequent
	// decision (ŷ = 1{p ≥ Threshold}): near 1, the network decides almost
	// every row alike (NearSingleClass). Nil in records written before it
	// was recorded.
	MajorityShare *float64 `json:"majority_share,omitempty"`
	// Threshold is the decision threshold of accuracy and the decision
	// metrics (a row is selected when p ≥ Threshold); 0, and not written, for
	// the default fairness.DefaultThreshold.
	Threshold float64 `json:"threshold,omitempty"`

	Risk     float64 `json:"risk"`
	Accuracy float64 `json:"accuracy"`
	ATO      float64 `json:"ato"`
	DP       float64 `json:"dp"`
	EO       float64 `json:"eo"`
	EOpp     float64 `json:"eopp"`

	// Decision holds the decision metrics on the test rows
	// (docs/method.md §7.2); nil in records written before they were
	// recorded. Its fields are promoted: r.DPDiff and so on (check
	// r.HasDecision first).
	*Decision

	// Selection holds the metrics on the split's selection rows when the
	// sweep kept some (docs/method.md §1.4); nil otherwise, and then none of
	// its keys is written. Its fields are promoted: r.SelRisk and so on
	// (check r.HasSelection first).
	*Selection

	Weights string `json:"weights"`
	// Conditioned marks a candidate scored from a λ-conditioned network
	// (docs/method.md §12): Weights is then the split's one fp-network/3
	// file, shared by every λ of the split, and the candidate is that
	// network folded at Lambda. Absent for plain networks.
	Conditioned bool `json:"conditioned,omitempty"`
	// EvalOnly marks a conditioned candidate at a λ of the denser
	// evaluation grid that is not in the training grid; such candidates
	// are left out of comparisons with grid runs.
	EvalOnly bool `json:"eval_only,omitempty"`
	// FiLMPenalty is "before" on a conditioned candidate whose penalty read
	// the hidden layers before the modulation (docs/method.md §12); absent
	// for the default, after it.
	FiLMPenalty string `json:"film_penalty,omitempty"`
	// BetaScale is the adversarial baseline's β scale (β = λ·scale); 0
	// for the other methods.
	BetaScale float64 `json:"beta_scale,omitempty"`
	// Rho is ρ of the augmented Chebyshev scalarization (method cheb-aug);
	// 0, and not written, for the other methods.
	Rho float64 `json:"rho,omitempty"`
	// Lambdas is the sweep's λ grid as given (log:N, linear:N, adaptive:N or a list);
	// "" in records written before it was recorded.
	Lambdas string `json:"lambdas,omitempty"`
	// AdvVersion is the adversarial baseline's training schedule (see
	// package adversarial); 0 for the other methods and in records written
	// before the schedule had versions (which used version 1).
	AdvVersion int `json:"adv_version,omitempty"`
	// AdvClfSteps is the adversarial classifier's Adam steps per round and
	// AdvClfStepsTotal its steps over the run, pre-training included
	// (docs/method.md §6); both absent at the paper's one step per round.
	AdvClfSteps      int `json:"adv_clf_steps,omitempty"`
	AdvClfStepsTotal int `json:"adv_clf_steps_total,omitempty"`

	Status     string `json:"status"`
	FailEpoch  int    `json:"fail_epoch,omitempty"`
	FailReason string `json:"fail_reason,omitempty"`
	// Config identifies the sweep configuration the record belongs to (a
	// digest of every setting that changes results); records of different
	// configurations are never mixed in one folder.
	Config string `json:"config"`
	// DataID is the identity of the rows the sweep trained on (see
	// datasets.Dataset.ID): records with the same DataID come from the
	// same rows, coded alike, and split alike for the same seed, whatever
	// the file was called or which feature columns it had. "" in records
	// written before it was recorded (SameData then falls back to the
	// dataset, preset and sensitive attribute).
	DataID string `json:"data_id,omitempty"`
	// Shard is the shard that wrote the record ("" when unsharded).
	Shard string `json:"shard,omitempty"`

	// Source is the file or folder the record was read from (set by
	// runfolder.ReadAll, never stored): groups of records that would
	// otherwise print alike are named after it.
	Source string `json:"-"`
	// File is the records file the record was read from (set by the
	// readers of package runfolder, never stored): its network (Weights)
	// is relative to that file's folder, which is not Source's when Source
	// is a sweep folder whose shards wrote one subfolder each.
	File string `json:"-"`

	// TrainR and TrainU are the risk and penalty of the candidate's network
	// (the one stored) on the rows it was trained on, in evaluation mode
	// (no dropout), over blocks of as many rows as the validation part has
	// (all the rows when none is kept), at most 4,096, averaged over the
	// blocks by rows; U is the split's penalty
	// even for λ = 0, which does not minimise it (and 0 for the adversarial
	// baseline, which has no penalty). ValR and ValU are the same
	// on the validation part, when one was kept (NVal rows); KeptEpoch is
	// then the epoch whose network was kept (the one with the lowest
	// validation objective).
	TrainR    float64  `json:"train_r"`
	TrainU    float64  `json:"train_u"`
	ValR      *float64 `json:"val_r,omitempty"`
	ValU      *float64 `json:"val_u,omitempty"`
	NVal      int      `json:"n_val,omitempty"`
	KeptEpoch int      `json:"kept_epoch,omitempty"`

	// The overlap of the split's calibrated propensity ê on its training
	// rows (docs/method.md §4): the temperature, ê's quantiles at 0, 0.01, 0.05, 0.25,
	// 0.5, 0.75, 0.95, 0.99 and 1, the share of extreme rows (ê under 1/50
	// of a group's share; ê < 0.01 or > 0.99 in records written before the
	// bound scaled with the share), and the effective sample size (Σw)²/Σw² of the overlap
	// weights in each group, beside the group's rows. Records written
	// before these keys existed have PropQ empty.
	PropTemperature float64   `json:"prop_temperature,omitempty"`
	PropQ           []float64 `json:"prop_q,omitempty"`
	PropExtreme     float64   `json:"prop_extreme"`
	ESS1            float64   `json:"ess1"`
	ESS0            float64   `json:"ess0"`
	PropN1          int       `json:"prop_n1"`
	PropN0          int       `json:"prop_n0"`
	// PropClipped is the share of those rows whose ê sits at a clip bound
	// (docs/method.md §4.3): at 1 the weights are uniform within each group
	// and the effective sample sizes read as every row.
	PropClipped float64 `json:"prop_clipped,omitempty"`

	// ATOReliable says whether the split's ATO can be trusted: false when
	// the overlap on the training or the test rows is too weak
	// (docs/method.md §4.3), ATOUnreliableReason then saying why. nil in
	// records written before the decision was recorded.
	ATOReliable         *bool  `json:"ato_reliable,omitempty"`
	ATOUnreliableReason string `json:"ato_unreliable_reason,omitempty"`
}

// The families of methods (Record.Family).
const (
	FamilyPenalty     = "penalty"
	FamilyAdversarial = "adversarial"
	FamilyReductions  = "reductions"
	FamilyThresholds  = "thresholds"
)

// Family is the record's family of methods: the stored one, or for records
// written before it was recorded, by rule: adversarial for the adversarial
// baseline, penalty for every other method of fp (the only two families
// then), and for the records scripts/fairlearn_compare.py wrote, named
// fairlearn-KIND-…, reductions for its grid and exponentiated-gradient
// methods and thresholds for its threshold optimizer.
func (r *Record) Family() string {
	switch {
	case r.FamilyName != "":
		return r.FamilyName
	case r.Method == FamilyAdversarial:
		return FamilyAdversarial
	case strings.HasPrefix(r.Method, "fairlearn-grid-"), strings.HasPrefix(r.Method, "fairlearn-expgrad-"):
		return FamilyReductions
	case strings.HasPrefix(r.Method, "fairlearn-threshold-"):
		return FamilyThresholds
	}
	return FamilyPenalty
}

// ProbabilityIsBase reports whether the record's probability metrics (risk,
// ato, dp, eo, eopp) are those of another candidate's network rather than of
// its own decisions: a group-thresholds candidate decides with thresholds on
// its base network's probability, so fronts in a (risk, ·) plane leave it
// out.
func (r *Record) ProbabilityIsBase() bool { return r.Family() == FamilyThresholds }

// InPlane reports whether the record belongs on a front of the plane
// (axis, metric): every record does, except one whose probability is its
// base network's (ProbabilityIsBase), which has a point only in the planes
// of its decisions, (error, decision metric).
func (r *Record) InPlane(axis, metric string) bool {
	return !r.ProbabilityIsBase() || (axis == AxisError && IsDecisionMetric(metric))
}

// CountBaseProbability counts the records whose probability is their base
// network's (ProbabilityIsBase).
func CountBaseProbability(recs []Record) int {
	n := 0
	for i := range recs {
		if recs[i].ProbabilityIsBase() {
			n++
		}
	}
	return n
}

// BaseProbabilityNote says why a plane leaves out candidates whose
// probability is their base network's.
const BaseProbabilityNote = "left out of the (risk, ·) planes and the planes of probability metrics: group-thresholds candidates, whose probability is their base network's (docs/method.md §13.1); they compete in the (error, decision metric) planes"

// ATOUnreliable reports whether the record's split was judged to have an
// unreliable ATO (false for records without the decision).
func (r *Record) ATOUnreliable() bool { return r.ATOReliable != nil && !*r.ATOReliable }

// HasOverlap reports whether the record carries the overlap summary.
func (r *Record) HasOverlap() bool { return len(r.PropQ) > 0 }

// Degenerate reports whether the candidate is a constant or near-constant
// predictor, predicts a single class or is no better than the constant
// predictor: tables and figures mark such candidates, and fp pick leaves
// them out unless told otherwise.
func (r *Record) Degenerate() bool {
	return r.Collapsed || r.SingleClass || r.NearConstant || r.NearSingleClass() || r.NoBetterThanConstant()
}

// Mark is the short note tables print beside a degenerate candidate: the
// first of "constant predictor", "predicts one class", "near-constant"
// and "no better than constant" that holds; "" for none.
func (r *Record) Mark() string {
	return DegenerateMark(r.Collapsed, r.SingleClass, r.NearConstant, r.NearSingleClass(), r.NoBetterThanConstant())
}

// DegenerateMark is Record.Mark from the five flags, for views of a record
// that carry them.
func DegenerateMark(collapsed, singleClass, nearConstant, nearSingleClass, noBetter bool) string {
	switch {
	case collapsed:
		return "constant predictor"
	case singleClass:
		return "predicts one class"
	case nearConstant:
		return "near-constant"
	case nearSingleClass:
		return "almost one class"
	case noBetter:
		return "no better than constant"
	}
	return ""
}

// MinorityDecisionLimit is the least share of rows a network must give its
// less frequent decision not to count as near-single-class
// (docs/method.md §7): min(1%, a tenth of minorityRate, the share of the
// less frequent class among the same rows). Below it the network decides
// almost every row alike — a network approving 198 of 199 applicants is
// not a choice, whatever its unfairness — and the limit scales with the
// base rate so that a rare class's honest predictors are not caught.
func MinorityDecisionLimit(minorityRate float64) float64 {
	return min(0.01, 0.1*minorityRate)
}

// nearSingleClass applies MinorityDecisionLimit to a majority decision
// share and the constant predictor's error (the less frequent class's
// share of the same rows when the training majority is the rows'
// majority); false when either is missing.
func nearSingleClass(majorityShare, constError *float64) bool {
	if majorityShare == nil || constError == nil {
		return false
	}
	ce := *constError
	return 1-*majorityShare < MinorityDecisionLimit(min(ce, 1-ce))
}

// NearSingleClass reports whether the candidate gives its less frequent
// decision to fewer test rows than MinorityDecisionLimit allows (single-
// class candidates included); false for records without majority_share.
func (r *Record) NearSingleClass() bool { return nearSingleClass(r.MajorityShare, r.ConstError) }

// NoBetterThanConstant reports whether the candidate's test risk is not
// below that of the constant predictor at the training base rate; false
// when the record does not carry that risk.
func (r *Record) NoBetterThanConstant() bool { return r.ConstRisk != nil && r.Risk >= *r.ConstRisk }

// OK reports whether the candidate trained to the end.
func (r *Record) OK() bool { return r.Status != StatusFailed }

// Key identifies the candidate within its configuration: method, penalty,
// split and λ. Resuming skips candidates whose key is already recorded.
func (r *Record) Key() string {
	return CandidateKey(r.Method, r.Penalty, r.Split, r.Lambda)
}

// FormatLambda writes λ as fp predict --lambda and fp export --lambda take
// it: the shortest decimal that reads back as the same number, so that a
// λ-conditioned network is folded at exactly a record's λ.
func FormatLambda(lambda float64) string { return strconv.FormatFloat(lambda, 'g', -1, 64) }

// CandidateKey builds the key of a candidate.
func CandidateKey(method, penalty string, split int, lambda float64) string {
	return fmt.Sprintf("%s/%s/split=%d/lambda=%.17g", method, penalty, split, lambda)
}

// Metric returns the named unfairness metric (one of Metrics) as a front
// minimises it: dp-ratio as 1 − dp_ratio. A decision metric of a record that
// does not carry them is an error wrapping ErrNoDecision.
func (r *Record) Metric(name string) (float64, error) {
	switch name {
	case MetricATO:
		return r.ATO, nil
	case MetricDP:
		return r.DP, nil
	case MetricEO:
		return r.EO, nil
	case MetricEOpp:
		return r.EOpp, nil
	}
	if !IsDecisionMetric(name) {
		return 0, fmt.Errorf("metric %q: want one of %s", name, strings.Join(Metrics, ", "))
	}
	if r.Decision == nil {
		return 0, noDecision(r, name)
	}
	return r.Decision.value(name), nil
}

// MethodLabel is the method as shown in tables and figures: the method,
// and for the adversarial baseline with a β scale other than 1 the scale
// ("adversarial(β×200)") and with more than one classifier step per round
// their number K ("adversarial(β×200, K=53)"), so that both strengths and
// both budgets of the baseline can be told apart.
func (r *Record) MethodLabel() string {
	var parts []string
	if r.BetaScale > 0 && r.BetaScale != 1 {
		parts = append(parts, fmt.Sprintf("β×%g", r.BetaScale))
	}
	if r.AdvClfSteps > 1 {
		parts = append(parts, fmt.Sprintf("K=%d", r.AdvClfSteps))
	}
	if parts == nil {
		return r.Method
	}
	return r.Method + "(" + strings.Join(parts, ", ") + ")"
}
