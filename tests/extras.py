"""Optional dependencies of the tests: skipped where absent, required in CI.

`SPACY_DEID_REQUIRE` (comma-separated module names, and "java") names what
must be present: a test that needs one of them fails instead of skipping.
`.ci/run` sets it, so that a broken extra or a missing Java fails CI rather
than passing it with the tests skipped.
"""

import importlib
import os
import shutil
import subprocess
from types import ModuleType
from typing import FrozenSet

import pytest

REQUIRE_ENV = "SPACY_DEID_REQUIRE"


def required() -> FrozenSet[str]:
    """What this run requires (`SPACY_DEID_REQUIRE`)."""
    value = os.environ.get(REQUIRE_ENV, "")
    return frozenset(name.strip() for name in value.split(",") if name.strip())


def need(module: str) -> ModuleType:
    """Import `module`; skip the test if it is missing, unless it is required,
    in which case the import error fails the test."""
    if module in required():
        return importlib.import_module(module)
    return pytest.importorskip(module)


def java_runs() -> bool:
    """Whether a Java runtime (JAVA_HOME's, else the one on PATH) starts."""
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if not java:
        return False
    try:
        proc = subprocess.run([java, "-version"], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def need_java() -> None:
    """Skip the test without Java, or fail it where Java is required."""
    if java_runs():
        return
    message = "Spark needs Java (17 or newer)"
    if "java" in required():
        pytest.fail(f"{message}, and {REQUIRE_ENV} requires it")
    pytest.skip(message)
