"""What line-file readers must accept, and read exactly: BOM, CRLF, gzip, mixed whitespace,
comments, ``#`` inside ids, extra run columns, blank lines, verbatim ``id<TAB>text`` texts."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from pathlib import Path

import pytest

from ef.evaluation import Document, read_qrels, read_queries, read_run

from .helpers import format_error_at, read_corpus, write_gzip

#: (reader, a well-formed file, what it reads as)
GOOD: dict[str, tuple[Callable[[Path], object], str, object]] = {
    "trec-qrels": (
        lambda p: read_qrels(p, format="trec"),
        "q1 0 d1 2\nq1 0 d2 0\nq2 0 d1 -1\n",
        {"q1": {"d1": 2, "d2": 0}, "q2": {"d1": -1}},
    ),
    "msmarco-qrels": (
        lambda p: read_qrels(p, format="msmarco"),
        "q1\t0\td1\t1\nq2\t0\td3\t1\n",
        {"q1": {"d1": 1}, "q2": {"d3": 1}},
    ),
    "beir-qrels": (
        lambda p: read_qrels(p, format="beir"),
        "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0.5\n",
        {"q1": {"d1": 1.0, "d2": 0.5}},
    ),
    "trec-run": (
        lambda p: read_run(p, format="trec"),
        "q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 -1e-3 bm25\nq2 Q0 d1 1 7 bm25\n",
        {"q1": {"d1": 2.5, "d2": -0.001}, "q2": {"d1": 7.0}},
    ),
    "msmarco-run": (
        lambda p: read_run(p, format="msmarco"),
        "q1\td7\t1\nq1\td3\t2\nq1\td9\t4\n",
        {"q1": {"d7": 1.0, "d3": 0.5, "d9": 0.25}},
    ),
    "msmarco-queries": (
        lambda p: read_queries(p, format="msmarco"),
        "1048585\twhat is paula deen's brother\n2\t Androgen receptor define\n",
        {"1048585": "what is paula deen's brother", "2": " Androgen receptor define"},
    ),
    "trec-topics-tsv": (
        lambda p: read_queries(p, format="trec"),
        "156493\tdo goldfish grow\n1110199\twhat is wifi vs bluetooth\n",
        {"156493": "do goldfish grow", "1110199": "what is wifi vs bluetooth"},
    ),
    "msmarco-collection": (
        lambda p: read_corpus("msmarco", p),
        "0\tThe presence of communication\n1\t  padded  \n",
        [Document("0", "", "The presence of communication"), Document("1", "", "  padded  ")],
    ),
}


def _crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


VARIANTS: dict[str, Callable[[Path, str], Path]] = {
    "plain": lambda p, t: _save(p, t.encode()),
    "bom": lambda p, t: _save(p, ("\ufeff" + t).encode()),
    "crlf": lambda p, t: _save(p, _crlf(t).encode()),
    "bom-crlf": lambda p, t: _save(p, ("\ufeff" + _crlf(t)).encode()),
    "blank-lines": lambda p, t: _save(p, (t.replace("\n", "\n  \n\t\n") + "\n").encode()),
    "leading-blank-lines": lambda p, t: _save(p, ("\n \n" + t).encode()),
    "gzip-named-gz": lambda p, t: write_gzip(p.with_name(p.name + ".gz"), t),
    "gzip-named-plain": write_gzip,
    "gzip-bom-crlf": lambda p, t: write_gzip(p.with_name(p.name + ".gz"), "\ufeff" + _crlf(t)),
}


def _save(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _cases() -> list[object]:
    cases: list[object] = []
    for kind in GOOD:
        for variant in VARIANTS:
            cases.append(pytest.param(kind, variant, id=f"{kind}-{variant}"))
    return cases


@pytest.mark.parametrize(("kind", "variant"), _cases())
def test_bom_crlf_blank_lines_and_gzip_read_the_same(
    tmp_path: Path, kind: str, variant: str
) -> None:
    reader, text, expected = GOOD[kind]
    path = VARIANTS[variant](tmp_path / "input.txt", text)
    assert reader(path) == expected


def test_gzip_is_told_by_its_magic_number_not_its_name(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_bytes(gzip.compress(b"q1 Q0 d1 1 3 t\n"))
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    assert read_run(path) == {"q1": {"d1": 3.0}}
    plain = tmp_path / "run.txt.gz"  # a misleading name: plain text
    plain.write_text("q1 Q0 d1 1 3 t\n")
    assert read_run(plain) == {"q1": {"d1": 3.0}}


def test_trec_columns_split_on_any_whitespace(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1\t0 d1  \t 1\n  q1 0\t\td2 0  \n")
    assert read_qrels(qrels, format="trec") == {"q1": {"d1": 1, "d2": 0}}
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0\td1\t1 2.5   tag\n\tq1\tQ0 d2 2\t1.5\ttag\n")
    assert read_run(run, format="trec") == {"q1": {"d1": 2.5, "d2": 1.5}}


def test_comment_lines_are_skipped_and_a_hash_inside_a_docno_is_data(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(
        "# topic iter docno rel\n"
        "301 0 CR#93E-1860 1\n"
        "   # an indented comment\n"
        "301 0 FR940104-0-00001 0 \n"
        "\t#\n"
        "q#2 0 d#1 2\n"
    )
    expected = {"301": {"CR#93E-1860": 1, "FR940104-0-00001": 0}, "q#2": {"d#1": 2}}
    assert read_qrels(qrels, format="trec") == expected
    assert read_qrels(qrels) == expected  # detection skips the comment line too
    run = tmp_path / "run.txt"
    run.write_text("# run\n301 Q0 CR#93E-1860 1 2.0 tag#1\n# 301 Q0 d2 2 1.0 t\n")
    assert read_run(run, format="trec") == {"301": {"CR#93E-1860": 2.0}}
    assert read_run(run) == {"301": {"CR#93E-1860": 2.0}}


def test_a_bom_before_a_comment_line_still_makes_it_a_comment(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_bytes("\ufeff# comment\nq1 0 d1 1\n".encode())
    assert read_qrels(path) == {"q1": {"d1": 1}}


def test_msmarco_run_comments(tmp_path: Path) -> None:
    path = tmp_path / "run.tsv"
    path.write_text("# qid pid rank\nq1\td#1\t1\n")
    assert read_run(path, format="msmarco") == {"q1": {"d#1": 1.0}}


def test_columns_after_the_sixth_of_a_trec_run_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 1 2.5 tag extra columns here\nq1 Q0 d2 2 1.5 tag x\n")
    assert read_run(path, format="trec") == {"q1": {"d1": 2.5, "d2": 1.5}}
    assert read_run(path) == {"q1": {"d1": 2.5, "d2": 1.5}}  # detected by its Q0 column


def test_the_rank_column_is_ignored_and_scores_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_text("q1 Q0 d1 7 1.0 t\nq1 Q0 d2 7 3.0 t\nq1 Q0 d3 x 2.0 t\n")
    assert read_run(path, format="trec") == {"q1": {"d1": 1.0, "d2": 3.0, "d3": 2.0}}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("-1.5", -1.5),
        ("+2", 2.0),
        (".5", 0.5),
        ("5.", 5.0),
        ("1e-3", 0.001),
        ("1E+2", 100.0),
        ("0", 0.0),
        ("-0.0", 0.0),
        ("12.033000", 12.033),
        ("1e308", 1e308),
    ],
)
def test_trec_run_scores_in_every_decimal_form(tmp_path: Path, field: str, value: float) -> None:
    path = tmp_path / "run.txt"
    path.write_text(f"q1 Q0 d1 1 {field} t\n")
    assert read_run(path, format="trec") == {"q1": {"d1": value}}


@pytest.mark.parametrize(("field", "grade"), [("0", 0), ("-1", -1), ("+2", 2), ("03", 3)])
def test_trec_qrels_integer_grades(tmp_path: Path, field: str, grade: int) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text(f"q1 0 d1 {field}\n")
    read = read_qrels(path, format="trec")
    assert read == {"q1": {"d1": grade}}
    assert isinstance(read["q1"]["d1"], int)


def test_the_iteration_column_of_qrels_may_be_q0_or_0(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text("q1 Q0 d1 1\nq1 0 d2 2\nq2 7 d1 0\n")
    assert read_qrels(path) == {"q1": {"d1": 1, "d2": 2}, "q2": {"d1": 0}}


def test_one_doc_in_two_queries_is_no_duplicate(tmp_path: Path) -> None:
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d1 1 2 t\nq2 Q0 d1 1 2 t\n")
    assert read_run(run) == {"q1": {"d1": 2.0}, "q2": {"d1": 2.0}}
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq2 0 d1 0\n")
    assert read_qrels(qrels) == {"q1": {"d1": 1}, "q2": {"d1": 0}}


def test_beir_qrels_keep_fractional_and_negative_grades(tmp_path: Path) -> None:
    # A pair judged twice, even alike, is refused (docs/formats.md; test_bad_input.py).
    path = tmp_path / "qrels.tsv"
    path.write_text("q1\td1\t1.5\nq1\td2\t-1\nq1\td3\t1e0\n")
    assert read_qrels(path, format="beir") == {"q1": {"d1": 1.5, "d2": -1.0, "d3": 1.0}}


@pytest.mark.parametrize("fmt", ["msmarco", "trec"])
def test_id_tab_text_keeps_the_text_verbatim(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "queries.tsv"
    path.write_bytes(
        b"2\t Androgen receptor define\n"
        b"3\ttrailing spaces  \r\n"
        b"4\t\n"
        b"5\ta\ttab\tinside\n"
        b"6\t# not a comment\n"
        b"7\t<title> & \\u00e9 caf\xc3\xa9 \xe2\x80\xa8sep\n"
    )
    assert read_queries(path, format=fmt) == {
        "2": " Androgen receptor define",
        "3": "trailing spaces  ",
        "4": "",
        "5": "a\ttab\tinside",
        "6": "# not a comment",
        "7": "<title> & \\u00e9 caf\u00e9 \u2028sep",
    }


def test_a_collection_keeps_passage_texts_verbatim(tmp_path: Path) -> None:
    path = tmp_path / "collection.tsv"
    path.write_text("0\t leading\n1\ttrailing \n2\t\n")
    docs = read_corpus("msmarco", path)
    assert [(d.id, d.title, d.text) for d in docs] == [
        ("0", "", " leading"),
        ("1", "", "trailing "),
        ("2", "", ""),
    ]


def test_a_comment_line_in_tsv_trec_topics_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "topics.tsv"
    path.write_text("# qid<TAB>title\n301\tInternational Organized Crime\n")
    assert read_queries(path, format="trec") == {"301": "International Organized Crime"}


def test_sgml_topics_with_crlf_and_a_bom(tmp_path: Path) -> None:
    text = (
        "<top>\n<num> Number: 301 \n<title> International Organized Crime \n\n"
        "<desc> Description: \nIdentify organizations\n</top>\n\n"
        "<top>\n<num> Number: 302\n<title> Poliomyelitis and <Post-Polio>\n</top>\n"
    )
    path = tmp_path / "topics.txt"
    path.write_bytes(("\ufeff" + _crlf(text)).encode())
    assert read_queries(path) == {
        "301": "International Organized Crime",
        "302": "Poliomyelitis and <Post-Polio>",
    }


def test_an_sgml_topic_without_a_title_uses_its_description(tmp_path: Path) -> None:
    path = tmp_path / "topics.txt"
    path.write_text("<top>\n<num> Number: 7\n<desc> Description:\nsome   words\nhere\n</top>\n")
    assert read_queries(path, format="trec") == {"7": "some words here"}


def test_an_sgml_topic_without_a_number_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "topics.txt"
    path.write_text("<top>\n<num> Number: 1\n<title> a\n</top>\n\n<top>\n<title> b\n</top>\n")
    message = format_error_at(path, 6, lambda: read_queries(path, format="trec"))
    assert "<num>" in message


def test_detected_trec_qrels_with_tabs_and_spaces_mixed_are_read_as_trec(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text("q1 0\td1\t1\nq1 0\td2\t0\n")
    assert read_qrels(path) == {"q1": {"d1": 1, "d2": 0}}
