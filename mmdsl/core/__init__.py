"""Events, programs, final conditions, candidate executions, outcomes and verdicts."""

from .condition import Condition, FinalState, key_text
from .errors import LitmusError, MmdslError, ModelError, SourcePos, UnsupportedError
from .events import Event, EventShape, Execution
from .outcome import ALLOWED, FORBIDDEN, TestResult, Violation
from .program import Program, Thread

__all__ = [
    "Condition", "FinalState", "key_text", "LitmusError", "MmdslError", "ModelError", "SourcePos",
    "UnsupportedError", "Event", "EventShape", "Execution", "ALLOWED", "FORBIDDEN", "TestResult",
    "Violation", "Program", "Thread",
]
