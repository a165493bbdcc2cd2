"""Text into DOT: every user string (test, model, thread and location names, instructions) escaped.

Test and model names come from files a user may not have written. In DOT they reach
four kinds of place, each with its own escaping, all done here:

- plain attribute values (labels, tooltips, ``id``, ``class``, ``xlabel``, the graph's
  name): ``dot_string``. The graphviz package quotes the value; ``graphviz.escape``
  makes its backslashes literal (no ``\\N``, ``\\G``, ``\\l`` escapes, no ``\\"`` that
  would end the string early) and marks it as not HTML, so ``<b>...</b>`` stays text;
- node ids: ``dot_id``, a plain identifier (the package reads ``a:b`` in an edge as a
  node and a port);
- HTML-like labels (titles, legends, thread headers): ``html_text``, entity-escaped;
- file names: not here, see ``core.outfiles``.

Control characters (a NUL ends a DOT string in Graphviz's C parser) become U+FFFD.
There are no URL attributes: nothing a user names becomes a link.
"""

from __future__ import annotations

import re
from html import escape as _html_escape

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")  # tab and newline stay
_PLAIN_ID = re.compile(r"[A-Za-z0-9_]+")
_HTML_BACKSLASH = re.compile(r"\\(?=[\\GNEHTLlnr])")  # `/\ ` (a condition's and) stays as it is


def _clean(text: object) -> str:
    return _CONTROL.sub("\ufffd", str(text).replace("\r\n", "\n"))


def dot_string(text: object, newline: str = "\\n", end: str = ""):
    """``text`` as a plain DOT attribute value, shown exactly as written (entities included).

    A newline in ``text`` becomes ``newline`` (``\\n`` centred, ``\\l`` left-justified),
    and ``end`` (a DOT escape of ours, such as ``\\l``) is appended after escaping.
    """
    import graphviz

    # Graphviz reads HTML entities (``&amp;``, ``&#38;``) even in plain labels: spell every
    # ``&`` as ``&amp;`` so a name made of entities is shown as typed
    escaped = graphviz.escape(_clean(text).replace("&", "&amp;")).replace("\n", newline) + end
    return graphviz.nohtml(escaped)


def dot_id(name: object) -> str:
    """A node name as a DOT node id: letters, digits and ``_`` kept, any other character
    spelled ``_HEX_`` (so ``init_x`` stays ``init_x``, and ``x:y`` is no port)."""
    text = str(name)
    if _PLAIN_ID.fullmatch(text):
        return text
    return "".join(c if c.isascii() and (c.isalnum() or c == "_") else f"_{ord(c):x}_" for c in text) or "_"


def html_text(text: object) -> str:
    """``text`` for an HTML-like label (``<...>``): ``& < > " '`` as entities, control characters
    replaced, and a backslash that Graphviz would read as an escape (``\\G``, ``\\N``, ``\\l``,
    ``\\\\`` ...: dot 2.43 expands them in HTML text too) doubled."""
    return _HTML_BACKSLASH.sub(r"\\\\", _html_escape(_clean(text), quote=True))
