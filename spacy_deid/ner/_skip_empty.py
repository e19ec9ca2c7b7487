"""The `skip_empty` layer: run a `List[Doc] -> List[Floats2d]` layer on the
docs that have tokens only, and give empty docs a (0, nO) output. Batches
without any token never reach the wrapped layer.

In training, a layer that listens to an upstream component (a tok2vec or
transformer listener) gets every doc of a batch that has any token: the
listener's outputs are the upstream component's for the whole batch, and it
refuses another list of docs. Empty docs then go through the layer as
zero-row arrays (see `spacy_deid.EmptyDocWidth.v1` for the transformer
listener), which give the same outputs for the other docs. At prediction
time a listener reads each doc's own data, so empty docs are skipped as
always.
"""

from typing import Callable, List, Optional, Tuple

from spacy.tokens import Doc
from thinc.api import Model
from thinc.types import Floats2d

from ..tagging.segments import listens_upstream

InT = List[Doc]
OutT = List[Floats2d]


def skip_empty(layer: Model[InT, OutT], output: Model) -> Model[InT, OutT]:
    """Wrap a layer.

    layer (Model[List[Doc], List[Floats2d]]): The wrapped layer.
    output (Model): The layer whose nO is the output width.
    RETURNS (Model[List[Doc], List[Floats2d]]): The wrapper.
    """
    model: Model[InT, OutT] = Model(
        f"skip_empty({layer.name})", forward, init=init, layers=[layer]
    )
    model.set_ref("output", output)
    return model


def init(model: Model[InT, OutT], X: Optional[InT] = None, Y=None) -> None:
    """Initialize the wrapped layer on the docs that have tokens."""
    docs = [doc for doc in X if len(doc)] if X is not None else []
    model.layers[0].initialize(X=docs or None)


def forward(
    model: Model[InT, OutT], docs: InT, is_train: bool
) -> Tuple[OutT, Callable]:
    keep = [i for i, doc in enumerate(docs) if len(doc)]
    if keep and is_train and listens_upstream(model.layers[0]):
        keep = list(range(len(docs)))
    nO = model.get_ref("output").get_dim("nO")
    outputs = [model.ops.alloc2f(0, nO) for _ in docs]
    if not keep:
        return outputs, lambda dYs: []
    Ys, backprop_layer = model.layers[0]([docs[i] for i in keep], is_train)
    for i, Y in zip(keep, Ys, strict=True):
        outputs[i] = Y

    def backprop(dYs: OutT) -> List:
        return backprop_layer([dYs[i] for i in keep])

    return outputs, backprop
