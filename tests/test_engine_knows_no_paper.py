"""The engine knows no paper (issue 12): no module under verify/ names seed 004's lemmas, equations,
errata, claim ids or claim-sheet sections; they live in the paper's package (properties/...)."""

from __future__ import annotations

import re
from pathlib import Path

import verify

PAPER_KNOWLEDGE = re.compile(
    r"\b004\b"  # the paper id itself
    r"|\b(?:Lemma|Theorem|Remark|Corollary|Proposition|Definition|Assumption)[ -]\d"  # numbered statements
    r"|\beq\. ?\(\d+\)|\bApp\. [A-E]\b"  # equations and appendices
    r"|\bEA-[A-I]\d|\bR\d{1,2}\b|\bERRATA"  # claim ids and errata
    r"|\bsheet\b"  # claim-sheet sections
)


def test_no_module_of_the_engine_names_seed_004() -> None:
    root = Path(verify.__file__).parent
    hits = [f"{path.relative_to(root.parent)}:{k}: {line.strip()[:100]}"
            for path in sorted(root.rglob("*.py"))
            for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if PAPER_KNOWLEDGE.search(line)]
    assert not hits, "paper knowledge in verify/:\n" + "\n".join(hits)
