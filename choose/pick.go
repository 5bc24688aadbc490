package choose

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/fpareto/fp/records"
)

// Candidate is a record that a pick may choose: trained successfully, not
// a constant predictor, with a network file.
type Candidate struct {
	Record  records.Record
	Dir     string // the folder of its records file
	Weights string // its network file, resolved against Dir
}

// ReadCandidates reads the candidates of paths: records files, or sweep
// folders standing for the records files in them and in their immediate
// subfolders. A torn last line is skipped. Candidates of several datasets
// (records.ByData) are refused: one front is of one dataset's candidates.
func ReadCandidates(paths []string) ([]Candidate, error) {
	var out []Candidate
	var all []records.Record
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		files := []string{p}
		if st.IsDir() {
			top, _ := filepath.Glob(filepath.Join(p, "*"+records.Ext))
			sub, _ := filepath.Glob(filepath.Join(p, "*", "*"+records.Ext))
			files = append(top, sub...)
		}
		for _, f := range files {
			recs, err := records.Read(f)
			var torn *records.TornLineError
			if err != nil && !errors.As(err, &torn) {
				return nil, err
			}
			all = append(all, recs...)
			for _, r := range recs {
				if !r.OK() || r.Collapsed || r.Weights == "" {
					continue
				}
				dir := filepath.Dir(f)
				out = append(out, Candidate{Record: r, Dir: dir, Weights: filepath.Join(dir, r.Weights)})
			}
		}
	}
	if _, err := records.OneDataPerGroup(all, nil, ""); err != nil {
		return nil, err
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

// metricsLine states the numbers the candidate was judged on.
func (k *Candidate) metricsLine(metric string) string {
	v, _ := k.Record.Metric(metric)
	return fmt.Sprintf("risk %.6g, accuracy %.6g, %s %.6g", k.Record.Risk, k.Record.Accuracy, metric, v)
}

// Picked is the outcome of Pick; its JSON form is fp pick's output.
type Picked struct {
	Run      string  `json:"run"` // the folder of the chosen candidate's records file
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
	Weights  string  `json:"weights"`
	// ATOReliable and ATOUnreliableReason are the chosen candidate's
	// record's judgement of its split's ATO (nil for records without it).
	ATOReliable         *bool  `json:"ato_reliable,omitempty"`
	ATOUnreliableReason string `json:"ato_unreliable_reason,omitempty"`

	Metric     string `json:"-"` // the unfairness metric of the front
	Basis      string `json:"-"` // the part whose metrics the choice was made on: "test"
	Front      int    `json:"-"` // the non-dominated candidates the choice was made among
	Candidates int    `json:"-"` // all candidates
}

// PickError says that no candidate meets the rule, naming the closest one
// (nil when none stands out). It wraps the *NoneError.
type PickError struct {
	None    *NoneError
	Metric  string
	Closest *Candidate
}

func (e *PickError) Error() string {
	why := strings.Replace(e.None.Error(), "unfairness", e.Metric, 1)
	if e.Closest == nil {
		return why
	}
	return fmt.Sprintf("%s; the closest is %s (%s)", why, e.Closest, e.Closest.metricsLine(e.Metric))
}

func (e *PickError) Unwrap() error { return e.None }

// Pick keeps the candidates not dominated in (risk, metric) and picks one
// by r. Records hold test metrics only, so the choice is made on them
// (Basis "test"): they flatter the chosen candidate. When no candidate
// meets r the error is a *PickError.
func Pick(cands []Candidate, metric string, r Rule) (*Picked, error) {
	if !slices.Contains(records.Metrics, metric) {
		return nil, fmt.Errorf("metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	if len(cands) == 0 {
		return nil, errors.New("no candidate to pick from")
	}
	pts := make([]Point, len(cands))
	for i, k := range cands {
		v, _ := k.Record.Metric(metric)
		pts[i] = Point{Risk: k.Record.Risk, Unfairness: v, Accuracy: k.Record.Accuracy}
	}
	idx := Front(pts)
	front := make([]Point, len(idx))
	for k, i := range idx {
		front[k] = pts[i]
	}
	k, err := Choose(front, r)
	var none *NoneError
	if errors.As(err, &none) {
		pe := &PickError{None: none, Metric: metric}
		if none.Closest >= 0 {
			pe.Closest = &cands[idx[none.Closest]]
		}
		return nil, pe
	}
	if err != nil {
		return nil, err
	}
	c := &cands[idx[k]]
	rec := &c.Record
	return &Picked{Run: c.Dir, Split: rec.Split, Lambda: rec.Lambda, Method: rec.Method, Penalty: rec.Penalty,
		Risk: rec.Risk, Accuracy: rec.Accuracy, ATO: rec.ATO, DP: rec.DP, EO: rec.EO, EOpp: rec.EOpp,
		Weights: c.Weights, ATOReliable: rec.ATOReliable, ATOUnreliableReason: rec.ATOUnreliableReason,
		Metric: metric, Basis: "test", Front: len(front), Candidates: len(cands)}, nil
}

// WriteText prints p as a one-row table under a line saying what it was
// picked from, then its network file.
func WriteText(w io.Writer, p *Picked) error {
	fmt.Fprintf(w, "picked from the %d non-dominated of %d candidates (risk vs %s, chosen on %s metrics; test metrics shown):\n",
		p.Front, p.Candidates, p.Metric, p.Basis)
	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(t, "run\tmethod\tpenalty\tsplit\tλ\trisk\taccuracy\tato\tdp\teo\teopp")
	fmt.Fprintf(t, "%s\t%s\t%s\t%d\t%g\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", p.Run, p.Method, p.Penalty, p.Split, p.Lambda,
		p.Risk, p.Accuracy, p.ATO, p.DP, p.EO, p.EOpp)
	if err := t.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "network: %s\n", p.Weights)
	return err
}
