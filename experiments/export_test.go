package experiments

// SetCheckpointSaved sets the function told of every lockstep checkpoint
// saved (nil: none).
func SetCheckpointSaved(f func(path string, epoch int)) { checkpointSaved = f }

// SplitOf is split m of the configuration's data, as the runner draws it.
var SplitOf = splitOf
