// Package penalties writes unfairness penalties U as Gorgonia graph code for
// the graph engine: the built-in ATO penalties (ATOPenultimate, ATOAll), the
// graph view of the network and the batch they read (Net, BatchNodes), the
// per-row input columns they declare (Contrast, Group1Mean, Group0Mean) and
// NewPenalty, the extension point for a penalty of one's own.
//
// Every Penalty is also a train.Term: its name, the version of its code and
// its inputs are all the trainer contract sees of it. The handwritten engine
// recognises the built-in ATO penalties by their ATOAllLayers method and
// refuses any other penalty before training starts.
package penalties
