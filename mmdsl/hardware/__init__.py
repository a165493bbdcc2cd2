"""The hardware runner: litmus tests compiled to native harnesses and run on the host CPU.

``run_on_host(program, HwOptions, models)`` builds the test's C harness (``harness``,
``codegen``), compiles and runs it (``runner``) and sets the histogram beside each model's
allowed final states (``compare``). See docs/hardware.md.
"""

from __future__ import annotations

from .compare import HwResult, check_models, forbidden_lines, hw_dict, hw_text, summary_lines
from .runner import HwOptions, backend_for, find_cc, host_isa, run_harness


def run_on_host(program, options: HwOptions, models=()) -> HwResult:
    """Run ``program`` on this CPU and check every observed state against each (name, Model)."""
    result = HwResult(program, run_harness(program, options))
    check_models(result, models)
    return result


__all__ = ["HwOptions", "HwResult", "run_on_host", "run_harness", "check_models", "hw_text", "hw_dict",
           "forbidden_lines", "summary_lines", "backend_for", "find_cc", "host_isa"]
