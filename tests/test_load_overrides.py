"""Settings given when a saved pipeline is loaded (`spacy.load(path,
config=...)`) win over the settings its components stored; without them, the
stored settings load (also those changed on the component before saving)."""

import spacy
from spacy.util import make_tempdir

from spacy_deid import pipeline_path
from spacy_deid.core.cfg_io import load_overrides

KEY = "ab" * 32
OVERRIDES = {
    "components": {
        "clinical_sentencizer": {"overwrite": True},
        "phi_rules": {"overwrite_ents": True, "labels": ["AGE", "DATE"]},
        "phi_consistency": {"min_chars": 5, "exclude_labels": []},
        "phi_surrogates": {"keep_ages_under_90": False, "mode": "tag"},
    }
}


def saved_pipeline(path):
    nlp = spacy.blank("en")
    for name in ("clinical_sentencizer", "phi_rules", "phi_consistency"):
        nlp.add_pipe(name)
    nlp.add_pipe("phi_surrogates").set_key(KEY)
    nlp.to_disk(path)
    return nlp


def settings(nlp):
    return {
        "sentencizer overwrite": nlp.get_pipe("clinical_sentencizer").overwrite,
        "rules overwrite_ents": nlp.get_pipe("phi_rules").cfg["overwrite_ents"],
        "rules labels": nlp.get_pipe("phi_rules").cfg["labels"],
        "consistency min_chars": nlp.get_pipe("phi_consistency").cfg["min_chars"],
        "consistency exclude": nlp.get_pipe("phi_consistency").cfg["exclude_labels"],
        "keep ages": nlp.get_pipe("phi_surrogates").cfg["keep_ages_under_90"],
        "mode": nlp.get_pipe("phi_surrogates").cfg["mode"],
    }


def test_load_time_settings_win_over_the_stored_ones():
    with make_tempdir() as path:
        saved = settings(saved_pipeline(path))
        assert settings(spacy.load(path)) == saved
        loaded = spacy.load(path, config=OVERRIDES)
    assert settings(loaded) == {
        "sentencizer overwrite": True,
        "rules overwrite_ents": True,
        "rules labels": ["AGE", "DATE"],
        "consistency min_chars": 5,
        "consistency exclude": [],
        "keep ages": False,
        "mode": "tag",
    }
    # The stricter age policy is applied, not only reported by nlp.config.
    surrogates = loaded.get_pipe("phi_surrogates")
    surrogates.set_key(KEY)
    assert loaded.config["components"]["phi_surrogates"]["keep_ages_under_90"] is False
    doc = loaded("Pt is a 45 yo man seen on 3/4/2020.")
    assert doc._.deidentified == "Pt is a [AGE] yo man seen on [DATE]."


def test_settings_changed_before_saving_still_load():
    with make_tempdir() as path:
        nlp = spacy.blank("en")
        surrogates = nlp.add_pipe("phi_surrogates")
        surrogates.cfg["date_shift_max"] = 30  # not in nlp.config
        nlp.to_disk(path)
        assert spacy.load(path).get_pipe("phi_surrogates").cfg["date_shift_max"] == 30
        overridden = {"components": {"phi_surrogates": {"date_shift_max": 90}}}
        loaded = spacy.load(path, config=overridden)
        assert loaded.get_pipe("phi_surrogates").cfg["date_shift_max"] == 90


def test_a_shipped_pipeline_takes_phi_ner_overrides():
    path = pipeline_path("en")
    stored = spacy.load(path).get_pipe("phi_ner")
    assert stored.cfg["overwrite_ents"] is True
    config = {"components": {"phi_ner": {"overwrite_ents": False}}}
    loaded = spacy.load(path, config=config).get_pipe("phi_ner")
    assert loaded.cfg["overwrite_ents"] is False
    assert loaded.labels == stored.labels  # learned state still loads


def test_load_overrides_needs_the_pipeline_config(tmp_path):
    component = tmp_path / "phi_surrogates"
    component.mkdir()
    assert load_overrides(component, {"mode": "tag"}) == set()
    (tmp_path / "config.cfg").write_text(
        '[components]\n\n[components.phi_surrogates]\nfactory = "phi_surrogates"\nmode = "surrogate"\n'
        'locale = "en_US"\nredact_mask = null\n',
        encoding="utf-8",
    )
    current = {"mode": "tag", "locale": "en_US", "redact_mask": None, "extra": 1}
    assert load_overrides(component, current) == {"mode"}
    assert load_overrides(tmp_path / "other", current) == set()
    (tmp_path / "config.cfg").write_text("not a config [", encoding="utf-8")
    assert load_overrides(component, current) == set()


def test_model_components_take_load_time_settings():
    """phi_skipchain and phi_hmm store their settings beside a model; a setting
    given at load time still wins over the stored one."""
    with make_tempdir() as path:
        nlp = spacy.blank("en")
        nlp.add_pipe("phi_skipchain", config={"min_chars": 3})
        nlp.add_pipe("phi_hmm", config={"recall_bias": 0.0})
        nlp.to_disk(path)
        plain = spacy.load(path)
        assert plain.get_pipe("phi_skipchain").cfg["min_chars"] == 3
        overridden = {
            "components": {
                "phi_skipchain": {"min_chars": 6},
                "phi_hmm": {"recall_bias": 0.5},
            }
        }
        loaded = spacy.load(path, config=overridden)
    assert loaded.get_pipe("phi_skipchain").cfg["min_chars"] == 6
    assert loaded.get_pipe("phi_hmm").cfg["recall_bias"] == 0.5
