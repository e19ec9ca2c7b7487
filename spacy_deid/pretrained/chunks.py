"""Store a training corpus's frequent non-PHI chunks in a pipeline's meta.json,
for `tokenizer_cache.warm_up` (a faster tokenizer inside memory zones; the
tokens are the same).

    python -m spacy_deid.pretrained.chunks PIPELINE_DIR CORPUS.jsonl [--n 5000] [--min-docs 5]

`build.py --chunks CORPUS.jsonl` does the same when it builds a pipeline. The
corpus is our JSONL (`spacy-deid synth` output, MEDDOCAN's converted files):
chunks that overlap a gold PHI span are never kept, and a chunk must occur in
`min_docs` documents, so that no one document's strings are kept.
"""

import argparse
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

import srsly

from ..corpus.jsonl import read_jsonl
from ..text.tokenizer_cache import MAX_CHUNKS, META_KEY, MIN_DOCS, frequent_chunks
from .provenance import file_record

SOURCE_KEY = "frequent_chunks_source"
"""The meta.json key that records where the chunks came from."""


def corpus_chunks(
    corpus: Path, n: int = MAX_CHUNKS, min_docs: int = MIN_DOCS
) -> List[str]:
    """The frequent non-PHI chunks of a JSONL corpus (`frequent_chunks`).

    corpus (Path): The JSONL file.
    n (int): At most this many chunks.
    min_docs (int): The fewest documents a chunk must occur in.
    RETURNS (List[str]): The chunks, most frequent first.
    """
    notes = read_jsonl(corpus)
    texts = ((note.text, [(s.start, s.end) for s in note.spans]) for note in notes)
    return frequent_chunks(texts, n=n, min_docs=min_docs)


def set_chunks(
    meta: Dict[str, Any], corpus: Path, n: int = MAX_CHUNKS, min_docs: int = MIN_DOCS
) -> int:
    """Store the corpus's chunks and their source in a meta dict.

    meta (Dict[str, Any]): `nlp.meta` or a loaded meta.json.
    corpus (Path): The JSONL training corpus.
    n (int): At most this many chunks.
    min_docs (int): The fewest documents a chunk must occur in.
    RETURNS (int): The number of chunks stored.
    """
    chunks = corpus_chunks(corpus, n=n, min_docs=min_docs)
    meta[META_KEY] = chunks
    meta[SOURCE_KEY] = {**file_record(corpus), "n": n, "min_docs": min_docs}
    return len(chunks)


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pipeline", type=Path, help="pipeline directory")
    parser.add_argument("corpus", type=Path, help="JSONL training corpus")
    parser.add_argument("--n", type=int, default=MAX_CHUNKS, help="most chunks kept")
    parser.add_argument(
        "--min-docs", type=int, default=MIN_DOCS, help="fewest documents"
    )
    args = parser.parse_args(argv)
    meta_path = args.pipeline / "meta.json"
    try:
        meta = srsly.read_json(meta_path)
        count = set_chunks(meta, args.corpus, n=args.n, min_docs=args.min_docs)
    except (OSError, ValueError) as error:
        sys.exit(f"Could not add chunks to {meta_path}: {error}")
    srsly.write_json(meta_path, meta)
    print(f"Stored {count} frequent chunks in {meta_path}")


if __name__ == "__main__":
    main()
