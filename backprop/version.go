package backprop

// Version names the numerical implementation of this engine, for records:
// kernel changes can move the last bits of a run, so a record that says
// which version made it can be reproduced bit for bit. "backprop/2" computes
// the wide matrix products with the register-tiled kernels of kern.go (FMA
// rounding on CPUs that have it); "backprop/1" used blas64 rank-1 updates.
const Version = "backprop/2"

// Version returns the engine's Version.
func (Engine) Version() string { return Version }
