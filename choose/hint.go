package choose

import (
	"fmt"
	"io"
	"strconv"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/internal/shellword"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// WritePredictHint prints the commands that score new rows with the
// network of the picked candidate k and audit them: NEW.csv stands for
// the new rows, and a note says how to score the data it was trained on.
// A λ-conditioned network is named with the candidate's --lambda.
func WritePredictHint(w io.Writer, k *Shown) error {
	net, dir := k.Weights, k.Run
	quoted := shellword.Quote(net)
	if k.Conditioned {
		quoted += " --lambda " + records.FormatLambda(k.Lambda)
	}
	// Decisions are taken at the sweep's threshold, by fp predict's label
	// and by the audit alike.
	threshold := ""
	if k.Threshold != fairness.DefaultThreshold {
		threshold = " --threshold " + strconv.FormatFloat(k.Threshold, 'g', -1, 64)
	}
	fmt.Fprintf(w, "score new rows (NEW.csv: the columns it was trained on) with:\n  fp predict --model %s --data NEW.csv%s --out scores.csv\n", quoted, threshold)
	if cfg, err := runfolder.ReadConfig(dir); err == nil {
		switch {
		case cfg.CSV != "":
			fmt.Fprintf(w, "  (to score the data it was trained on: --data %s)\n", shellword.Quote(cfg.CSV))
		case cfg.Dataset != "":
			fmt.Fprintf(w, "  (to score the data it was trained on: fp datasets export %s --out %s.csv, then --data %s.csv)\n",
				cfg.Dataset, cfg.Dataset, cfg.Dataset)
		}
	}
	f, err := model.Load(net)
	if err == nil && f.UsesGroup() {
		// Group thresholds: predict writes each row's decision under its
		// group's rule, which the audit reads as given decisions.
		group := "a_coded"
		if f.Card != nil && len(f.Card.Levels) > 2 {
			group = "group_coded"
		}
		_, err := fmt.Fprintf(w, "audit its decisions on new rows with their target and sensitive columns, as the records measure them:\n"+
			"  fp predict --model %s --data NEW.csv --keep-coded | fp audit --data - --decision decision --label y_coded --group %s\n", quoted, group)
		return err
	}
	if err == nil && f.Card != nil && len(f.Card.GroupColumns) > 0 {
		// A network of more than two groups: predict writes each row's
		// group as training formed it (merged and mapped values included),
		// and the audit groups by it and reads propensity_<group>.
		_, err := fmt.Fprintf(w, "audit it on new rows with their target and sensitive columns, as the records measure it (%d groups):\n"+
			"  fp predict --model %s --data NEW.csv --logit --with-propensity --keep-coded | "+
			"fp audit --data - --logit logit --label y_coded --group group_coded%s\n", len(f.Card.Levels), quoted, threshold)
		return err
	}
	_, err = fmt.Fprintf(w, "audit it on new rows with their target and sensitive columns, as the records measure it:\n"+
		"  fp predict --model %s --data NEW.csv --logit --with-propensity --keep-coded | "+
		"fp audit --data - --logit logit --label y_coded --group a_coded --propensity propensity%s\n", quoted, threshold)
	return err
}
