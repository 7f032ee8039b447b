"""Tool-call extraction: every call format local models emit, read into pedro's ToolCall, or a format problem."""

from pedro.toolcalls.completion import find_completion
from pedro.toolcalls.extract import extract
from pedro.toolcalls.model import Extraction, FormatProblem, ProblemKind
from pedro.toolcalls.stream import StreamExtractor

__all__ = ["Extraction", "FormatProblem", "ProblemKind", "StreamExtractor", "extract", "find_completion"]
