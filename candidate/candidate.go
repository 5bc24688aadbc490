package candidate

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/records"
)

// Candidate is a record that a pick may consider: trained successfully,
// with a network file. choose.Screen decides which of them a pick chooses among.
type Candidate struct {
	Record  records.Record
	Dir     string // the folder of its records file
	Weights string // its network file, resolved against Dir
}

// Of returns the candidates among recs, the records of sweeps as
// runfolder.ReadAll reads them: those that trained successfully with a
// network file, resolved against the folder of the records file each was
// read from (Record.File; the working folder when it is empty).
// Candidates of several datasets (records.ByData) are refused: one front
// is of one dataset's candidates. Group-thresholds candidates, whose
// probability is their base network's (records.Record.InPlane), have no
// point in the (risk, ·) planes that fronts and picks are drawn in by
// default and are left out (OnPlane keeps them where they have one).
func Of(recs []records.Record) ([]Candidate, error) {
	return of(recs, func(r *records.Record) bool { return !r.ProbabilityIsBase() })
}

// OnPlane returns the candidates among recs (as Of) that have a point in
// the plane (axis, metric), records.Record.InPlane: Of's, and in the
// (error, decision metric) planes the group-thresholds candidates too.
func OnPlane(recs []records.Record, axis, metric string) ([]Candidate, error) {
	return of(recs, func(r *records.Record) bool { return r.InPlane(axis, metric) })
}

// of returns the candidates among recs that keep keeps.
func of(recs []records.Record, keep func(*records.Record) bool) ([]Candidate, error) {
	if _, err := records.OneDataPerGroup(recs, nil, ""); err != nil {
		return nil, err
	}
	var out []Candidate
	for _, r := range recs {
		if !r.OK() || r.Weights == "" || !keep(&r) {
			continue
		}
		dir := filepath.Dir(r.File)
		out = append(out, Candidate{Record: r, Dir: dir, Weights: filepath.Join(dir, r.Weights)})
	}
	return out, nil
}

// String names the candidate: method/penalty, split, λ and folder.
func (k *Candidate) String() string {
	pen := k.Record.Penalty
	if pen == "" {
		pen = "-"
	}
	return fmt.Sprintf("%s/%s split %d λ = %g in %s", k.Record.Method, pen, k.Record.Split, k.Record.Lambda, k.Dir)
}

// Shown is one candidate as a pick reports it: where it is, what was
// trained, its test metrics and what marks it as degenerate. ConstRisk is
// nil (JSON null) for records that do not carry it. Further facts about a
// candidate belong here, so that every output that shows one carries them.
type Shown struct {
	Run      string  `json:"run"` // the folder of the candidate's records file
	Split    int     `json:"split"`
	Lambda   float64 `json:"lambda"`
	Method   string  `json:"method"`
	Penalty  string  `json:"penalty"`
	Risk     float64 `json:"risk"`
	Accuracy float64 `json:"accuracy"`
	ATO      float64 `json:"ato"`
	DP       float64 `json:"dp"`
	EO       float64 `json:"eo"`
	EOpp     float64 `json:"eopp"`
	// Decision holds the decision metrics (absent for records written
	// before they were recorded).
	*records.Decision
	// Threshold is the decision threshold of accuracy and the decision
	// metrics.
	Threshold float64 `json:"threshold"`
	Weights   string  `json:"weights"`
	// Conditioned marks a candidate of a λ-conditioned network: Weights is
	// then shared by every λ of its split, and the candidate is that
	// network at Lambda (fp predict and fp export need --lambda).
	Conditioned bool `json:"conditioned,omitempty"`
	// Family is the candidate's family of methods (records.Record.Family);
	// UsesSensitive marks one that reads the sensitive attribute at
	// prediction time.
	Family        string `json:"family,omitempty"`
	UsesSensitive bool   `json:"uses_sensitive,omitempty"`
	// ATOReliable and ATOUnreliableReason are the chosen candidate's
	// record's judgement of its split's ATO (nil for records without it).
	ATOReliable         *bool  `json:"ato_reliable,omitempty"`
	ATOUnreliableReason string `json:"ato_unreliable_reason,omitempty"`

	SingleClass  bool `json:"single_class"`
	Collapsed    bool `json:"collapsed"`
	NearConstant bool `json:"near_constant"`
	// MajorityShare is the share of test rows given the more frequent
	// decision (nil for records without it); NearSingleClass applies
	// records.MinorityDecisionLimit to it.
	MajorityShare        *float64 `json:"majority_share"`
	NearSingleClass      bool     `json:"near_single_class"`
	ConstRisk            *float64 `json:"const_risk"`
	NoBetterThanConstant bool     `json:"no_better_than_constant"`
}

// Show is the candidate as a pick reports it.
func (k *Candidate) Show() Shown {
	r := &k.Record
	return Shown{Run: k.Dir, Split: r.Split, Lambda: r.Lambda, Method: r.Method, Penalty: r.Penalty, Family: r.Family(), UsesSensitive: r.UsesSensitive,
		Risk: r.Risk, Accuracy: r.Accuracy, ATO: r.ATO, DP: r.DP, EO: r.EO, EOpp: r.EOpp, Weights: k.Weights,
		Decision: r.Decision, Threshold: fairness.ThresholdOr(r.Threshold),
		Conditioned: r.Conditioned, ATOReliable: r.ATOReliable, ATOUnreliableReason: r.ATOUnreliableReason,
		SingleClass: r.SingleClass, Collapsed: r.Collapsed, NearConstant: r.NearConstant, ConstRisk: r.ConstRisk,
		MajorityShare: r.MajorityShare, NearSingleClass: r.NearSingleClass(),
		NoBetterThanConstant: r.NoBetterThanConstant()}
}

// Degenerate says what marks the candidate as degenerate ("" when
// nothing does).
func (s *Shown) Degenerate() string {
	var why []string
	if s.Collapsed {
		why = append(why, "a constant predictor")
	}
	if s.SingleClass {
		why = append(why, "it predicts one class for every test row")
	}
	if s.NearConstant && !s.Collapsed {
		why = append(why, "its scores barely vary (near-constant)")
	}
	if s.NearSingleClass && !s.SingleClass && s.MajorityShare != nil {
		why = append(why, fmt.Sprintf("it gives %.2f%% of the test rows the same decision (almost single-class)", 100**s.MajorityShare))
	}
	if s.NoBetterThanConstant {
		c := "its risk is no better than the constant predictor's"
		if s.ConstRisk != nil {
			c += fmt.Sprintf(" (%.4f)", *s.ConstRisk)
		}
		why = append(why, c)
	}
	return strings.Join(why, "; ")
}
