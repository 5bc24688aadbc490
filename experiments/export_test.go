package experiments

// SetCheckpointSaved sets the function told of every checkpoint saved, a
// lockstep group's or a conditioned network's (nil: none).
func SetCheckpointSaved(f func(path string, epoch int)) { checkpointSaved = f }

// SetConditionedCheckpointEvery sets the epochs between a conditioned
// network's checkpoints; restore sets them back.
func SetConditionedCheckpointEvery(n int) (restore func()) {
	old := conditionedEvery
	conditionedEvery = n
	return func() { conditionedEvery = old }
}

// SplitOf is split m of the configuration's data, as the runner draws it.
var SplitOf = splitOf
