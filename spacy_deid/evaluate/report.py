"""Plain-text report of an evaluation result (`format_table`)."""

from typing import Any, Dict, List

from .scoring import MEASURES

_HEAD = f"{'measure':<19}{'micro P':>9}{'micro R':>9}{'micro F1':>9}" + (
    f"{'macro P':>9}{'macro R':>9}{'macro F1':>9}"
)


def _measure_rows(block: Dict[str, Any]) -> List[str]:
    rows = [_HEAD, "-" * len(_HEAD)]
    for measure in MEASURES:
        mi, ma = block[measure]["micro"], block[measure]["macro"]
        values = [mi["precision"], mi["recall"], mi["f1"]]
        values += [ma["precision"], ma["recall"], ma["f1"]]
        rows.append(f"{measure:<19}" + "".join(f"{v:>9.4f}" for v in values))
    return rows


def _label_rows(table: Dict[str, Any]) -> List[str]:
    head = f"{'label':<34}{'support':>8}{'P':>8}{'R':>8}{'F1':>8}"
    head += f"{'relax F1':>10}{'token F1':>10}"
    rows = [head, "-" * len(head)]
    for label, row in table.items():
        s = row["strict"]
        rows.append(
            f"{label:<34}{s['support']:>8}{s['precision']:>8.4f}{s['recall']:>8.4f}"
            f"{s['f1']:>8.4f}{row['relaxed']['f1']:>10.4f}{row['token']['f1']:>10.4f}"
        )
    return rows


def _taxonomy_rows(taxonomy: Dict[str, Any]) -> List[str]:
    kinds = list(taxonomy["totals"])
    head = f"{'label':<34}" + "".join(f"{k:>11}" for k in kinds)
    rows = [head, "-" * len(head)]
    for label, counts in taxonomy["per_label"].items():
        rows.append(f"{label:<34}" + "".join(f"{counts[k]:>11}" for k in kinds))
    totals = taxonomy["totals"]
    rows.append(f"{'TOTAL':<34}" + "".join(f"{totals[k]:>11}" for k in kinds))
    confusions = [
        (n, g, p)
        for g, row in taxonomy["confusion"].items()
        for p, n in row.items()
        if g != p
    ]
    if confusions:
        rows.append("")
        rows.append("Most frequent type confusions (gold -> predicted):")
        for n, g, p in sorted(confusions, reverse=True)[:10]:
            rows.append(f"  {g} -> {p}: {n}")
    return rows


def _leak_rows(leak: Dict[str, Any]) -> List[str]:
    o = leak["overall"]
    rows = [
        f"PHI strings still present: {o['leaked']} / {o['total']} "
        f"({o['rate']:.4f}); {leak['skipped']} shorter than "
        f"{leak['min_length']} chars skipped; {len(leak['leaked_notes'])} notes leak"
    ]
    for label, r in leak["per_label"].items():
        rows.append(f"  {label:<32}{r['leaked']:>6} / {r['total']:<6}{r['rate']:>8.4f}")
    return rows


def _significance_rows(sig: Dict[str, Any]) -> List[str]:
    rows = [
        f"{sig['measure']} micro, {sig['shuffles']} shuffles, seed {sig['seed']}",
        f"{'':<11}{'A':>9}{'B':>9}{'A - B':>10}{'p':>9}",
    ]
    for name in ("precision", "recall", "f1"):
        if name not in sig:
            continue
        r = sig[name]
        rows.append(
            f"{name:<11}{r['a']:>9.4f}{r['b']:>9.4f}{r['diff']:>+10.4f}"
            f"{r['p_value']:>9.4f}"
        )
    if "f1" not in sig:  # a saved result that tested F1 only
        rows.append(
            f"{'f1':<11}{sig['f1_a']:>9.4f}{sig['f1_b']:>9.4f}{sig['diff']:>+10.4f}"
            f"{sig['p_value']:>9.4f}"
        )
    return rows


def _by_meta_rows(key: str, table: Dict[str, Any]) -> List[str]:
    head = f"{key:<34}{'notes':>7}{'spans':>7}{'P':>8}{'R':>8}{'F1':>8}"
    head += f"{'tok R':>8}"
    rows = [head, "-" * len(head)]
    for value, row in table.items():
        s, b = row["strict"], row["binary_token"]
        rows.append(
            f"{value:<34}{row['notes']:>7}{s['support']:>7}{s['precision']:>8.4f}"
            f"{s['recall']:>8.4f}{s['f1']:>8.4f}{b['recall']:>8.4f}"
        )
    return rows


def format_table(result: Dict[str, Any]) -> str:
    """Render an `evaluate_notes` result (plus optional `leak` and
    `significance` keys) as a readable text report.

    result (Dict[str, Any]): The evaluation result.
    RETURNS (str): The report.
    """
    level = result.get("labels", "subcategory")
    lines = [f"Notes: {result.get('notes', 0)}  (labels: {level})", ""]
    lines += ["All PHI"] + _measure_rows(result) + [""]
    if "hipaa" in result:
        lines += ["HIPAA PHI"] + _measure_rows(result["hipaa"]) + [""]
    for lvl, table in result.get("per_label", {}).items():
        lines += [f"Per {lvl} (micro; P/R/F1 strict)"] + _label_rows(table) + [""]
    if "taxonomy" in result:
        lines += ["Error taxonomy"] + _taxonomy_rows(result["taxonomy"]) + [""]
    for key, table in (result.get("by_meta") or {}).items():
        lines += [
            f"By gold meta '{key}' (micro strict P/R/F1; tok R: binary token "
            "recall, i2b2 tokens; a note with several values counts under each)"
        ]
        lines += _by_meta_rows(key, table) + [""]
    if result.get("leak"):
        lines += ["Leak"] + _leak_rows(result["leak"]) + [""]
    if result.get("significance"):
        lines += ["Approximate randomization"]
        lines += _significance_rows(result["significance"]) + [""]
    if result.get("unknown_pred_labels"):
        lines.append(
            "Predicted labels in neither gold nor a known scheme (scored as "
            "false positives): " + ", ".join(result["unknown_pred_labels"])
        )
    for key, name in (
        ("missing_pred", "without prediction"),
        ("extra_pred", "without gold"),
    ):
        if result.get(key):
            lines.append(f"Notes {name}: {len(result[key])}")
    return "\n".join(lines).rstrip() + "\n"
