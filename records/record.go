package records

import "fmt"

// Status values of a record.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// Record is one trained candidate: what was trained, how, and its test
// metrics (SPEC §7, §9). The JSON key names are fixed so that any tool can
// read the files.
//
// A failed candidate (its loss diverged) has Status "failed", FailEpoch and
// FailReason set and zero metrics; every fp tool leaves such records out of
// fronts and plots.
type Record struct {
	Dataset   string  `json:"dataset"`
	Preset    string  `json:"preset"`
	Sensitive string  `json:"sensitive"`
	Method    string  `json:"method"`
	Penalty   string  `json:"penalty"`
	Split     int     `json:"split"`
	Lambda    float64 `json:"lambda"`
	Seed      uint64  `json:"seed"`
	Engine    string  `json:"engine"`
	Arch      string  `json:"arch"`
	Batch     int     `json:"batch"`
	Epochs    int     `json:"epochs"`
	Dim       int     `json:"dim"`
	NTrain    int     `json:"n_train"`
	NTest     int     `json:"n_test"`

	RMin float64 `json:"r_min"`
	RMax float64 `json:"r_max"`
	UMin float64 `json:"u_min"`
	UMax float64 `json:"u_max"`

	TrainSeconds   float64 `json:"train_seconds"`
	SkippedBatches int     `json:"skipped_batches"`
	Collapsed      bool    `json:"collapsed"`

	Risk     float64 `json:"risk"`
	Accuracy float64 `json:"accuracy"`
	ATO      float64 `json:"ato"`
	DP       float64 `json:"dp"`
	EO       float64 `json:"eo"`
	EOpp     float64 `json:"eopp"`

	Weights string `json:"weights"`
	// BetaScale is the adversarial baseline's β scale (β = λ·scale); 0
	// for the other methods.
	BetaScale float64 `json:"beta_scale,omitempty"`
	// AdvVersion is the adversarial baseline's training schedule (see
	// package adversarial); 0 for the other methods and in records written
	// before the schedule had versions (which used version 1).
	AdvVersion int `json:"adv_version,omitempty"`

	Status     string `json:"status"`
	FailEpoch  int    `json:"fail_epoch,omitempty"`
	FailReason string `json:"fail_reason,omitempty"`
	// Config identifies the sweep configuration the record belongs to (a
	// digest of every setting that changes results); records of different
	// configurations are never mixed in one folder.
	Config string `json:"config"`
	// Shard is the shard that wrote the record ("" when unsharded).
	Shard string `json:"shard,omitempty"`
}

// OK reports whether the candidate trained to the end.
func (r *Record) OK() bool { return r.Status != StatusFailed }

// Key identifies the candidate within its configuration: method, penalty,
// split and λ. Resuming skips candidates whose key is already recorded.
func (r *Record) Key() string {
	return CandidateKey(r.Method, r.Penalty, r.Split, r.Lambda)
}

// CandidateKey builds the key of a candidate.
func CandidateKey(method, penalty string, split int, lambda float64) string {
	return fmt.Sprintf("%s/%s/split=%d/lambda=%.17g", method, penalty, split, lambda)
}

// Metric returns the named unfairness metric: "ato", "dp", "eo" or "eopp".
func (r *Record) Metric(name string) (float64, error) {
	switch name {
	case "ato":
		return r.ATO, nil
	case "dp":
		return r.DP, nil
	case "eo":
		return r.EO, nil
	case "eopp":
		return r.EOpp, nil
	}
	return 0, fmt.Errorf("metric %q: want ato, dp, eo or eopp", name)
}

// MethodLabel is the method as shown in tables and figures: the method,
// and for the adversarial baseline with a β scale other than 1 the scale
// ("adversarial(β×200)"), so that both strengths of the baseline can be
// told apart.
func (r *Record) MethodLabel() string {
	if r.BetaScale > 0 && r.BetaScale != 1 {
		return fmt.Sprintf("%s(β×%g)", r.Method, r.BetaScale)
	}
	return r.Method
}

// Metrics lists the metric names Metric accepts.
var Metrics = []string{"ato", "dp", "eo", "eopp"}
