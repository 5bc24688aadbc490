package htmlreport

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/records"
)

// Page is everything the report shows. Pointer and slice fields left nil are
// shown as "not available for this run".
type Page struct {
	Title    string
	Summary  Summary
	Runs     []Run
	Warnings []string
	// Banners are the warnings a user must read before picking a
	// candidate, shown at the top of the page (see banners).
	Banners []Banner
	// Intervals is set when the candidates carry 95% intervals, drawn as
	// error bars; the page then says what an interval holds.
	Intervals bool
	// ColumnWarnings are the runs' warnings about their data's feature
	// columns (a likely identifier or leak), from each run's latest
	// invocation, for the first screen's banner.
	ColumnWarnings []string
	// ATOWarnings are the messages for the first screen's banner when some
	// splits' ATO values are unreliable (atoBanners); nil when none is.
	ATOWarnings []string

	// Fronts say, for every front drawn, how many of its points can be
	// told apart from their neighbours and which network fp pick would
	// return from it (Options.Rule), in Data.Metrics order by dataset.
	Fronts []FrontSummary

	// Comparisons hold fp compare's comparison of the runs of every
	// dataset: pooled tables, per-split hypervolumes and paired statistics.
	Comparisons []Comparison
	// Constants are the standardization constants of every split of every
	// run.
	Constants []SplitConstants
	// Propensity holds the propensity-model diagnostics of every split;
	// nil when the runs do not record them.
	Propensity []PropensityRow

	// DecisionMetrics are the decision metrics drawn against the test
	// error (1 − accuracy) as well, in the panels where every family
	// competes, group thresholds included; nil when some record lacks
	// them, and then DecisionNote says why.
	DecisionMetrics []string
	DecisionNote    string

	// Data feeds the figures and the table drawn in the browser.
	Data Data

	// DecidedOn names the rows whose metrics decided the non-dominated
	// candidates and the comparison's fronts: "test" or "selection"
	// (records.Decide); the metrics shown are the test ones.
	DecidedOn string
}

// SelectionNote says, for a page decided on the selection rows, what
// decided and what is shown; "" otherwise.
func (p *Page) SelectionNote() string {
	if p.DecidedOn != string(records.DecideSelection) {
		return ""
	}
	return "the front is chosen on the metrics of the selection rows (sel_* in the records); every number and point shown is of the test rows, which the choice did not see."
}

// Summary counts what the report covers.
type Summary struct {
	Datasets       []string
	Configurations int
	Candidates     int
	Done           int
	Failed         int
	Collapsed      int
	SingleClass    int
	NoBetter       int // no better than the constant predictor (docs/method.md §7)
	// TrainSeconds is the sum of the candidates' training times.
	TrainSeconds float64
	// WallSeconds is the sum of the runs' wall times; 0 when a run folder
	// does not record it.
	WallSeconds float64
}

// Run is one run folder (or records file).
type Run struct {
	Path    string
	Dataset string
	Method  string // method label and penalty, as in fp compare
	Config  string // the configuration digest
	// Commands are the commands that ran the sweep, as typed (recorded by
	// fp train in runs.log); nil for runs written before they were.
	Commands []TypedCommand
	// Command is the fp train command that reproduces the run,
	// reconstructed from its config.json; "" if unknown.
	Command     string
	Done        int
	Failed      int
	Collapsed   int
	SingleClass int
	NoBetter    int // no better than the constant predictor
	// TrainSeconds is the sum of the run's candidates' training times.
	TrainSeconds float64
	// WallSeconds is the time during which one of the run's invocations
	// was running; 0 when not recorded.
	WallSeconds float64
	// Networks is false when the run's network files are absent.
	Networks bool
	// Conditioned is true for the run of a λ-conditioned network, one per
	// split scored at every λ (docs/method.md §12); EvalOnly counts its
	// candidates at λ of the evaluation grid outside the training grid.
	Conditioned bool
	EvalOnly    int
}

