"""Consistency across processes: separate interpreters and nlp.pipe(n_process=2)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from .conftest import KEY, deidentify, make_nlp

DERIVE_SCRIPT = textwrap.dedent(
    """
    import json, spacy
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_surrogates")
    text = "John Smith 123-45-6789 09/14/2067 Boston"
    doc = nlp.make_doc(text)
    doc.ents = [doc.char_span(0, 10, "PATIENT"), doc.char_span(11, 22, "SSN"),
                doc.char_span(23, 33, "DATE"), doc.char_span(34, 40, "CITY")]
    doc._.patient = "p42"
    print(json.dumps(nlp(doc)._.deidentified))
    """
)

PIPE_SCRIPT = textwrap.dedent(
    """
    import json, multiprocessing as mp, sys, warnings
    import spacy

    def main():
        mp.set_start_method(sys.argv[1], force=True)
        warnings.simplefilter("ignore")
        nlp = spacy.blank("en")
        nlp.add_pipe("phi_surrogates")  # no key: a random per-run key
        def make(i):
            text = f"Pt John Smith{i} seen 09/14/2067 , MRN 55{i} ."
            doc = nlp.make_doc(text)
            phi = [(f"John Smith{i}", "PATIENT"), ("09/14/2067", "DATE"),
                   (f"55{i}", "MEDICALRECORD")]
            doc.ents = [doc.char_span(text.index(v), text.index(v) + len(v), lab)
                        for v, lab in phi]
            return doc
        data = [(make(i), {"patient": f"p{i % 3}"}) for i in range(12)]
        single = [(d._.deidentified, d._.offset_map, c)
                  for d, c in nlp.pipe(data, as_tuples=True)]
        data = [(make(i), {"patient": f"p{i % 3}"}) for i in range(12)]
        multi = [(d._.deidentified, d._.offset_map, c)
                 for d, c in nlp.pipe(data, as_tuples=True, n_process=2,
                                      batch_size=3)]
        print(json.dumps({"single": single, "multi": multi}))

    if __name__ == "__main__":
        main()
    """
)


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPACY_DEID_KEY")}
    env.update(extra)
    return env


def _run(script, env, *args):
    result = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_same_key_same_surrogates_in_separate_processes():
    env = _env(SPACY_DEID_KEY=KEY.hex())
    first = _run(DERIVE_SCRIPT, env)
    second = _run(DERIVE_SCRIPT, env)
    assert first == second
    text = "John Smith 123-45-6789 09/14/2067 Boston"
    phi = [
        ("John Smith", "PATIENT"),
        ("123-45-6789", "SSN"),
        ("09/14/2067", "DATE"),
        ("Boston", "CITY"),
    ]
    assert deidentify(make_nlp(KEY), text, phi, "p42")._.deidentified == first
    other = _run(DERIVE_SCRIPT, _env(SPACY_DEID_KEY="a different secret key, 32 bytes"))
    assert other != first
    for value, _ in phi:
        assert value not in first and value not in other


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_multiprocessing_pipe_uses_the_same_key(method):
    import multiprocessing

    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"{method} is not available")
    result = _run(PIPE_SCRIPT, _env(), method)
    assert result["multi"] == result["single"]
    assert all(ctx["patient"].startswith("p") for _, _, ctx in result["multi"])
    texts = [text for text, _, _ in result["multi"]]
    assert not any("John Smith" in text or "09/14/2067" in text for text in texts)
