package backprop

// Version names the numerical implementation of this engine, for records:
// kernel changes can move the last bits of a run, so a record that says
// which version made it can be reproduced bit for bit. "backprop/3" trains
// lockstep groups of width-4 networks in quads (quad.go, with its own exp
// and log1p in the loss) on masks drawn with model.FillMaskBlocks; one
// network after another it computes as "backprop/2" did, which computes
// the wide matrix products with internal/gemm's register-tiled kernels
// (FMA rounding on CPUs that have it); "backprop/1" used blas64 rank-1
// updates.
const Version = "backprop/3"

// Version returns the engine's Version.
func (Engine) Version() string { return Version }
