package suggest

import "github.com/xrash/smetrics"

// Nearest returns the candidate closest to name by Jaro–Winkler similarity,
// or "" when none is similar enough to be a likely misspelling. Of equally
// close candidates the shortest wins.
func Nearest(name string, candidates []string) string {
	best, score := "", 0.0
	for _, c := range candidates {
		if s := smetrics.JaroWinkler(name, c, 0.7, 4); s > score || (s == score && len(c) < len(best)) {
			best, score = c, s
		}
	}
	if score < 0.75 {
		return ""
	}
	return best
}
