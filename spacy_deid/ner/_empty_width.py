"""The `with_empty_width` layer: give the zero-row outputs of a
`List[Doc] -> List[Floats2d]` layer its output width.

spacy-transformers' `TransformerListener` returns a (0, 0) array for an
empty doc, whatever its width; thinc's `concatenate` (our char embedding +
listener features) then refuses the batch. This layer turns those arrays into
(0, nO), and their gradients back into (0, 0).
"""

from typing import Callable, List, Tuple

from spacy.tokens import Doc
from thinc.api import Model
from thinc.types import Floats2d

InT = List[Doc]
OutT = List[Floats2d]


def with_empty_width(layer: Model[InT, OutT]) -> Model[InT, OutT]:
    """Wrap a layer (its nO, if set, is the width of empty outputs; else the
    width of the batch's other outputs).

    layer (Model[List[Doc], List[Floats2d]]): The wrapped layer.
    RETURNS (Model[List[Doc], List[Floats2d]]): The wrapper.
    """
    return Model(
        f"with_empty_width({layer.name})",
        forward,
        init=init,
        layers=[layer],
        dims={"nO": layer.maybe_get_dim("nO")},
    )


def init(model: Model[InT, OutT], X=None, Y=None) -> None:
    model.layers[0].initialize(X=X, Y=Y)
    if model.layers[0].has_dim("nO"):
        model.set_dim("nO", model.layers[0].get_dim("nO"), force=True)


def _width(model: Model[InT, OutT], Ys: OutT) -> int:
    """The layer's nO if known, else the widest output of the batch."""
    for node in (model, model.layers[0]):
        if node.has_dim("nO"):
            return node.get_dim("nO")
    return max((Y.shape[1] for Y in Ys), default=0)


def forward(
    model: Model[InT, OutT], docs: InT, is_train: bool
) -> Tuple[OutT, Callable]:
    Ys, backprop_layer = model.layers[0](docs, is_train)
    width = _width(model, Ys)
    fixed = [i for i, Y in enumerate(Ys) if Y.shape[0] == 0 and Y.shape[1] != width]
    Ys = list(Ys)
    for i in fixed:
        Ys[i] = model.ops.alloc2f(0, width)

    def backprop(dYs: OutT) -> List:
        dYs = list(dYs)
        for i in fixed:
            dYs[i] = model.ops.alloc2f(0, 0)
        return backprop_layer(dYs)

    return Ys, backprop
