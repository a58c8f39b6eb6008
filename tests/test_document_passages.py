"""Passages cut along a document's structure: headings, pages, lines, sizes for small windows."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from ollm_desktop.engine.document_text import Block
from ollm_desktop.engine.passages import MAX_TOKENS, Passage, citation, cut_passages
from ollm_desktop.engine.tokens import count_tokens


def test_a_passage_never_crosses_a_heading_and_knows_its_section() -> None:
    blocks = [Block(kind="heading", text="Guide", level=1),
              Block(kind="paragraph", text="Intro."),
              Block(kind="heading", text="Retries", level=2),
              Block(kind="paragraph", text="Retry five times."),
              Block(kind="heading", text="Limits", level=2),
              Block(kind="paragraph", text="At most 500 calls.")]
    passages = cut_passages(blocks, count_tokens)
    assert [(p.section, p.text) for p in passages] == [
        ("Guide", "Intro."), ("Guide › Retries", "Retry five times."),
        ("Guide › Limits", "At most 500 calls.")]
    assert [p.ordinal for p in passages] == [0, 1, 2]


def test_small_paragraphs_of_one_section_share_a_passage() -> None:
    blocks = [Block(kind="paragraph", text=f"Sentence {i}.", first_line=i * 2 + 1,
                    last_line=i * 2 + 1) for i in range(5)]
    (passage,) = cut_passages(blocks, count_tokens)
    assert passage.first_line == 1 and passage.last_line == 9
    assert citation("notes.txt", passage) == "[notes.txt, lines 1–9]"


def test_a_new_pdf_page_starts_a_new_passage_unless_the_first_is_a_scrap() -> None:
    long = "The server keeps one slot per model and reuses the cached prefix. " * 6
    blocks = [Block(kind="paragraph", text=long, page=1),
              Block(kind="paragraph", text="Page two.", page=2),
              Block(kind="paragraph", text="Tiny.", page=3),
              Block(kind="paragraph", text="Page four joins it.", page=4)]
    passages = cut_passages(blocks, count_tokens)
    assert [(p.first_page, p.last_page) for p in passages] == [(1, 1), (2, 4)]
    assert citation("a.pdf", passages[0]) == "[a.pdf, p. 1]"
    assert citation("a.pdf", passages[1]) == "[a.pdf, p. 2–4]"


def test_a_long_code_block_is_split_at_lines_with_their_numbers() -> None:
    lines = [f"    value_{i} = compute_something({i}, retries=3)" for i in range(120)]
    block = Block(kind="code", text="\n".join(lines), first_line=10, last_line=129)
    passages = cut_passages([block], count_tokens)
    assert len(passages) > 2
    assert passages[0].first_line == 10 and passages[-1].last_line == 129
    for before, after in itertools.pairwise(passages):
        assert after.first_line == (before.last_line or 0) + 1
        assert after.text.split("\n")[0] == lines[(after.first_line or 0) - 10]


def test_citation_without_pages_or_lines_names_the_section() -> None:
    passage = Passage(0, "x", 1, section="Setup › Ports")
    assert citation("runbook.docx", passage) == "[runbook.docx, § Ports]"
    assert citation("page.html", Passage(0, "x", 1)) == "[page.html]"


words = st.text(alphabet="abcdefghij .,\n", min_size=0, max_size=2000)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["heading", "paragraph", "code", "table", "item"]),
                          words), max_size=30))
def test_every_word_lands_in_one_passage_of_bounded_size(parts: list[tuple[str, str]]) -> None:
    blocks = [Block(kind=kind, text=text, level=1 if kind == "heading" else 0)  # type: ignore[arg-type]
              for kind, text in parts]
    passages = cut_passages(blocks, count_tokens)
    body = [w for b in blocks if b.kind != "heading" for w in b.text.split()]
    assert [w for p in passages for w in p.text.split()] == body
    assert all(p.tokens <= MAX_TOKENS + 2 for p in passages)


def test_blank_blocks_make_no_passage() -> None:
    assert cut_passages([Block(kind="paragraph", text="  \n ")], count_tokens) == []
