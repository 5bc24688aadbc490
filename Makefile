# fp — build, test, benchmark and lint.
GO      ?= go
GOBIN   := $(shell $(GO) env GOPATH)/bin
STATICCHECK_VERSION := v0.8.2
PKGS    := ./...

.PHONY: all build test test-short fuzz bench lint staticcheck demo report-demo docs clean reproduce reproduce-adv-matched reproduce-conditioned rederive

all: build

# The version fp --version and the network cards' fp_version report, stamped
# into the binary so that it holds even where Go records no VCS information
# (-buildvcs=false, a copy of the sources without .git): git describe, else a
# digest of the Go sources. STAMP=… overrides it.
STAMP   ?= $(shell git describe --always --dirty 2>/dev/null || \
	{ printf 'src-'; find . -name '*.go' -not -path './.git/*' | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-12; })
LDFLAGS := -X github.com/fpareto/fp/model.stamp=$(STAMP)

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/fp ./cmd/fp

# The whole test suite, as CI runs it: go test's output, then one line
# naming the tests that were skipped (no ONNX Runtime, no Slurm cluster, no
# chromium) and the FP_REQUIRE_… variable that makes each required; the
# exit status is go test's.
test:
	@$(GO) build -o bin/gotest scripts/gotest.go
	GO=$(GO) bin/gotest -count=1 -timeout 20m $(PKGS)

# Skips the long training tests.
test-short:
	$(GO) test -count=1 -short $(PKGS)

# Every fuzz target (func FuzzXxx in a _test.go file, found by grep, so a new
# one is run too) for FUZZTIME each, one after the other: go test -fuzz takes
# one target per run. FUZZPARALLEL is the number of fuzzing processes of
# each run. make test runs the targets' seed corpora (testdata/fuzz) already;
# a finding is written there for go test to replay.
#
# Both budgets are counts of executions (Nx), not durations: go test ends a
# duration-bound run through a context deadline that can escape as a failure
# of its own ("context deadline exceeded", golang.org/issue/75804), and the
# minimization of each new input, which go test bounds by 60 s by default,
# would otherwise take most of a short run without executing anything new.
# A hang is still caught: internal/fuzzcheck fails an input that runs 10 s.
FUZZTIME         ?= 50000x
FUZZMINIMIZETIME ?= 500x
FUZZPARALLEL     ?= 1
fuzz:
	@set -e; for file in $$(grep -rl --include='*_test.go' '^func Fuzz' . | LC_ALL=C sort); do \
	  pkg=$$(dirname $$file); \
	  for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$file); do \
	    echo "fuzz: $$pkg $$target for $(FUZZTIME)"; \
	    $(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINIMIZETIME) -parallel=$(FUZZPARALLEL) $$pkg; \
	  done; \
	done

# Benchmarks: compare runs with benchstat (go install golang.org/x/perf/cmd/benchstat@latest).
bench:
	GOMAXPROCS=1 $(GO) test -run='^$$' -bench=. -benchmem -count=5 $(PKGS)

$(GOBIN)/staticcheck:
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

staticcheck: $(GOBIN)/staticcheck

lint: staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GOBIN)/staticcheck $(PKGS)

# The quick start: a Chebyshev sweep on the embedded COMPAS data, then the front.
demo: build
	./bin/fp train --out runs/demo
	./bin/fp report runs/demo

# The quick start's report and a 1280×800 screenshot of it (needs chromium);
# runs the quick start first if its folder is absent.
CHROMIUM ?= $(shell command -v chromium chromium-browser google-chrome 2>/dev/null | head -n1)
report-demo: build
	@test -f runs/demo/records.jsonl || ./bin/fp train --out runs/demo
	./bin/fp report runs/demo --out runs/demo/report.html
	@test -n "$(CHROMIUM)" || { echo "report-demo: chromium not found (apt-get install chromium)"; exit 1; }
	"$(CHROMIUM)" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --window-size=1280,800 \
	  --screenshot="$(CURDIR)/runs/demo/report.png" "file://$(CURDIR)/runs/demo/report.html" 2>/dev/null
	@echo runs/demo/report.png

# docs/cli.md, the command-line reference, from the command tree; the same test
# fails when the file is out of date.
docs:
	$(GO) test ./cmd/fp -run '^TestCLIReferenceIsCurrent$$' -count=1 -update

clean:
	rm -rf bin

# The paper's experiments at a size one machine affords (see docs/reproduction.md).
# COMPAS alone: make reproduce DATASETS=compas
reproduce: build
	DATASETS="$(or $(DATASETS),compas adult-sex adult-race)" scripts/reproduce.sh

# Adult at ten splits, shard by shard and resumable (docs/reproduction.md):
# make reproduce-adult10 SHARDS="0 1" DATASETS=adult-sex
reproduce-adult10: build
	SHARDS="$(or $(SHARDS),0 1 2 3 4)" DATASETS="$(or $(DATASETS),adult-sex adult-race)" scripts/adult10.sh

# The adversarial baseline at a matched budget (COMPAS β × 1 and × 200, Adult-sex β × 200), shard by
# shard, resuming: make reproduce-adv-matched JOBS="adult-sex:adversarial-matched-beta200:3"
reproduce-adv-matched: build
	JOBS="$(JOBS)" scripts/adv-matched.sh

# The λ-conditioned network against one network per λ (COMPAS at 100 splits, Adult-sex at 20 in two
# shards), each job's wall time in results/conditioned-times.tsv: make reproduce-conditioned
# JOBS="adult-sex:conditioned-ato-output:1"
reproduce-conditioned: build
	JOBS="$(JOBS)" scripts/conditioned.sh

# Every committed comparison under results/ re-derived under fp's front rule, with q-values per
# results page, from the committed records (no training; about six minutes): results/rederived/
rederive: build
	/usr/bin/python3 scripts/rederive.py bin/fp
