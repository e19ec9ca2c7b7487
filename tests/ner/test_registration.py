"""Entry points and multiprocessing, each in a fresh interpreter."""

import json
import textwrap

import pytest

from ..conftest import run_python

TINY = json.dumps(
    {
        "@architectures": "spacy_deid.CharBiLSTMCRF.v1",
        "hidden_width": 4,
        "char_embed": {
            "@architectures": "spacy_deid.CharBiLSTMEmbed.v1",
            "width": 4,
            "hidden_width": 4,
        },
        "features": {
            "@architectures": "spacy_deid.TokenFeatures.v1",
            "width": 8,
            "rows": [50, 50, 50, 50],
        },
    }
)


def test_factory_and_architectures_without_import():
    code = textwrap.dedent(
        f"""
        import sys, json
        import spacy
        from spacy.util import registry
        assert "spacy_deid" not in sys.modules
        for name in ["CharBiLSTMCRF", "CharBiLSTMEmbed", "CharCNNEmbed",
                     "TokenFeatures"]:
            registry.architectures.get(f"spacy_deid.{{name}}.v1")
        nlp = spacy.blank("en")
        nlp.add_pipe("phi_ner", config={{"model": json.loads({TINY!r})}})
        print(type(nlp.get_pipe("phi_ner")).__name__)
        """
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "PhiEntityRecognizer"


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_pipe_n_process(method):
    code = textwrap.dedent(
        f"""
        import json
        import multiprocessing as mp
        import spacy
        from spacy.training import Example

        if __name__ == "__main__":
            mp.set_start_method({method!r}, force=True)
            nlp = spacy.blank("en")
            nlp.add_pipe("phi_ner", config={{"model": json.loads({TINY!r})}})
            text = "Seen by Dr John Smith on 12/03/2020"
            eg = Example.from_dict(
                nlp.make_doc(text),
                {{"entities": [(11, 21, "DOCTOR"), (25, 35, "DATE")]}},
            )
            nlp.initialize(lambda: [eg])
            texts = [(text, {{"id": i}}) for i in range(20)] + [("", {{"id": 20}})]
            # The same batches, so that the same matrix products are made.
            single = [
                ([(e.start, e.end, e.label_, e._.phi_score) for e in d.ents], c)
                for d, c in nlp.pipe(texts, as_tuples=True, batch_size=4)
            ]
            multi = [
                ([(e.start, e.end, e.label_, e._.phi_score) for e in d.ents], c)
                for d, c in nlp.pipe(texts, as_tuples=True, n_process=2, batch_size=4)
            ]
            assert single == multi, (single[:2], multi[:2])
            print("ok", len(multi))
        """
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok 21"
