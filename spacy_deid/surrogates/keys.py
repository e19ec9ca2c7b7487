"""Secret key handling and HMAC-SHA256 derivation for surrogates.

Surrogates and date shifts are derived from a secret key with HMAC-SHA256 over
(label family, patient, normalised value), so the same PHI string for the same
patient always gets the same surrogate and no mapping table is ever stored.
Whoever holds the key can test guesses ("is the surrogate of X equal to Y?"),
so keep it as secret as the notes themselves.
"""

import hashlib
import hmac
import os
import random
import secrets
import string
from pathlib import Path
from typing import Optional, Tuple, Union

MIN_KEY_BYTES = 16
KEY_BYTES = 32
ENV_KEY_FILE = "SPACY_DEID_KEY_FILE"
ENV_KEY = "SPACY_DEID_KEY"

# Where a component's key came from.
SOURCE_SET = "set_key"
SOURCE_ENV_FILE = "env:" + ENV_KEY_FILE
SOURCE_ENV = "env:" + ENV_KEY
SOURCE_EPHEMERAL = "ephemeral"


class InvalidKeyError(ValueError):
    """A secret key is missing, empty or too short. The message never shows it."""


def generate_key() -> bytes:
    """Return a new random secret key.

    RETURNS (bytes): KEY_BYTES random bytes from `secrets`.
    """
    return secrets.token_bytes(KEY_BYTES)


def parse_key(data: Union[bytes, str]) -> bytes:
    """Turn key material (a key file's contents, an env var, set_key's
    argument) into key bytes.

    Text (printable UTF-8) has its surrounding whitespace stripped, and text
    made only of hex digits (even length, at least 2 * MIN_KEY_BYTES) is
    decoded as hex, so `openssl rand -hex 32` output, a key file and the env
    var all give the same key. Binary keys (e.g. from `generate_key()`) are
    used as they are; parsing a parsed key again returns it unchanged.

    data (Union[bytes, str]): The key material.
    RETURNS (bytes): The key, at least MIN_KEY_BYTES long.
    """
    raw = data.encode("utf8") if isinstance(data, str) else bytes(data)
    if _is_text(raw):
        raw = raw.strip()
        if _is_hex(raw):
            raw = bytes.fromhex(raw.decode("ascii"))
    return check_key(raw)


def check_key(key: bytes) -> bytes:
    """Validate a key and return it.

    key (bytes): The key.
    RETURNS (bytes): The same key.
    """
    if not isinstance(key, (bytes, bytearray)):
        raise TypeError("The surrogate key must be bytes.")
    if len(key) == 0:
        raise InvalidKeyError("The surrogate key is empty.")
    if len(key) < MIN_KEY_BYTES:
        raise InvalidKeyError(
            f"The surrogate key is too short ({len(key)} bytes); use at least "
            f"{MIN_KEY_BYTES} bytes, e.g. from spacy_deid.surrogates.generate_key()."
        )
    return bytes(key)


def read_key_file(path: Union[str, Path]) -> bytes:
    """Read a secret key from a file (raw bytes or hex text, see `parse_key`).

    path (Union[str, Path]): The key file.
    RETURNS (bytes): The key.
    """
    data = Path(path).read_bytes()
    if not data.strip():
        raise InvalidKeyError(f"The key file {path} is empty.")
    return parse_key(data)


def write_key_file(path: Union[str, Path], key: Optional[bytes] = None) -> bytes:
    """Write a key as hex to a new file readable only by the owner.

    path (Union[str, Path]): The file to create; it must not exist.
    key (Optional[bytes]): The key; a new one from `generate_key()` if None.
    RETURNS (bytes): The key written.
    """
    key = check_key(generate_key() if key is None else key)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    fd = os.open(str(path), flags, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as file_:
        file_.write(key.hex() + "\n")
    return key


def key_from_env() -> Tuple[Optional[bytes], Optional[str]]:
    """Read the key from SPACY_DEID_KEY_FILE, else SPACY_DEID_KEY.

    RETURNS (Tuple[Optional[bytes], Optional[str]]): The key and its source,
        or (None, None) when neither variable is set.
    """
    path = os.environ.get(ENV_KEY_FILE)
    if path:
        return read_key_file(path), SOURCE_ENV_FILE
    value = os.environ.get(ENV_KEY)
    if value:
        return parse_key(value), SOURCE_ENV
    return None, None


def derive_digest(key: bytes, *parts: str) -> bytes:
    """HMAC-SHA256 of the parts, each length-prefixed so that they can't collide.

    key (bytes): The secret key.
    parts (str): The message parts, e.g. family, patient, value.
    RETURNS (bytes): The 32-byte digest.
    """
    message = bytearray()
    for part in parts:
        data = str(part).encode("utf8")
        message += len(data).to_bytes(4, "big") + data
    return hmac.new(key, bytes(message), hashlib.sha256).digest()


def derive_seed(key: bytes, *parts: str) -> int:
    """A 256-bit integer seed derived from the key and the parts.

    RETURNS (int): The seed.
    """
    return int.from_bytes(derive_digest(key, *parts), "big")


def derive_rng(key: bytes, *parts: str) -> random.Random:
    """A `random.Random` seeded from the key and the parts (stable across
    processes and runs for the same Python version).

    RETURNS (random.Random): The generator.
    """
    return random.Random(derive_seed(key, *parts))


def _is_text(raw: bytes) -> bool:
    try:
        text = raw.decode("utf8")
    except UnicodeDecodeError:
        return False
    return all(char.isprintable() or char.isspace() for char in text)


def _is_hex(raw: bytes) -> bool:
    if len(raw) < 2 * MIN_KEY_BYTES or len(raw) % 2:
        return False
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return False
    return all(char in string.hexdigits for char in text)
