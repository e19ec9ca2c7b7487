"""Serialization of components whose whole state is their settings (`cfg`).

`phi_merge`, `phi_boundaries`, `phi_consistency` and `phi_known` have no model:
`nlp.to_disk` writes their `cfg` as JSON (file "cfg") and loading passes the
stored settings to the component's `_load_cfg`, which validates them (a missing
key keeps its current value, so pipelines saved before a setting existed load).
"""

from pathlib import Path
from typing import Any, Dict, Iterable, TypeVar, Union

import srsly
from spacy import util
from spacy.util import SimpleFrozenList, ensure_path

T = TypeVar("T", bound="CfgSerializable")


class CfgSerializable:
    """Mixin: to/from bytes and disk of `self.cfg`; subclasses define
    `_load_cfg(cfg)`."""

    cfg: Dict[str, Any]

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:  # pragma: no cover
        raise NotImplementedError

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialize the settings.

        exclude (Iterable[str]): Fields to leave out.
        RETURNS (bytes): The serialized component.
        """
        serializers = {"cfg": lambda: srsly.json_dumps(self.cfg)}
        return util.to_bytes(serializers, exclude)

    def from_bytes(
        self: T, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> T:
        """Load the settings from bytes written by `to_bytes`.

        bytes_data (bytes): The data.
        exclude (Iterable[str]): Fields to leave out.
        RETURNS: The component.
        """
        deserializers = {"cfg": lambda b: self._load_cfg(srsly.json_loads(b))}
        util.from_bytes(bytes_data, deserializers, exclude)
        return self

    def to_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> None:
        """Save the settings to a directory (file "cfg").

        path (Union[str, Path]): A directory.
        exclude (Iterable[str]): Fields to leave out.
        """
        serializers = {"cfg": lambda p: srsly.write_json(p, self.cfg)}
        util.to_disk(ensure_path(path), serializers, exclude)

    def from_disk(
        self: T, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> T:
        """Load the settings from a directory written by `to_disk` (a missing
        "cfg" file keeps the current settings).

        path (Union[str, Path]): A directory.
        exclude (Iterable[str]): Fields to leave out.
        RETURNS: The component.
        """

        def load(p: Path) -> None:
            if p.exists():
                self._load_cfg(srsly.read_json(p))

        util.from_disk(ensure_path(path), {"cfg": load}, exclude)
        return self