// SplitConstants are the standardization constants of one split of a run
// (docs/method.md §5): the ranges of risk and unfairness used by the scalarization.
type SplitConstants struct {
	Run                    int // index into Page.Runs
	Split                  int
	RMin, RMax, UMin, UMax float64
}

// PropensityRow is the propensity diagnostics of one split.
type PropensityRow struct {
	Run   int
	Split int
	// Items are the named diagnostics, e.g. "temperature" or "ESS a=1".
	Items []NamedValue
	// Warning is set when the split's overlap is poor.
	Warning string
	// Predictors are the source columns that go most with the sensitive
	// attribute, recorded when the overlap is poor and something besides a
	// group too small to estimate is behind it (Proxy); Small is the advice
	// about such groups ("" for none).
	Predictors []propensity.Predictor
	Proxy      bool
	Small      string
}

// Banner is a warning shown at the top of the page, in the words of a
// user about to pick a candidate: Title, then Text, then Command (a command
// that addresses it, shown as code; "" for none), then Note; Link is the
// id of the section with the details ("" for none).
type Banner struct {
	Kind    string // what it warns of, e.g. "overlap"; the element's class
	Title   string
	Text    string
	Command string
	Note    string
	Link    string
}

// NamedValue is a labelled number.
type NamedValue struct {
	Name  string
	Value float64
}

// Data is the JSON document the page's script draws from.
type Data struct {
	Metrics     []string          `json:"metrics"`
	MetricNames map[string]string `json:"metric_names"`
	Groups      []Group           `json:"groups"`
	Datasets    []string          `json:"datasets"`
	Runs        []string          `json:"runs"`
	Candidates  []Candidate       `json:"candidates"`
	Bins        int               `json:"bins"` // histogram bins on [0, 1]
	// DecidedOn is "selection" when the fronts were decided on the
	// selection rows (the legend says so); "" otherwise.
	DecidedOn string `json:"decided_on,omitempty"`
	// PickFlags are the flags of fp pick whose pick Candidate.Pick marks.
	PickFlags string `json:"pick_flags,omitempty"`
}

// Group is one colour of the figures: a method (and penalty). Family is
// its family of methods (records.Record.Family), which its marker shows.
type Group struct {
	Label  string `json:"label"`
	Color  string `json:"color"`
	Family string `json:"family"`
}

// Candidate is one successful candidate as the script sees it.
type Candidate struct {
	ID      int    `json:"id"`
	Run     int    `json:"run"`
	Group   int    `json:"g"`
	Dataset int    `json:"d"`
	Split   int    `json:"split"`
	Lambda  Num    `json:"lambda"`
	Symbol  string `json:"sym,omitempty"` // "β" for the adversarial baseline; "" for λ
	Risk    Num    `json:"risk"`
	Acc     Num    `json:"acc"`
	Metrics []Num  `json:"m"` // in Data.Metrics order
	Front   []int  `json:"nd,omitempty"`
	// ErrorFront lists the decision metrics (indices into Data.Metrics)
	// in whose (error, metric) plane the candidate is non-dominated among
	// every candidate of its dataset, OwnErrorFront those where it is
	// among its group's (compare.Front).
	ErrorFront    []int `json:"nde,omitempty"`
	OwnErrorFront []int `json:"owne,omitempty"`
	// Pick lists the metrics (indices) on whose front fp pick, by the
	// page's rule, returns this candidate.
	Pick []int `json:"pick,omitempty"`
	// rec is the candidate's record, from which the fronts are decided.
	rec *records.Record
	// Collapsed marks a constant predictor.
	Collapsed bool `json:"collapsed,omitempty"`
	// SingleClass marks a candidate predicting one class for every test
	// row.
	SingleClass bool `json:"single_class,omitempty"`
	// NoBetter marks a candidate whose test risk is no better than the
	// constant predictor's at the training base rate.
	NoBetter bool `json:"no_better,omitempty"`
	// UsesSensitive marks a candidate that reads the sensitive attribute
	// at prediction time (group thresholds); BaseProbability one whose
	// probability is its base network's, which the (risk, ·) panels leave
	// out (records.Record.InPlane).
	UsesSensitive   bool `json:"uses_a,omitempty"`
	BaseProbability bool `json:"base_p,omitempty"`
	// PoorOverlap is nil when the records do not say.
	PoorOverlap *bool `json:"poor_overlap,omitempty"`
	// ATOUnreliable is why the candidate's split's ATO is unreliable (""
	// when it is reliable or the record does not say).
	ATOUnreliable string `json:"ato_unreliable,omitempty"`
	// Network is the path of the stored network ("" if none); Predict the
	// command that applies it to new data ("" when unavailable).
	Network string `json:"net,omitempty"`
	Predict string `json:"predict,omitempty"`
	// CI holds the candidate's 95% intervals; nil when it has none (off
	// the fronts, or not computed).
	CI *CandidateCI `json:"ci,omitempty"`
	// Dist holds the score histograms by (y, a); DistNote says why there
	// are none.
	Dist     []Hist `json:"dist,omitempty"`
	DistNote string `json:"dist_note,omitempty"`
}

