"""Serialization of components whose whole state is their settings (`cfg`).

`phi_merge`, `phi_boundaries`, `phi_consistency` and `phi_known` have no model:
`nlp.to_disk` writes their `cfg` as JSON (file "cfg") and loading passes the
stored settings to the component's `_load_cfg`, which validates them (a missing
key keeps its current value, so pipelines saved before a setting existed load).

Settings given when the pipeline is loaded (`spacy.load(path, config={...})`)
win over the stored ones: `load_overrides` finds them, and every component of
this package leaves them out of the stored cfg it applies.
"""

from pathlib import Path
from typing import Any, Dict, Iterable, Set, TypeVar, Union

import srsly
from spacy import util
from spacy.util import SimpleFrozenList, ensure_path

T = TypeVar("T", bound="CfgSerializable")
M = TypeVar("M", bound="CfgModelSerializable")


def load_overrides(path: Union[str, Path], current: Dict[str, Any]) -> Set[str]:
    """The settings that a component being loaded from `path` (a directory
    or file that `nlp.to_disk` wrote, named after the component) was built
    with other values than its saved pipeline's config.cfg holds: the
    overrides given to `spacy.load(path, config=...)`. The component keeps
    these values instead of its stored cfg's, which would otherwise undo
    them silently (a stricter `keep_ages_under_90 = false` ignored, say).
    Without a config.cfg above `path` (a component saved on its own) there
    are none.

    path (Union[str, Path]): What the component's `from_disk` was given.
    current (Dict[str, Any]): The component's settings before loading.
    RETURNS (Set[str]): The overridden keys of `current`.
    """
    path = Path(path)
    config_path = path.parent / "config.cfg"
    if not config_path.is_file():
        return set()
    try:
        config = util.load_config(config_path, interpolate=False)
        saved = config["components"][path.name]
    except (KeyError, TypeError, ValueError, OSError):
        return set()
    return {
        key
        for key, value in current.items()
        if key in saved and _plain(saved[key]) != _plain(value)
    }


def _plain(value: Any) -> Any:
    """A value in JSON form (tuples as lists), for comparing settings."""
    try:
        return srsly.json_loads(srsly.json_dumps(value, sort_keys=True))
    except (TypeError, ValueError):
        return value


def without(cfg: Dict[str, Any], keys: Set[str]) -> Dict[str, Any]:
    """The stored `cfg` without the `keys` (the load-time overrides)."""
    return {key: value for key, value in cfg.items() if key not in keys}


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

        overrides = load_overrides(path, self.cfg)

        def load(p: Path) -> None:
            if p.exists():
                self._load_cfg(without(srsly.read_json(p), overrides))

        util.from_disk(ensure_path(path), {"cfg": load}, exclude)
        return self


class CfgModelSerializable:
    """Mixin: to/from bytes and disk of `self.cfg` (JSON, "cfg") and a model
    as msgpack data ("model"). Subclasses define `_model_data()` (the model as
    msgpack-able data) and `_restore(loaded)`, which gets everything read
    ({"cfg": ..., "model": ...}, what was not excluded) before anything
    changes, so that invalid data can leave the component as it was."""

    def _model_data(self) -> Dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _restore(self, loaded: Dict[str, Any]) -> None:  # pragma: no cover
        raise NotImplementedError

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialize the settings and the model.

        exclude (Iterable[str]): Fields to leave out.
        RETURNS (bytes): The serialized component.
        """
        serializers = {
            "cfg": lambda: srsly.json_dumps(self.cfg),
            "model": lambda: srsly.msgpack_dumps(self._model_data()),
        }
        return util.to_bytes(serializers, exclude)

    def from_bytes(
        self: M, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> M:
        """Load the component from bytes written by `to_bytes`.

        bytes_data (bytes): The data.
        exclude (Iterable[str]): Fields to leave out.
        RETURNS: The component.
        """
        loaded: Dict[str, Any] = {}
        deserializers = {
            "cfg": lambda b: loaded.update(cfg=srsly.json_loads(b)),
            "model": lambda b: loaded.update(model=srsly.msgpack_loads(b)),
        }
        util.from_bytes(bytes_data, deserializers, exclude)
        self._restore(loaded)
        return self

    def to_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> None:
        """Save the settings ("cfg") and the model ("model") to a directory.

        path (Union[str, Path]): A directory.
        exclude (Iterable[str]): Fields to leave out.
        """
        serializers = {
            "cfg": lambda p: srsly.write_json(p, self.cfg),
            "model": lambda p: srsly.write_msgpack(p, self._model_data()),
        }
        util.to_disk(ensure_path(path), serializers, exclude)

    def from_disk(
        self: M, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> M:
        """Load the component from a directory written by `to_disk`.

        path (Union[str, Path]): A directory.
        exclude (Iterable[str]): Fields to leave out.
        RETURNS: The component.
        """
        # Settings given at load time win over the stored ones (`load_overrides`).
        overrides = load_overrides(path, getattr(self, "cfg", {}))
        loaded: Dict[str, Any] = {}
        deserializers = {
            "cfg": lambda p: loaded.update(cfg=without(srsly.read_json(p), overrides)),
            "model": lambda p: loaded.update(model=srsly.read_msgpack(p)),
        }
        util.from_disk(ensure_path(path), deserializers, exclude)
        self._restore(loaded)
        return self


def is_str_list(values: Any) -> bool:
    """Whether a setting is a list (or tuple) of strings."""
    return isinstance(values, (list, tuple)) and all(isinstance(v, str) for v in values)
