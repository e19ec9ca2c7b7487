"""Atomic file output: write to `NAME.tmp` in the same folder, then rename.

A writer that fails half-way (an illegal character, a full disk, a reader
error while streaming) then leaves no partial file under the final name:
the temporary file is removed and an existing output is left untouched.
`os.replace` is atomic when both names are in the same folder.
"""

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, Sequence, Union

TMP_SUFFIX = ".tmp"


def tmp_path_for(path: Union[str, Path]) -> Path:
    """The temporary name used for `path`: `NAME.tmp` in the same folder."""
    path = Path(path)
    return path.with_name(path.name + TMP_SUFFIX)


@contextmanager
def atomic_paths(*paths: Union[str, Path]) -> Iterator[Sequence[Path]]:
    """Yield temporary paths to write; rename them all to `paths` on success.

    Renames happen in the order given, so list the file that makes the
    output visible to readers last (e.g. a BRAT `.txt` after its `.ann`).
    On any exception the temporary files are removed and nothing is renamed.

    paths: The final paths (parent folders are created).
    YIELDS (Sequence[Path]): One temporary path per final path.
    """
    finals = [Path(p) for p in paths]
    tmps = [tmp_path_for(p) for p in finals]
    for final in finals:
        final.parent.mkdir(parents=True, exist_ok=True)
    try:
        yield tmps
        for tmp, final in zip(tmps, finals, strict=True):
            os.replace(tmp, final)
    except BaseException:
        for tmp in tmps:
            try:
                tmp.unlink()
            except OSError:
                pass
        raise


@contextmanager
def atomic_path(path: Union[str, Path]) -> Iterator[Path]:
    """`atomic_paths` for one file. YIELDS (Path): the temporary path."""
    with atomic_paths(path) as tmps:
        yield tmps[0]


def write_text_atomic(files: Dict[Path, str]) -> None:
    """Write several UTF-8 text files atomically (no newline translation).

    files (Dict[Path, str]): Final path -> content, renamed in this order.
    """
    with atomic_paths(*files) as tmps:
        for tmp, content in zip(tmps, files.values(), strict=True):
            with tmp.open("w", encoding="utf-8", newline="") as handle:
                handle.write(content)
