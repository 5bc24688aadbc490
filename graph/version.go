package graph

// Version names the numerical implementation of this engine, for records:
// a change of executor or kernels can move the last bits of a run, so a
// record that says which version made it can be reproduced bit for bit.
// "graph/2" runs programs with fp's executor and fast paths (FMA matrix
// products on CPUs that have them); "graph/1" ran Gorgonia's tape machine.
const Version = "graph/2"

// Version returns the engine's Version.
func (Engine) Version() string { return Version }
