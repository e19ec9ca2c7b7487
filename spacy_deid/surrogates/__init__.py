"""Surrogate replacement of PHI spans (the `phi_surrogates` component)."""

from .keys import (
    InvalidKeyError,
    generate_key,
    parse_key,
    read_key_file,
    write_key_file,
)
from .offsets import (
    apply_replacements,
    map_in_to_out,
    map_out_to_in,
    map_span_in_to_out,
    map_span_out_to_in,
)
from .replacer import EphemeralKeyWarning, PhiSurrogates, make_phi_surrogates

__all__ = [
    "EphemeralKeyWarning",
    "InvalidKeyError",
    "PhiSurrogates",
    "apply_replacements",
    "generate_key",
    "make_phi_surrogates",
    "map_in_to_out",
    "map_out_to_in",
    "map_span_in_to_out",
    "map_span_out_to_in",
    "parse_key",
    "read_key_file",
    "write_key_file",
]
