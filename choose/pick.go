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
// subfolders. A torn last line is skipped.
func ReadCandidates(paths []string) ([]Candidate, error) {
	var out []Candidate
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
			for _, r := range recs {
				if !r.OK() || r.Collapsed || r.Weights == "" {
					continue
				}
				dir := filepath.Dir(f)
				out = append(out, Candidate{Record: r, Dir: dir, Weights: filepath.Join(dir, r.Weights)})
			}
		}
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
func (k *Candidate) metricsLine(metric string, d records.Decide) string {
	r, _, _ := d.Value(&k.Record, "risk")
	a, _, _ := d.Value(&k.Record, "accuracy")
	v, _, _ := d.Value(&k.Record, metric)
	on := ""
	if d.Selects() {
		on = " on the selection rows"
	}
	return fmt.Sprintf("risk %.6g, accuracy %.6g, %s %.6g%s", r, a, metric, v, on)
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

	// Selection holds the chosen candidate's metrics on the selection
	// rows, when its run kept some (keys sel_risk, …, n_sel).
	*records.Selection

	// Basis names the rows whose metrics the choice was made on: "test",
	// or "selection" (the metrics above are then of the test rows, which
	// the choice did not see).
	Basis string `json:"decided_on"`

	Metric     string `json:"-"` // the unfairness metric of the front
	Front      int    `json:"-"` // the non-dominated candidates the choice was made among
	Candidates int    `json:"-"` // all candidates
}

// PickError says that no candidate meets the rule, naming the closest one
// (nil when none stands out). It wraps the *NoneError.
type PickError struct {
	None    *NoneError
	Metric  string
	Closest *Candidate
	Decide  records.Decide // the metrics the rule was applied to
}

func (e *PickError) Error() string {
	why := strings.Replace(e.None.Error(), "unfairness", e.Metric, 1)
	if e.Closest == nil {
		return why
	}
	return fmt.Sprintf("%s; the closest is %s (%s)", why, e.Closest, e.Closest.metricsLine(e.Metric, e.Decide))
}

func (e *PickError) Unwrap() error { return e.None }

// Pick is PickOn deciding on the test metrics, the only ones records held
// before selection rows: they then flatter the chosen candidate.
func Pick(cands []Candidate, metric string, r Rule) (*Picked, error) {
	return PickOn(cands, metric, r, records.DecideTest)
}

// PickOn keeps the candidates not dominated in (risk, metric) and picks one
// by r, both decided on the metrics d names (records.Decide.Value); the
// metrics reported are the test ones (Basis says which decided). When no
// candidate meets r the error is a *PickError.
func PickOn(cands []Candidate, metric string, r Rule, d records.Decide) (*Picked, error) {
	if !slices.Contains(records.Metrics, metric) {
		return nil, fmt.Errorf("metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	if len(cands) == 0 {
		return nil, errors.New("no candidate to pick from")
	}
	pts := make([]Point, len(cands))
	for i, k := range cands {
		risk, _, err := d.Value(&k.Record, "risk")
		if err != nil {
			return nil, err
		}
		v, _, _ := d.Value(&k.Record, metric)
		acc, _, _ := d.Value(&k.Record, "accuracy")
		pts[i] = Point{Risk: risk, Unfairness: v, Accuracy: acc}
	}
	idx := Front(pts)
	front := make([]Point, len(idx))
	for k, i := range idx {
		front[k] = pts[i]
	}
	k, err := Choose(front, r)
	var none *NoneError
	if errors.As(err, &none) {
		pe := &PickError{None: none, Metric: metric, Decide: d}
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
	p := &Picked{Run: c.Dir, Split: rec.Split, Lambda: rec.Lambda, Method: rec.Method, Penalty: rec.Penalty,
		Risk: rec.Risk, Accuracy: rec.Accuracy, ATO: rec.ATO, DP: rec.DP, EO: rec.EO, EOpp: rec.EOpp,
		Weights: c.Weights, Metric: metric, Basis: d.String(), Front: len(front), Candidates: len(cands)}
	if rec.HasSelection() {
		sel := *rec.Selection
		p.Selection = &sel
	}
	return p, nil
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
	if p.Basis == string(records.DecideSelection) && p.Selection != nil {
		v, _ := p.Selection.Value(p.Metric)
		fmt.Fprintf(w, "on the %d selection rows it was chosen on: risk %.4f, accuracy %.4f, %s %.4f\n",
			p.NSel, p.SelRisk, p.SelAccuracy, p.Metric, v)
	}
	_, err := fmt.Fprintf(w, "network: %s\n", p.Weights)
	return err
}
