package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// What cannot train more than two groups (the adversarial baseline,
// λ-conditioned networks) and bad group settings are refused by fp train in
// one line before any folder is written.
func TestTrainRefusesMoreThanTwoGroups(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dataset", "compas-race4", "--method", "adversarial"},
			"the adversarial baseline trains against a two-group adversary, not 4 sensitive groups (African-American, Caucasian, Hispanic, other); use the method cheb or linear"},
		{[]string{"--dataset", "compas", "--sensitive-levels", "all", "--min-group-rows", "5", "--conditioned", "--engine", "backprop"},
			"--conditioned trains two groups, not 6 sensitive groups"},
		{[]string{"--dataset", "compas", "--sensitive-levels", "Martian"}, `"Martian" is not a value of the column race`},
		{[]string{"--dataset", "compas", "--min-group-rows", "10"}, "--min-group-rows applies to groups"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		args := append([]string{"train", "--out", out, "--quiet", "--no-plot"}, tc.args...)
		_, _, err := runFP(t, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.args, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the run folder was created", tc.args)
		}
	}
}

// Two groups from --sensitive-levels train as the binary a they code; the
// configuration records the levels (a config file may give them as a
// list), and the identity differs from that of the column without groups.
func TestTrainTwoGroupsFromLevels(t *testing.T) {
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfgFile, []byte("dataset: compas\nsensitive-levels: [Caucasian]\nmin-group-rows: 40\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	_, stderr, err := runFP(t, "train", "--config", cfgFile, "--out", out, "--quiet", "--no-plot",
		"--epochs", "1", "--splits", "1", "--lambdas", "0,1", "--propensity-epochs", "1")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	c, err := runfolder.ReadConfig(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.SensitiveLevels) != 1 || c.SensitiveLevels[0] != "Caucasian" || c.MinGroupRows != 40 ||
		c.Coding.SensitivePositive != "Caucasian" || c.DataID == "b7a671cdf5106e4e" {
		b, _ := json.Marshal(c)
		t.Errorf("config %s", b)
	}
}

