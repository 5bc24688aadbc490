//go:build ignore

// gotest runs go test with the arguments it is given (as `make test` does)
// and prints what go test prints without -v: each package's result line
// and the output of the tests that fail. It ends with one line naming the
// tests that were skipped and the environment variables their messages
// name to make them required (FP_REQUIRE_ONNX=1 and the like), so that a
// run where they could not run does not read as a full pass. It exits with
// go test's status.
//
//	go run scripts/gotest.go -count=1 ./...
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// requireVar is how a skipped test names the variable that makes it
// required (FP_REQUIRE_ONNX=1).
var requireVar = regexp.MustCompile(`\bFP_REQUIRE_[A-Z_]+=1`)

func main() {
	goBin := os.Getenv("GO")
	if goBin == "" {
		goBin = "go"
	}
	cmd := exec.Command(goBin, append([]string{"test", "-json"}, os.Args[1:]...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(2)
	}
	held := map[string][]string{} // a running test's output, by package and test
	var skipped []string          // "pkg.Test", top-level tests and subtests
	vars := map[string]bool{}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			fmt.Println(sc.Text()) // not an event: pass it on
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			fmt.Print(e.Output)
		case e.Test == "" && e.Action == "output":
			if e.Output != "PASS\n" && !strings.HasPrefix(e.Output, "=== ") {
				fmt.Print(e.Output)
			}
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Action == "fail":
			fmt.Print(strings.Join(held[key], ""))
			delete(held, key)
		case e.Action == "skip" && e.Test == "":
			// A package without tests ("no test files"): nothing skipped.
			delete(held, key)
		case e.Action == "skip":
			name := e.Test
			if i := strings.Index(name, "/"); i >= 0 {
				name = name[:i]
			}
			pkg := e.Package[strings.LastIndex(e.Package, "/")+1:]
			skipped = append(skipped, pkg+"."+name)
			for _, m := range requireVar.FindAllString(strings.Join(held[key], ""), -1) {
				vars[m] = true
			}
			delete(held, key)
		case e.Action == "pass":
			delete(held, key)
		}
		if e.Test == "" && e.Action == "fail" {
			// A package that failed without its tests failing (a
			// timeout, a panic): what its tests printed says why.
			for k, lines := range held {
				if strings.HasPrefix(k, e.Package+" ") {
					fmt.Print(strings.Join(lines, ""))
					delete(held, k)
				}
			}
		}
	}
	err = cmd.Wait()
	if len(skipped) > 0 {
		slices.Sort(skipped)
		names := slices.Compact(slices.Clone(skipped))
		plural := "s"
		if len(skipped) == 1 {
			plural = ""
		}
		line := fmt.Sprintf("skipped: %d test%s (%s)", len(skipped), plural, strings.Join(names, ", "))
		if len(vars) > 0 {
			v := make([]string, 0, len(vars))
			for k := range vars {
				v = append(v, k)
			}
			slices.Sort(v)
			line += "; " + strings.Join(v, ", ") + " makes them required"
		}
		fmt.Println(line)
	}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			os.Exit(ee.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(2)
	}
}
