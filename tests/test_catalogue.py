"""The metric catalogue: ``docs/metrics.md`` is what the generator makes of the built-ins."""

from __future__ import annotations

from pathlib import Path

from ef.evaluation import Registry
from ef.evaluation._presentation.catalogue import catalogue_entries, catalogue_markdown, main

PAGE = Path(__file__).parents[1] / "docs" / "metrics.md"


def test_the_committed_page_is_what_the_generator_makes() -> None:
    expected = catalogue_markdown(Registry.load(autoload=False))
    assert PAGE.read_text(encoding="utf-8") == expected, (
        "docs/metrics.md is stale: run python -m ef.evaluation._presentation.catalogue docs/metrics.md"
    )


def test_every_builtin_has_a_section_with_its_syntaxes() -> None:
    registry = Registry.load(autoload=False)
    page = catalogue_markdown(registry)
    for name, metric in registry.retrieval_metrics.items():
        assert f"### {name}\n" in page
        assert metric.formula, name
        assert metric.citation, name
        for synonym in metric.synonyms:
            assert f"`{synonym.name}" in page, (name, synonym.name)
    assert "`map` (a bare `map` is ours: write `map@all`)" in page
    assert "`rbp` (a bare `rbp` is ours: write `rbp(graded=True)`)" in page


def test_entries_say_what_ef_eval_metrics_lists() -> None:
    entries = {e["name"]: e for e in catalogue_entries(Registry.load(autoload=False))}
    precision = entries["precision"]
    assert precision["syntaxes"] == {
        "ours": ["precision@k", "precision@all"],
        "ir_measures": ["P@k", "Precision@k", "SetP"],
        "trec_eval": ["P.k", "set_P"],
    }
    assert [p["name"] for p in precision["parameters"]] == ["rel", "judged_only"]
    assert precision["parameters"][1]["default"] == "False"
    assert entries["num_rel_ret"]["syntaxes"]["ir_measures"] == ["NumRelRet", "NumRet(rel=...)"]
    assert entries["r_cap"]["syntaxes"]["ir_measures"] == ["SetRelP", "SetP(relative=True)"]
    assert entries["num_ret"]["aggregate"] == "sum"
    assert entries["ndcg"]["write_instead"] == {"ndcg": "ndcg@all"}
    assert entries["token_f1"]["kind"] == "rag"


def test_main_writes_the_page(tmp_path, capsys) -> None:
    target = tmp_path / "metrics.md"
    assert main([str(target)]) == 0
    assert target.read_text(encoding="utf-8") == PAGE.read_text(encoding="utf-8")
    assert main([]) == 0
    assert capsys.readouterr().out == PAGE.read_text(encoding="utf-8")
