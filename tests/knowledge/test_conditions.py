from spacy_deid.knowledge.conditions import condition_words, is_condition_word


def test_diagnosis_words_that_english_seldom_uses_otherwise():
    assert "cardiomyopathy" in condition_words()
    assert is_condition_word("cardiomyopathy")
    assert is_condition_word("Thyroiditis")
    # In the descriptions, but common English, or no diagnosis word at all.
    assert "left" in condition_words() and not is_condition_word("left")
    assert not is_condition_word("smith")
    assert not is_condition_word("stapler")
