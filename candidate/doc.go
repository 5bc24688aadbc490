// Package candidate is a record that a pick, a front or its intervals may
// consider (Candidate: trained successfully, with a network file, resolved
// against its run folder) and the facts every output shows of one (Shown).
// Both choose, which picks among candidates, and intervals, which bounds
// their metrics, build on it, so that neither depends on the other.
package candidate
