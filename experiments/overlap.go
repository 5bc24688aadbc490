package experiments

import (
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// OverlapObserver is an Observer that also wants each split's overlap, as
// soon as its propensity model is ready (before its networks train).
type OverlapObserver interface {
	Overlap(o runfolder.SplitOverlap)
}

func (r *Runner) observeOverlap(o runfolder.SplitOverlap) {
	ob, ok := r.obs.(OverlapObserver)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ob.Overlap(o)
}

// setOverlap copies a split's overlap summary into a record.
func setOverlap(rec *records.Record, o runfolder.SplitOverlap) {
	rec.PropTemperature = o.Temperature
	rec.PropQ = append([]float64(nil), o.Quantiles...)
	rec.PropExtreme = o.Extreme
	rec.ESS1, rec.ESS0 = o.ESS1, o.ESS0
	rec.PropN1, rec.PropN0 = o.N1, o.N0
	rec.PropClipped = o.Clipped
	if o.ATOReliable != nil {
		reliable := *o.ATOReliable
		rec.ATOReliable, rec.ATOUnreliableReason = &reliable, o.ATOUnreliableReason
	}
}
