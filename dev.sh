#!/usr/bin/env bash
# Set up everything mmdsl needs on a fresh Debian machine with Python 3.11, then run a job:
#   ./dev.sh run     the main job: the bundled suites under their models with expected
#                    verdicts (matrices, HTML reports in out/), diagrams in out/diagrams/
#   ./dev.sh test    the whole test suite, slow corpus checks included (what CI runs)
#   ./dev.sh setup   only the set-up
# Set-up: Debian's graphviz (for diagrams), gcc (mmdsl hw), mono-mcs + mono-utils (C# programs), chromium + chromium-driver (browser tests), a virtualenv in .venv with mmdsl installed
# (editable) and its test and Dask extras. Re-running skips what is already done.
set -euo pipefail
cd "$(dirname "$0")"

python_bin() {
    for p in python3.11 python3; do
        if command -v "$p" >/dev/null 2>&1; then echo "$p"; return; fi
    done
    echo "mmdsl needs Python 3.11 or newer (python3.11 or python3 on PATH)" >&2
    exit 2
}

setup_graphviz() {
    command -v dot >/dev/null 2>&1 && return
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing Debian's graphviz (for diagrams)..." >&2
    $sudo apt-get install -y -q graphviz >/dev/null 2>&1 \
        || { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q graphviz >/dev/null; }
}

apt_install() {
    # apt_install "WHAT IT IS FOR" "WHAT SKIPS WITHOUT IT" PACKAGE...: Debian packages, warning when
    # they cannot be installed (the tests that need them then skip, saying so)
    local why=$1 skips=$2 sudo=""
    shift 2
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing Debian's $* ($why)..." >&2
    local apt="$sudo env DEBIAN_FRONTEND=noninteractive apt-get"
    $apt install -y -q "$@" >/dev/null 2>&1 \
        || { $apt update -q >/dev/null && $apt install -y -q "$@" >/dev/null; } \
        || echo "warning: $* could not be installed; $skips will skip" >&2
}

setup_browser() {
    # Debian's chromium and its driver, for the browser tests of `mmdsl serve` (tests/web)
    command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 && return
    apt_install "for the browser tests" "the browser tests" chromium chromium-driver
}

setup_cc() {
    # Debian's gcc, for `mmdsl hw` (litmus tests compiled and run on this CPU)
    command -v gcc >/dev/null 2>&1 && return
    apt_install "for mmdsl hw" "the hardware tests" gcc libc6-dev binutils
}

setup_mono() {
    # Debian's mono C# compiler (mcs) and disassembler (monodis), for C# programs (docs/csharp.md)
    command -v mcs >/dev/null 2>&1 && command -v monodis >/dev/null 2>&1 && return
    apt_install "for C# programs" "the C# tests" mono-mcs mono-utils
}

setup_venv() {
    local py stamp want
    py=$(python_bin)
    [ -x .venv/bin/python ] || "$py" -m venv .venv
    stamp=.venv/.mmdsl-installed
    want=$(sha256sum pyproject.toml | cut -d' ' -f1)
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        echo "installing mmdsl and its dependencies into .venv..." >&2
        .venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
        .venv/bin/python -m pip install -q -e '.[test,dask]'
        echo "$want" > "$stamp"
    fi
}

job=${1:-run}
shift || true
setup_graphviz
setup_browser
setup_cc
setup_mono
setup_venv
case "$job" in
    setup) ;;
    run)
        # every bundled suite against its expected verdicts (HTML reports in out/), the
        # classic shapes drawn into out/diagrams/, then the classic shapes under every
        # bundled model; exit 1 if any expectation failed
        mkdir -p out
        status=0
        mm=.venv/bin/mmdsl
        $mm suite litmus/classic --draw out/diagrams/classic --report html -o out/classic.html "$@" || status=1
        suites="programs archtest dotnet fences fence-benchmarks hardware"
        command -v mcs >/dev/null 2>&1 && command -v monodis >/dev/null 2>&1 && suites="$suites csharp"
        for suite in $suites; do
            $mm suite litmus/$suite --report html -o out/$suite.html "$@" || status=1
        done
        $mm suite litmus/x86 --report html -o out/x86.html "$@" || status=1
        $mm suite litmus/riscv --jobs 2 --report html -o out/riscv.html "$@" || status=1
        # the Power, ARMv7 and AArch64 sets: mmdsl's own models against herd7's stock-model columns
        $mm suite litmus/ppc -m ppc=power --report html -o out/ppc.html "$@" || status=1
        $mm suite litmus/arm -m arm=armv7 --report html -o out/arm.html "$@" || status=1
        $mm suite litmus/aarch64 -m aarch64=armv8 --report html -o out/aarch64.html "$@" || status=1
        # herd's own C11 and Linux-kernel models, loaded unchanged, where they are beside us
        cats=../shared/reference/herd-cats
        if [ -f $cats/rc11.cat ]; then
            $mm suite litmus/c11 -m $cats/rc11.cat --jobs 2 --report html -o out/c11.html "$@" || status=1
            $mm suite litmus/linux -m $cats/linux-kernel.cat --report html -o out/linux.html "$@" || status=1
        fi
        $mm run litmus/classic -m sc -m tso -m pso -m rmo -m dotnet -m relaxed -m tso-axioms -q || status=1
        # the data-type harnesses are serial under sc, tso and pso (relaxed needs fences: docs/datatypes.md)
        $mm run litmus/datatypes -m sc -m tso -m pso --spec serial > out/datatypes.txt || status=1
        echo "reports: out/*.html; diagrams: out/diagrams/"
        exit $status
        ;;
    test)
        # one worker per core, each test file kept on one worker (its module fixtures built once),
        # files in the order tests/conftest.py gives them (heaviest first: xdist's own reordering by
        # test count is turned off); the 25 slowest tests listed, to keep the run under 30 min on 2 cores
        .venv/bin/python -m pytest -q -n auto --dist loadfile --no-loadscope-reorder --durations=25 "$@"
        ;;
    *)
        echo "usage: ./dev.sh run|test|setup" >&2
        exit 2
        ;;
esac