// CandidateCI is a candidate's 95% intervals as [lo, hi]: of the risk,
// the accuracy and each metric (in Data.Metrics order; null when there is
// none, e.g. a group too small for fairness intervals).
type CandidateCI struct {
	Risk    []Num   `json:"risk"`
	Acc     []Num   `json:"acc"`
	Metrics [][]Num `json:"m"`
	// Est holds, per metric, the estimate its interval is built around
	// where it is not the recorded value (the unbiased dp, eo and eopp;
	// docs/method.md §7.1), NaN (null) elsewhere.
	Est []Num `json:"est,omitempty"`
}

// Hist is the histogram of predicted probabilities of one (y, a) cell on
// equal bins of [0, 1], as densities.
type Hist struct {
	Y       int   `json:"y"`
	A       int   `json:"a"`
	N       int   `json:"n"`
	Density []Num `json:"p"`
}

// Num is a float64 written to JSON with 6 significant digits, which keeps
// pages of thousands of candidates small; non-finite values are written as
// null.
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', 6, 64), nil
}

//go:embed assets
var assets embed.FS

var page = template.Must(template.New("page.html.tmpl").Funcs(template.FuncMap{
	"f": func(format string, v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "–"
		}
		return fmt.Sprintf(format, v)
	},
	"join": func(s []string) string { return strings.Join(s, ", ") },
	"dur": func(s float64) string {
		switch {
		case s < 120:
			return fmt.Sprintf("%.1f s", s)
		case s < 7200:
			return fmt.Sprintf("%.1f min", s/60)
		}
		return fmt.Sprintf("%.1f h", s/3600)
	},
}).ParseFS(assets, "assets/page.html.tmpl"))

// WriteFile renders p into the file path, creating its folder, and returns
// the number of bytes written. The file is replaced at once, so a reader
// never sees half a page.
func WriteFile(path string, p *Page) (int, error) {
	var buf bytes.Buffer
	if err := Render(&buf, p); err != nil {
		return 0, err
	}
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return 0, err
		}
	}
	if err := model.WriteFileAtomic(path, buf.Bytes()); err != nil {
		return 0, err
	}
	return buf.Len(), nil
}

// Render writes p as one HTML document.
func Render(w io.Writer, p *Page) error {
	css, err := assets.ReadFile("assets/page.css")
	if err != nil {
		return err
	}
	js, err := assets.ReadFile("assets/page.js")
	if err != nil {
		return err
	}
	// json.Marshal escapes <, > and & in strings, so the document cannot
	// end the script element it sits in.
	data, err := json.Marshal(p.Data)
	if err != nil {
		return fmt.Errorf("report data: %w", err)
	}
	return page.Execute(w, struct {
		*Page
		CSS  template.CSS
		JS   template.JS
		JSON template.JS
	}{p, template.CSS(css), template.JS(js), template.JS(data)})
}
