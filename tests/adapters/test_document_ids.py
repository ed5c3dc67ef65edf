"""How the Haystack and LangChain adapters read a Document's doc id, without either framework:
a stand-in document has the attributes the adapters read (``id``, ``meta``, ``metadata``)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ef.evaluation.adapters._haystack import HaystackSearch
from ef.evaluation.adapters._ids import DocIdError
from ef.evaluation.adapters._langchain import LangChainSearch

#: Each adapter, the name of its Document's field mapping, and its words for it.
_ADAPTERS = [
    (HaystackSearch, "meta", "a Haystack Document's meta", "haystack"),
    (LangChainSearch, "metadata", "a LangChain Document's metadata", "langchain"),
]


def _document(doc_id: object, fields: str, values: dict[str, object]) -> SimpleNamespace:
    return SimpleNamespace(id=doc_id, **{fields: values})


@pytest.mark.parametrize(("adapter", "fields", "what", "wrapper"), _ADAPTERS)
@pytest.mark.parametrize("doc_id", ["d1", 7])
def test_its_own_id_without_id_field(
    adapter: type[HaystackSearch | LangChainSearch],
    fields: str,
    what: str,
    wrapper: str,
    doc_id: object,
) -> None:
    document = _document(doc_id, fields, {"doc_id": "elsewhere"})
    assert adapter(retriever=None)._doc_id(document) == str(doc_id)


@pytest.mark.parametrize(("adapter", "fields", "what", "wrapper"), _ADAPTERS)
def test_the_named_field_with_id_field(
    adapter: type[HaystackSearch | LangChainSearch], fields: str, what: str, wrapper: str
) -> None:
    document = _document("own", fields, {"doc_id": 42})
    assert adapter(retriever=None, id_field="doc_id")._doc_id(document) == "42"


@pytest.mark.parametrize(("adapter", "fields", "what", "wrapper"), _ADAPTERS)
def test_a_missing_field_is_named(
    adapter: type[HaystackSearch | LangChainSearch], fields: str, what: str, wrapper: str
) -> None:
    document = _document("own", fields, {"source": "x.txt"})
    with pytest.raises(DocIdError) as raised:
        adapter(retriever=None, id_field="doc_id")._doc_id(document)
    assert str(raised.value) == (
        f"{what} has no 'doc_id' (its keys: 'source'); pass id_field= naming the key that "
        f"holds the doc id: ef.evaluation.adapters.{wrapper}(retriever, id_field=...)"
    )


@pytest.mark.parametrize(("adapter", "fields", "what", "wrapper"), _ADAPTERS)
@pytest.mark.parametrize("doc_id", [None, True, 1.5])
def test_no_id_says_where_to_read_one(
    adapter: type[HaystackSearch | LangChainSearch],
    fields: str,
    what: str,
    wrapper: str,
    doc_id: object,
) -> None:
    with pytest.raises(DocIdError) as raised:
        adapter(retriever=None)._doc_id(_document(doc_id, fields, {}))
    message = str(raised.value)
    document = what.partition("'s ")[0]  # "a Haystack Document"
    assert message.startswith(f"{document} has no id")
    assert message.endswith(f"ef.evaluation.adapters.{wrapper}(retriever, id_field='doc_id')")