// fp datasets shows each group of the datasets with groups; fp datasets
// export writes a row's group in the sensitive column, with a note for
// each value merged.
func TestDatasetsGroups(t *testing.T) {
	stdout, _, err := runFP(t, "datasets")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "compas-race4 groups: African-American 3175 (P(y=1) 0.5231), Caucasian 2103") ||
		!strings.Contains(stdout, "adult-race5 (full) groups: Amer-Indian-Eskimo 435") {
		t.Errorf("fp datasets:\n%s", stdout)
	}
	out := filepath.Join(t.TempDir(), "c.csv")
	_, stderr, err := runFP(t, "datasets", "export", "compas", "--sensitive-levels", "all", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, `note: group "Native American" has 11 rows, fewer than 30 (--min-group-rows): it joins the group "other"`) ||
		!strings.Contains(stderr, `race: the groups "African-American", "Asian", "Caucasian", "Hispanic", "other"`) {
		t.Errorf("stderr: %s", stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(string(b), "\n"); !strings.HasSuffix(lines[0], ",race") || !strings.HasSuffix(lines[1], ",other") {
		t.Errorf("file starts %q", lines[:2])
	}
}

// fp train on COMPAS's race in four groups, then fp predict
// --with-propensity on a split's test rows writes one propensity_<level>
// column per group, and fp audit --group race on that output gives back
// the records' R-group metrics, ato included.
func TestPredictAuditGroups(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if _, stderr, err := runFP(t, "train", "--dataset", "compas-race4", "--out", run, "--quiet", "--no-plot",
		"--epochs", "3", "--splits", "1", "--lambdas", "0,0.5,1", "--propensity-epochs", "3", "--engine", "backprop"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	all := filepath.Join(dir, "all.csv")
	if _, stderr, err := runFP(t, "datasets", "export", "compas-race4", "--out", all); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	c, err := runfolder.ReadConfig(run)
	if err != nil {
		t.Fatal(err)
	}
	d, err := runfolder.LoadDataset(c)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := runfolder.PartsOf(c, d, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(all)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines)-1 != d.N {
		t.Fatalf("%d exported rows, %d in the dataset", len(lines)-1, d.N)
	}
	test := []string{lines[0]}
	for _, i := range parts.Test {
		test = append(test, lines[1+i])
	}
	rows := filepath.Join(dir, "test.csv")
	if err := os.WriteFile(rows, []byte(strings.Join(test, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := runfolder.ReadRecords(run)
	if err != nil || len(recs) != 3 {
		t.Fatalf("%d records: %v", len(recs), err)
	}
	for _, rec := range recs {
		out := filepath.Join(dir, "scores.csv")
		if _, stderr, err := runFP(t, "predict", "--model", filepath.Join(run, rec.Weights), "--data", rows, "--out", out,
			"--logit", "--with-propensity", "--keep-coded"); err != nil {
			t.Fatalf("predict: %v\n%s", err, stderr)
		}
		sb, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		header, _, _ := strings.Cut(string(sb), "\n")
		if want := "score,label,logit,propensity_African-American,propensity_Caucasian,propensity_Hispanic,propensity_other,y_coded,group_coded"; header != want {
			t.Fatalf("header %q, want %q", header, want)
		}
		stdout, stderr, err := runFP(t, "audit", "--data", out, "--logit", "logit", "--label", "y_coded", "--group", "group_coded", "--json")
		if err != nil {
			t.Fatalf("audit: %v\n%s", err, stderr)
		}
		var got struct {
			Risk, Accuracy, DP, EO, EOpp float64
			ATO                          *float64
			ByGroup                      []struct {
				Group string
				N     int `json:"count"`
			} `json:"by_group"`
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil || got.ATO == nil {
			t.Fatalf("audit JSON %s: %v", stdout, err)
		}
		if len(got.ByGroup) != 4 {
			t.Fatalf("audit: %d groups, want 4: %s", len(got.ByGroup), stdout)
		}
		for _, g := range got.ByGroup {
			if rec.GroupCounts[g.Group] != g.N {
				t.Errorf("group %q: audit %d rows, record %d", g.Group, g.N, rec.GroupCounts[g.Group])
			}
		}
		for _, m := range []struct {
			name      string
			got, want float64
		}{
			{"risk", got.Risk, rec.Risk}, {"accuracy", got.Accuracy, rec.Accuracy}, {"ato", *got.ATO, rec.ATO},
			{"dp", got.DP, rec.DP}, {"eo", got.EO, rec.EO}, {"eopp", got.EOpp, rec.EOpp},
		} {
			if math.Abs(m.got-m.want) > 1e-9 {
				t.Errorf("λ = %g: audit %s = %v, record %v", rec.Lambda, m.name, m.got, m.want)
			}
		}
	}
}

// fp front, fp pick, fp report and fp plot --dist run on a sweep of four
// groups and name them: the front's note of the groups, pick's audit over
// the sensitive column, the report's dataset label, the figure's legend.
func TestToolsOnGroupsRun(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if _, stderr, err := runFP(t, "train", "--dataset", "compas-race4", "--out", run, "--quiet", "--no-plot",
		"--epochs", "3", "--splits", "2", "--lambdas", "0,0.3,0.6,1", "--propensity-epochs", "3"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	key := "race[African-American|Caucasian|Hispanic|other]"
	stdout, _, err := runFP(t, "front", run)
	if err != nil || !strings.Contains(stdout, "groups: "+key+"; dp, eo, eopp and ato are the indices over these groups") {
		t.Errorf("front: %v\n%s", err, stdout)
	}
	stdout, _, err = runFP(t, "pick", run, "--max-risk", "10", "--allow-degenerate")
	if err != nil || !strings.Contains(stdout, "(4 groups):") || !strings.Contains(stdout, "--keep-coded | fp audit --data - --logit logit --label y_coded --group group_coded\n") {
		t.Errorf("pick: %v\n%s", err, stdout)
	}
	// The pick's intervals are of the four-group indices: the bootstrap
	// re-scores the rows and checks them against the record first.
	stdout, stderr, err := runFP(t, "pick", run, "--max-risk", "10", "--allow-degenerate", "--json")
	var picked struct {
		ATO, DP float64
		ATOCI   *[2]float64 `json:"ato_ci"`
		DPCI    *[2]float64 `json:"dp_ci"`
		Note    string      `json:"ci_note"`
		Rows    int         `json:"ci_rows"`
	}
	if err != nil || json.Unmarshal([]byte(stdout), &picked) != nil {
		t.Fatalf("pick --json: %v\n%s%s", err, stdout, stderr)
	}
	if picked.ATOCI == nil || picked.DPCI == nil || picked.Note != "" || picked.Rows == 0 {
		t.Errorf("pick of a four-group run: no ato or dp interval (note %q): %s", picked.Note, stdout)
	} else if !(picked.DPCI[0] <= picked.DPCI[1] && picked.ATOCI[0] <= picked.ATOCI[1]) {
		t.Errorf("pick: intervals ato %v dp %v are not ordered", *picked.ATOCI, *picked.DPCI)
	}
	page := filepath.Join(dir, "report.html")
	_, stderr, err = runFP(t, "report", run, "--out", page)
	if err != nil || strings.Contains(stderr, "no interval") {
		t.Errorf("report: %v\n%s", err, stderr)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), key) {
		t.Errorf("report page: %v (names the groups: %v)", err, strings.Contains(string(b), key))
	} else if !strings.Contains(string(b), "ESS Hispanic / rows") || strings.Contains(string(b), "ESS a=1") {
		// The propensity table shows each group's effective sample size,
		// not the binary a = 1 / a = 0 of a two-group run.
		t.Errorf("report page: the propensity table does not name the four groups' ESS")
	}
	png := filepath.Join(dir, "dist.png")
	if _, stderr, err := runFP(t, "plot", "--dist", run, "--out", png); err != nil {
		t.Errorf("plot --dist: %v\n%s", err, stderr)
	}
	if st, err := os.Stat(png); err != nil || st.Size() == 0 {
		t.Errorf("plot --dist wrote no figure: %v", err)
	}
}

// A CSV's coding line names the groups of a sweep of more than two, not a
// binary a it does not train on; with two groups it stays the binary line.
func TestTrainCodingLineNamesGroups(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,g,y\n")
	for i := range 240 {
		fmt.Fprintf(&b, "%d,%s,%d\n", i%17, []string{"a", "b", "c"}[i%3], i/3%2)
	}
	data := filepath.Join(dir, "d.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		levels, want string
	}{
		{"all", `coding: y = 1 means y = "1"; 3 groups of g: "a", "b", "c"`},
		{"a", `coding: y = 1 means y = "1"; a = 1 means g = "a"`},
	} {
		stdout, stderr, err := runFP(t, "train", "--data", data, "--target", "y", "--sensitive", "g",
			"--sensitive-levels", c.levels, "--min-group-rows", "5", "--out", filepath.Join(dir, c.levels),
			"--quiet", "--no-plot", "--epochs", "1", "--splits", "1", "--lambdas", "0,1", "--propensity-epochs", "1")
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.levels, err, stderr)
		}
		if !strings.Contains(stdout, c.want+"\n") {
			t.Errorf("--sensitive-levels %s: no line %q in\n%s", c.levels, c.want, stdout)
		}
	}
}

// fp train on a CSV with the intersection of two columns and a
// --group-map, then the audit fp pick suggests, run as printed on the
// split's test rows: predict writes each row's group as training formed
// it (the map's group, the rare combinations in other) in group_coded,
// and the audit names the run's groups and gives back the record's
// metrics, ato included.
func TestPickAuditCSVGroupMap(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x1,x2,region,sex,approved\n")
	regions := []string{"east", "west", "north", "east", "west", "north", "east", "south"}
	for i := range 480 {
		region := regions[i%len(regions)]
		if region == "south" && i%32 != 7 && i%32 != 15 {
			region = "north" // south: 30 rows of 480, 15 per sex, each fewer than 30
		}
		sex := "F"
		if (i/len(regions))%2 == 1 {
			sex = "M"
		}
		x1, x2 := float64((i*37)%101)/50-1, float64((i*53)%89)/44-1
		y := 0
		if x1+0.5*x2+0.3*float64(i%3-1) > 0 {
			y = 1
		}
		fmt.Fprintf(&b, "%.4f,%.4f,%s,%s,%d\n", x1, x2, region, sex, y)
	}
	data := filepath.Join(dir, "loans.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if _, stderr, err := runFP(t, "train", "--data", data, "--target", "approved", "--sensitive", "region,sex",
		"--group-map", "east × F=east/west F,west × F=east/west F", "--out", run, "--quiet", "--no-plot",
		"--epochs", "2", "--splits", "1", "--lambdas", "0,1", "--propensity-epochs", "2", "--engine", "backprop"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	c, err := runfolder.ReadConfig(run)
	if err != nil {
		t.Fatal(err)
	}
	d, err := runfolder.LoadDataset(c)
	if err != nil {
		t.Fatal(err)
	}
	wantLevels := "east/west F|east × M|north × F|north × M|west × M|other"
	if got := strings.Join(d.Levels, "|"); got != wantLevels {
		t.Fatalf("levels %q, want %q", got, wantLevels)
	}
	parts, err := runfolder.PartsOf(c, d, 0)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	test := []string{lines[0]}
	for _, i := range parts.Test {
		test = append(test, lines[1+i])
	}
	rows := filepath.Join(dir, "test.csv")
	if err := os.WriteFile(rows, []byte(strings.Join(test, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, err := runFP(t, "pick", run, "--max-risk", "10", "--allow-degenerate")
	if err != nil {
		t.Fatalf("pick: %v\n%s", err, stderr)
	}
	var predictArgs, auditArgs []string
	for _, l := range strings.Split(stdout, "\n") {
		p, a, ok := strings.Cut(strings.TrimSpace(l), " | ")
		if !ok || !strings.HasPrefix(p, "fp predict ") {
			continue
		}
		if strings.ContainsAny(l, `'"`) {
			t.Fatalf("pick's command is quoted, which this test does not read: %s", l)
		}
		predictArgs, auditArgs = strings.Fields(p)[1:], strings.Fields(a)[1:]
	}
	if want := "fp audit --data - --logit logit --label y_coded --group group_coded"; !strings.Contains(stdout, "--keep-coded | "+want+"\n") || predictArgs == nil {
		t.Fatalf("pick does not suggest %q:\n%s", want, stdout)
	}
	for i, a := range predictArgs {
		if a == "NEW.csv" {
			predictArgs[i] = rows
		}
	}
	var net string
	for i, a := range predictArgs {
		if a == "--model" {
			net = predictArgs[i+1]
		}
	}
	scores, stderr, err := runFP(t, predictArgs...)
	if err != nil {
		t.Fatalf("predict %q: %v\n%s", predictArgs, err, stderr)
	}
	header, _, _ := strings.Cut(scores, "\n")
	if !strings.HasSuffix(header, ",y_coded,group_coded") || !strings.Contains(header, ",propensity_east/west F,") {
		t.Fatalf("predict header %q", header)
	}
	checkGroupCodedParquet(t, predictArgs, scores)
	// A file without one of the group columns is refused in one line.
	noSex := filepath.Join(dir, "nosex.csv")
	if err := os.WriteFile(noSex, []byte("x1,x2,region,approved\n0.1,0.2,east,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = runFP(t, "predict", "--model", net, "--data", noSex, "--keep-coded")
	if err == nil || !strings.Contains(err.Error(), `no column "sex", a column of the network's groups, for --keep-coded`) {
		t.Errorf("no column sex: %v", err)
	} else {
		oneLine(t, err.Error())
	}
	out, err := runFPStdin(t, scores, append(auditArgs, "--json")...)
	if err != nil {
		t.Fatalf("audit %q: %v", auditArgs, err)
	}
	var got struct {
		Risk, Accuracy, DP, EO, EOpp float64
		ATO                          *float64
		ByGroup                      []struct {
			Group string
			N     int `json:"count"`
		} `json:"by_group"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.ATO == nil {
		t.Fatalf("audit JSON %s: %v", out, err)
	}
	recs, err := runfolder.ReadRecords(run)
	if err != nil {
		t.Fatal(err)
	}
	var rec *records.Record
	for i := range recs {
		if filepath.Join(run, recs[i].Weights) == net {
			rec = &recs[i]
		}
	}
	if rec == nil {
		t.Fatalf("no record of the network %s", net)
	}
	var names []string
	for _, g := range got.ByGroup {
		names = append(names, g.Group)
		if rec.GroupCounts[g.Group] != g.N {
			t.Errorf("group %q: audit %d rows, record %d", g.Group, g.N, rec.GroupCounts[g.Group])
		}
	}
	slices.Sort(names)
	want := slices.Clone(d.Levels)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("audit groups %q, want the run's %q", names, want)
	}
	for _, m := range []struct {
		name      string
		got, want float64
	}{
		{"risk", got.Risk, rec.Risk}, {"accuracy", got.Accuracy, rec.Accuracy}, {"ato", *got.ATO, rec.ATO},
		{"dp", got.DP, rec.DP}, {"eo", got.EO, rec.EO}, {"eopp", got.EOpp, rec.EOpp},
	} {
		if math.Abs(m.got-m.want) > 1e-9 {
			t.Errorf("audit %s = %v, record %v", m.name, m.got, m.want)
		}
	}
}

// checkGroupCodedParquet checks that predict (args) writes group_coded as
// a string column of a Parquet output, with the values of its CSV output
// csvOut.
func checkGroupCodedParquet(t *testing.T, args []string, csvOut string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "scores.parquet")
	if _, stderr, err := runFP(t, append(slices.Clone(args), "--out", out)...); err != nil {
		t.Fatalf("predict: %v\n%s", err, stderr)
	}
	r, err := datasets.OpenParquet(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	types := r.Types()
	last := len(types) - 1
	if h := r.Header(); h[last] != "group_coded" || types[last].Kind != datasets.TextValue || !strings.HasPrefix(types[last-1].Name, "INT32") {
		t.Fatalf("header %q, types %v", h, types)
	}
	recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(recs); i++ {
		fields, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		for j, f := range fields {
			if string(f) != recs[i][j] {
				t.Fatalf("row %d, column %s: %q, CSV %q", i, recs[0][j], f, recs[i][j])
			}
		}
	}
}
