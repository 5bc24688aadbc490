// Package losses holds risk terms: the stable binary cross-entropy from logits
// as a Gorgonia graph node and as plain numbers, and the Risk extension point
// through which a user replaces it (a weighted or focal loss, say) with a few
// lines of graph code. A Risk is a train.Term with a name and a version that
// enter a sweep's digest.
package losses
