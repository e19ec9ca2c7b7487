"""The `linear_chain_crf` layer: holds the CRF's transition, start and end
scores. Its forward pass is the identity on the emission scores; the loss,
its gradients (applied with `inc_grad`) and decoding live in `crf.py` and are
called by the `phi_ner` component.
"""

from typing import Callable, List, Optional, Tuple

from thinc.api import Model
from thinc.types import Floats2d

from ..tagging.crf import CRFParams, n_labels_for

InT = List[Floats2d]


def linear_chain_crf(nO: Optional[int] = None) -> Model[InT, InT]:
    """Build the layer.

    nO (Optional[int]): Number of BILUO tags (1 + 4 * n_labels).
    RETURNS (Model[List[Floats2d], List[Floats2d]]): The layer.
    """
    return Model(
        "linear_chain_crf",
        forward,
        init=init,
        dims={"nO": nO, "nI": nO},
        params={"transitions": None, "start": None, "end": None},
    )


def init(model: Model[InT, InT], X: Optional[InT] = None, Y=None) -> None:
    """Zero-initialize the scores (nO from X if not set)."""
    if not model.has_dim("nO") and X:
        model.set_dim("nO", X[0].shape[1])
    nO = model.get_dim("nO")
    n_labels_for(nO)  # validates the tag count
    model.set_dim("nI", nO)
    model.set_param("transitions", model.ops.alloc2f(nO, nO))
    model.set_param("start", model.ops.alloc1f(nO))
    model.set_param("end", model.ops.alloc1f(nO))


def forward(model: Model[InT, InT], X: InT, is_train: bool) -> Tuple[InT, Callable]:
    return X, lambda dY: dY


def get_crf_params(model: Model[InT, InT]) -> CRFParams:
    """Return the layer's scores with the BILUO constraints added.

    model (Model): The `linear_chain_crf` layer.
    RETURNS (CRFParams): The constrained float64 scores.
    """
    return CRFParams.constrained(
        model.ops.to_numpy(model.get_param("transitions")),
        model.ops.to_numpy(model.get_param("start")),
        model.ops.to_numpy(model.get_param("end")),
    )
