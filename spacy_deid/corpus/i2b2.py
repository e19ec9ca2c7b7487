"""i2b2 2014 de-identification XML: one note per file, a directory is a corpus.

    <?xml version="1.0" encoding="UTF-8" ?>
    <deIdi2b2>
    <TEXT><![CDATA[...]]></TEXT>
    <TAGS>
    <DATE id="P0" start="16" end="26" text="2067-05-03" TYPE="DATE" comment="" />
    </TAGS>
    </deIdi2b2>

The element name is the category, TYPE the subcategory; offsets index the
CDATA text. The text is taken from the raw file, not from an XML parser,
because XML parsers turn CRLF into LF and the offsets would drift. A `]]>`
inside the text is written as two CDATA sections (`]]]]><![CDATA[>`) and read
back unchanged. The file name `<patient>-<record>.xml` gives the patient id.
"""

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Tuple, Union
from xml.sax.saxutils import quoteattr

from ..labels import LABELS, normalize_label
from ..io.atomic import write_text_atomic
from ..core.errors import CorpusError, write_error
from ..core.types import Note, PhiSpan
from .validate import check_span, check_surface, patient_from_name

ROOT_TAG = "deIdi2b2"
_TEXT_OPEN_RE = re.compile(r"<TEXT(?:\s[^>]*)?>")
# Characters XML 1.0 cannot hold at all, not even in CDATA.
_ILLEGAL_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# i2b2 spelling of subcategories whose canonical name differs.
_I2B2_TYPE = {"LOCATION_OTHER": "LOCATION-OTHER"}


def read_i2b2_file(
    path: Union[str, Path], validate: bool = True, note_id: Optional[str] = None
) -> Note:
    """Read one i2b2 XML file.

    path (Union[str, Path]): The XML file.
    validate (bool): Check offsets and the `text` attributes.
    note_id (Optional[str]): Id to use instead of the file stem.
    RETURNS (Note): The note; labels are canonical subcategories
        (`labels.normalize_label`), the category is in no way kept.
    """
    path = Path(path)
    note_id = note_id or path.stem
    with path.open("r", encoding="utf-8", newline="") as handle:
        raw = handle.read()
    return parse_i2b2(
        raw, note_id, validate=validate, patient=patient_from_name(path.stem)
    )


def parse_i2b2(
    raw: str, note_id: str, validate: bool = True, patient: Optional[str] = None
) -> Note:
    """Parse the content of one i2b2 XML file (see `read_i2b2_file`)."""
    text = _extract_text(raw, note_id)
    try:
        root = ET.fromstring(raw.encode("utf-8"))
    except ET.ParseError as err:
        raise CorpusError(f"Note '{note_id}': invalid XML ({err})") from None
    note = Note(id=note_id, text=text, patient=patient)
    tags = root.find("TAGS")
    for index, element in enumerate([] if tags is None else list(tags)):
        span, surface = _parse_tag(element, note_id, index)
        note.spans.append(span)
        if validate:
            check_span(note, index, span)
            check_surface(note, index, span, surface)
    return note


def _extract_text(raw: str, note_id: str) -> str:
    match = _TEXT_OPEN_RE.search(raw)
    if match is None:
        raise CorpusError(f"Note '{note_id}': no <TEXT> element")
    parts: List[str] = []
    pos = match.end()
    while True:
        close = raw.find("</TEXT>", pos)
        cdata = raw.find("<![CDATA[", pos)
        if close < 0:
            raise CorpusError(f"Note '{note_id}': unterminated <TEXT> element")
        if cdata < 0 or close < cdata:
            parts.append(html.unescape(raw[pos:close]))
            return "".join(parts)
        parts.append(html.unescape(raw[pos:cdata]))
        end = raw.find("]]>", cdata)
        if end < 0:
            raise CorpusError(f"Note '{note_id}': unterminated CDATA section")
        parts.append(raw[cdata + len("<![CDATA[") : end])
        pos = end + len("]]>")


