package progress

import (
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Sweep shows a sweep's progress on w: a bar with candidates done / total,
// ETA and the best test risk so far when w is a terminal, plain log lines
// otherwise. Call Finish when the run ends.
type Sweep struct {
	w       io.Writer
	bar     *progressbar.ProgressBar
	total   int
	done    int
	best    float64
	failed  int
	started time.Time
}

// New returns a Sweep writing to w.
func New(w io.Writer) *Sweep {
	return &Sweep{w: w, best: math.Inf(1), started: time.Now()}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Start implements experiments.Observer.
func (p *Sweep) Start(total, done int) {
	p.total, p.done = total, done
	if isTerminal(p.w) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription("training"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSetRenderBlankState(true),
		)
		_ = p.bar.Set(done)
		return
	}
	fmt.Fprintf(p.w, "training %d candidates (%d already recorded)\n", total, done)
}

// Done implements experiments.Observer.
func (p *Sweep) Done(rec *records.Record) {
	p.done++
	if rec.OK() {
		p.best = math.Min(p.best, rec.Risk)
	} else {
		p.failed++
	}
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("best test risk %.4f", p.best))
		_ = p.bar.Add(1)
		return
	}
	status := fmt.Sprintf("risk %.4f  acc %.3f  ato %.4f", rec.Risk, rec.Accuracy, rec.ATO)
	if !rec.OK() {
		status = "FAILED: " + rec.FailReason
	}
	fmt.Fprintf(p.w, "[%d/%d] split %d  λ %-8.4g %s  (%.1fs)\n", p.done, p.total, rec.Split, rec.Lambda, status, rec.TrainSeconds)
}

// Finish ends the bar's line; it does nothing for log lines.
func (p *Sweep) Finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		fmt.Fprintln(p.w)
	}
}

// PropensityEpoch shows the propensity fit of a split, which on a large
// file takes a while before the first candidate trains: in the bar's
// description on a terminal, else a line at every tenth of the epochs.
func (p *Sweep) PropensityEpoch(m, epoch, epochs int) {
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("propensity model of split %d: epoch %d/%d", m, epoch, epochs))
		return
	}
	if step := max(1, epochs/10); epoch%step == 0 || epoch == epochs {
		fmt.Fprintf(p.w, "propensity model of split %d: epoch %d/%d\n", m, epoch, epochs)
	}
}

// Overlap prints a split's overlap summary (training and test rows) as soon
// as its propensity model is ready, and the advice when the overlap is poor
// or the ATO unreliable.
func (p *Sweep) Overlap(o runfolder.SplitOverlap) {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	runfolder.WriteSplitOverlap(p.w, o)
}

// Warnings is the observer of a quiet run: it prints the poor-overlap
// advice to W and nothing else.
type Warnings struct{ W io.Writer }

// Start implements experiments.Observer.
func (Warnings) Start(total, done int) {}

// Done implements experiments.Observer.
func (Warnings) Done(rec *records.Record) {}

// Overlap prints the advice of a split whose overlap is poor or whose ATO
// is unreliable.
func (q Warnings) Overlap(o runfolder.SplitOverlap) {
	for _, a := range []string{o.Advice(), o.ATOAdvice()} {
		if a != "" {
			fmt.Fprintln(q.W, "warning: "+a)
		}
	}
}
