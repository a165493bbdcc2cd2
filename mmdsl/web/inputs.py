"""What a web request may name or send: bundled tests and models (nothing else on disk), texts, limits."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..core.errors import LitmusError, MmdslError, ModelError
from ..core.files import read_input
from ..core.resources import bundled_dir

MAX_BODY_BYTES = 256 * 1024  # one request's body: far above any test or model a page holds
MAX_TEXT_CHARS = MAX_BODY_BYTES  # one text field
DEFAULT_TIMEOUT = 10.0  # seconds of work per request (``mmdsl serve --timeout``)
_SAFE_LABEL = re.compile(r"[^A-Za-z0-9._+-]")


class RequestTooLarge(MmdslError):
    """A request body over MAX_BODY_BYTES (HTTP 413)."""

    kind = "too large"


class NotFound(MmdslError):
    """A bundled test or model that does not exist, or a name outside the bundled folders (HTTP 404)."""

    kind = "not found"


def _suffixes() -> tuple[str, ...]:
    from ..litmus.registry import PROGRAM_SUFFIXES

    return tuple(PROGRAM_SUFFIXES)


def bundled_file(folder: str, name: str, suffixes: tuple[str, ...]) -> Path:
    """The bundled file ``folder/name`` (``folder``: litmus or models), refusing any name that is
    not a plain relative path to a regular file of one of ``suffixes`` inside that folder."""
    what = "test" if folder == "litmus" else "model"
    if not isinstance(name, str) or not name or len(name) > 300 or "\\" in name or "\0" in name:
        raise NotFound(f"no bundled {what} of that name")
    parts = name.split("/")
    if name.startswith("/") or any(p in ("", ".", "..") for p in parts) or not name.endswith(suffixes):
        raise NotFound(f"no bundled {what} named '{name}'", expected=f"a name listed by /api/{what}s")
    root = bundled_dir(folder).resolve()
    path = root.joinpath(*parts)
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise NotFound(f"no bundled {what} named '{name}'") from None
    if not real.is_relative_to(root) or not real.is_file():
        raise NotFound(f"no bundled {what} named '{name}'")
    return real


def bundled_model_file(name: str) -> Path:
    return bundled_file("models", name if name.endswith(".mm") else name + ".mm", (".mm",))


def bundled_test_file(name: str) -> Path:
    return bundled_file("litmus", name, _suffixes())


@lru_cache(maxsize=1)
def test_suites() -> list[dict]:
    """The bundled suites (top-level folders of litmus/) with their test counts."""
    root = bundled_dir("litmus")
    out = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        out.append({"suite": d.name, "count": len(suite_tests(d.name))})
    return out


@lru_cache(maxsize=32)
def suite_tests(suite: str) -> tuple[str, ...]:
    """The names (relative to litmus/) of one bundled suite's tests, sorted."""
    root = bundled_dir("litmus")
    if not re.fullmatch(r"[A-Za-z0-9._-]+", suite or "") or suite.startswith("."):
        raise NotFound(f"no bundled suite named '{suite}'")
    d = root / suite
    if not d.is_dir():
        raise NotFound(f"no bundled suite named '{suite}'")
    sfx = _suffixes()
    return tuple(sorted(p.relative_to(root).as_posix() for p in d.rglob("*") if p.suffix in sfx and p.is_file()))


def bundled_models() -> list[dict]:
    from ..lang import bundled_model_paths, load_model

    out = []
    for p in bundled_model_paths():
        m = load_model(p)
        out.append({"name": p.stem, "title": m.title})
    return out


def check_encodable(value, where: str = "the request") -> None:
    """Refuse a JSON string holding a lone surrogate (``"\\ud800"``): JSON lets one be written,
    but it is no character, so no name, text or answer can hold it (UTF-8 cannot encode it)."""
    stack = [(value, where)]
    while stack:
        v, at = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError as err:
                raise MmdslError(f"{at} holds a lone surrogate (\\u{ord(v[err.start]):04x}) at character "
                                 f"{err.start + 1}", expected="text of Unicode characters") from None
        elif isinstance(v, dict):
            stack.extend((x, f"'{k}'" if isinstance(k, str) and k.isidentifier() else at) for k, x in v.items())
            stack.extend((k, "a key of " + at) for k in v)
        elif isinstance(v, list):
            stack.extend((x, at) for x in v)


def text_field(payload: dict, key: str) -> str | None:
    v = payload.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        raise MmdslError(f"'{key}' must be text")
    if len(v) > MAX_TEXT_CHARS:
        raise RequestTooLarge(f"'{key}' is too long", expected=f"at most {MAX_TEXT_CHARS:,} characters")
    return v


def label(name: str | None, default: str, suffixes: tuple[str, ...]) -> str:
    """A file name for the errors of a typed text: the last part of ``name``, made plain."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = _SAFE_LABEL.sub("_", base)[:80]
    return base if base.endswith(suffixes) and base.strip("._") else default


@dataclass
class Inputs:
    """A request's test and model, parsed."""

    program: object
    model: object


def load_request_model(payload: dict):
    """The model of a request: ``model_text`` (typed; ``model_name`` only labels it and, when the
    text is the bundled model's own, lets the cached model be used), else the bundled ``model_name``."""
    from ..lang import load_model
    from ..lang.library import load_model_text

    text = text_field(payload, "model_text")
    name = payload.get("model_name")
    if name is not None and not isinstance(name, str):
        raise ModelError("'model_name' must be text")
    if text is None:
        if not name:
            raise ModelError("no model given", expected="model_text or model_name")
        return load_model(bundled_model_file(name))
    if name:
        try:
            path = bundled_model_file(name)
            if read_input(path, "model file", ModelError) == text:
                return load_model(path)
        except NotFound:
            pass
    return load_model_text(text, label(name, "model.mm", (".mm",)))


def load_request_test(payload: dict):
    """The test of a request: ``test_text`` (labelled by ``test_name``; ``.rmm`` names read
    Memorax programs), else the bundled ``test_name``."""
    from ..litmus import load_litmus, parse_litmus

    text = text_field(payload, "test_text")
    name = payload.get("test_name")
    if name is not None and not isinstance(name, str):
        raise LitmusError("'test_name' must be text")
    if text is None:
        if not name:
            raise LitmusError("no test given", expected="test_text or test_name")
        return load_litmus(bundled_test_file(name))
    return parse_litmus(text, label(name, "test.litmus", _suffixes()))


def load_inputs(payload: dict) -> Inputs:
    return Inputs(load_request_test(payload), load_request_model(payload))