def _parse_tag(
    element: ET.Element, note_id: str, index: int
) -> Tuple[PhiSpan, Optional[str]]:
    attrib = element.attrib
    try:
        start, end = int(attrib["start"]), int(attrib["end"])
    except (KeyError, ValueError):
        raise CorpusError(
            f"Note '{note_id}', tag {index} (<{element.tag}>): missing or "
            "non-integer start/end"
        ) from None
    label = normalize_label(attrib.get("TYPE") or element.tag)
    return PhiSpan(start, end, label), attrib.get("text")


def read_i2b2_dir(path: Union[str, Path], validate: bool = True) -> Iterator[Note]:
    """Stream the notes of a directory of i2b2 XML files (sorted by name).

    path (Union[str, Path]): The directory, or a single XML file.
    validate (bool): Check offsets and the `text` attributes.
    YIELDS (Note): One note per `*.xml` file.
    """
    path = Path(path)
    if path.is_file():
        yield read_i2b2_file(path, validate=validate)
        return
    for file in sorted(path.glob("*.xml")):
        yield read_i2b2_file(file, validate=validate)


def to_i2b2_xml(note: Note) -> str:
    """Serialise a note in the i2b2 2014 layout.

    Labels outside the i2b2 scheme are written with the element name OTHER.
    RETURNS (str): The XML document.
    """
    bad = _ILLEGAL_XML_RE.search(note.text)
    if bad is not None:
        raise CorpusError(
            f"Note '{note.id}': character U+{ord(bad.group()):04X} at offset "
            f"{bad.start()} cannot be written to XML"
        )
    cdata = note.text.replace("]]>", "]]]]><![CDATA[>")
    lines = ['<?xml version="1.0" encoding="UTF-8" ?>', f"<{ROOT_TAG}>"]
    lines.append(f"<TEXT><![CDATA[{cdata}]]></TEXT>")
    lines.append("<TAGS>")
    for i, span in enumerate(sorted(note.spans)):
        lines.append(_tag_xml(note, i, span))
    lines.extend(["</TAGS>", f"</{ROOT_TAG}>", ""])
    return "\n".join(lines)


def _tag_xml(note: Note, index: int, span: PhiSpan) -> str:
    label = normalize_label(span.label)
    category = LABELS[label].category if label in LABELS else "OTHER"
    type_ = _I2B2_TYPE.get(label, label)
    surface = quoteattr(_xml_safe(note.text[span.start : span.end]))
    return (
        f'<{category} id="P{index}" start="{span.start}" end="{span.end}" '
        f'text={surface} TYPE={quoteattr(type_)} comment="" />'
    )


def _xml_safe(text: str) -> str:
    return _ILLEGAL_XML_RE.sub(" ", text)


def write_i2b2_file(note: Note, path: Union[str, Path]) -> Path:
    """Write one note as an i2b2 XML file (UTF-8, text kept byte for byte).

    The file is written to `NAME.tmp` and renamed when complete, so a note
    that cannot be written leaves no partial file (see `atomic.py`).
    RETURNS (Path): The file written.
    """
    path = Path(path)
    try:
        write_text_atomic({path: to_i2b2_xml(note)})
    except (OSError, UnicodeError) as error:
        raise write_error(note.id, path, error) from None
    return path


def write_i2b2_dir(notes: Iterable[Note], path: Union[str, Path]) -> int:
    """Write notes to a directory as `<id>.xml` files, each atomically.

    A failing note raises a CorpusError naming it; the files of the notes
    before it are complete, and none is left for the failing note.
    RETURNS (int): The number of files written.
    """
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    n = 0
    for note in notes:
        try:
            write_i2b2_file(note, path / f"{safe_file_stem(note.id)}.xml")
        except CorpusError as error:
            raise CorpusError(f"{error} ({n} notes written before it)") from None
        n += 1
    return n


def safe_file_stem(note_id: str) -> str:
    """Return the note id if it can be used as a file name, else raise."""
    if not note_id or note_id in (".", "..") or re.search(r"[/\\\x00]", note_id):
        raise CorpusError(f"Note id {note_id!r} cannot be used as a file name")
    return note_id
