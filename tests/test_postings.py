"""The postings arrays written beside the Whoosh index hold what Whoosh holds, and search reads
one version's documents through them (a rule changed in a later release is found in each
release by its own words)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from whoosh.filedb.filestore import FileStorage

from crkb.search import postings
from crkb.search.index import build_index
from crkb.search.postings import read_postings
from tests.documents import document, toy_searcher

OLD = [
    ("100", "section", "Springs", "Springs"),
    ("100.1", "rule", "A spring is coiled wire. A spring stores energy.", None),
    ("100.2", "rule", "A gear turns a spring.", None),
    ("200", "section", "Gears", "Gears"),
    ("200.1", "rule", "A gear has teeth.", None),
]
NEW = [
    ("100", "section", "Springs", "Springs"),
    ("100.1", "rule", "A spring is coiled wire.", None),
    ("100.2", "rule", "A cog turns a spring.", None),
    ("200", "section", "Gears", "Gears"),
    ("200.1", "rule", "A gear has teeth and turns a cog.", None),
]
ZH = [
    ("100", "section", "弹簧", "弹簧"),
    ("100.1", "rule", "弹簧是卷起来的金属丝。", None),
]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("postings") / "index"
    old = dataclasses.replace(document("en", OLD, []), version="2029-01-01")
    build_index(d, [old, document("en", NEW, []), document("zh", ZH, [])], {})
    return d


def test_arrays_hold_what_whoosh_holds(index: Path) -> None:
    ix = FileStorage(str(index)).open_index()
    with ix.reader() as reader:
        arrays = postings.read(index, reader.doc_count_all())
        seen = 0
        for field in postings.FIELDS:
            for term in reader.field_terms(field):
                ids, weights = read_postings(reader, field, term)
                docs, freqs = arrays.postings(field, term)
                assert docs.tolist() == ids and freqs.tolist() == weights, (field, term)
                assert arrays.frequency(field, term) == len(ids)
                seen += 1
            for d in range(reader.doc_count_all()):
                assert arrays.lengths[field][d] == (reader.doc_field_length(d, field, 0) or 0)
    assert seen > 20
    assert arrays.postings("body", "no-such-term")[0].tolist() == []


def test_each_release_is_searched_in_its_own_words(index: Path) -> None:
    s = toy_searcher(index)
    newest = s.search("cog", lang="en")
    assert [h["number"] for h in newest["hits"]] == ["100.2", "200.1"]
    assert s.search("cog", lang="en", version="2029-01-01")["hits"] == []
    old = s.search("energy", lang="en", version="2029-01-01")
    assert [h["number"] for h in old["hits"]] == ["100.1"]
    assert old["hits"][0]["text"] == "A spring is coiled wire. A spring stores energy."
    assert s.search("energy", lang="en")["hits"] == []
    assert [h["number"] for h in s.search("金属丝", lang="zh")["hits"]] == ["100.1"]


def test_arrays_that_do_not_fit_the_index_are_refused(index: Path) -> None:
    ix = FileStorage(str(index)).open_index()
    with ix.reader() as reader:
        n = reader.doc_count_all()
    with pytest.raises(ValueError, match="does not match"):
        postings.read(index, n + 1)


def test_a_terms_fields_saturated_at_once_equal_field_by_field(index: Path) -> None:
    """The lists of one term in every field, cut to a release and saturated in one pass, hold
    the values computed field by field, to the bit (rankings rest on it)."""
    from crkb.search.planning import EN_FIELDS

    s = toy_searcher(index)
    scorer, names = s.scorer, tuple(EN_FIELDS)
    words = {t for f in names for t in s.scorer.postings.terms[f]}
    assert len(words) >= 10
    forms = [((w, 1.0),) for w in sorted(words)] + [
        (("spring", 1.0), ("gear", 0.7)),
        (("cog", 0.5), ("nowhere", 1.0)),
    ]
    for o in range(len(s.versions["en"])):
        scope = s._scope("en", o)
        for form in forms:
            docs, sat, counts = scorer.saturated_in(("en", o), scope, names, form)
            parts = [scorer.saturated(("en", o), scope, f, form) for f in names]
            assert counts == tuple(len(d) for d, _v in parts), form
            assert docs.tolist() == [x for d, _v in parts for x in d.tolist()], form
            assert sat.tolist() == [x for _d, v in parts for x in v.tolist()], form


def test_a_term_in_several_fields_counts_once_as_matched(index: Path) -> None:
    """A rule holding a query word in its text and its title has matched that word once, at its
    best coordination (not twice); a word only in an example counts half."""
    from crkb.search.planning import EN_FIELDS
    from crkb.search.question import Term

    s = toy_searcher(index)
    o = len(s.versions["en"]) - 1
    scored = s.scorer.score(
        ("en", o), s._scope("en", o), [Term("spring", (("spring", 1.0),))], EN_FIELDS
    )
    matched = dict(zip(scored.docs.tolist(), scored.matched.tolist(), strict=True))
    section = next(d for d in matched if s._number_of[d] == "100")  # "Springs": title and text
    assert matched[section] == 1.0
    assert set(matched.values()) <= {1.0, 0.5, 0.8}


def test_one_fields_scores_and_their_addition_equal_the_general_ones(index: Path) -> None:
    """`one_field` (the players' questions' BM25) and `add` give what `score` and `merge` give
    for one field and distinct documents, to rounding: only the order of the documents differs."""
    import numpy as np

    from crkb.search.question import Term
    from crkb.search.scoring import Scored

    s = toy_searcher(index)
    scorer = s.scorer
    terms = [
        Term("spring", (("spring", 1.0),)),
        Term("gear", (("gear", 1.0), ("cog", 0.5)), 0.6),
        Term("nowhere", (("nowhere", 1.0),)),
    ]
    for o in range(len(s.versions["en"])):
        sid, scope = ("en", o), s._scope("en", o)
        general = scorer.score(sid, scope, terms, {"body": (1.0, 0.0)})
        docs, scores = scorer.one_field(sid, scope, terms, "body")
        assert docs.tolist() == sorted(general.docs.tolist())
        want = dict(zip(general.docs.tolist(), general.scores.tolist(), strict=True))
        assert np.allclose(scores, [want[d] for d in docs.tolist()])
        into = scorer.score(sid, scope, [terms[0]], {"etitle": (1.0, 1.0), "body": (1.0, 1.0)})
        merged = scorer.merge(into, Scored(docs, scores, np.zeros(len(docs))))
        added = scorer.add(into, docs, scores)
        assert added.docs[: len(into.docs)].tolist() == into.docs.tolist()
        assert sorted(added.docs.tolist()) == sorted(merged.docs.tolist())
        got = dict(zip(added.docs.tolist(), added.scores.tolist(), strict=True))
        assert np.allclose([got[d] for d in merged.docs.tolist()], merged.scores)
        matched = dict(zip(added.docs.tolist(), added.matched.tolist(), strict=True))
        assert [matched[d] for d in merged.docs.tolist()] == merged.matched.tolist()


def test_a_list_cut_to_a_releases_documents_keeps_all_it_holds_there(index: Path) -> None:
    """`cut` narrows a term's postings to the stretch that can lie in a release (the newest
    release's documents come first); the documents in scope, in order, are all still there."""
    s = toy_searcher(index)
    post = s.scorer.postings
    narrowed = 0
    for lang, versions in s.versions.items():
        for o in range(len(versions)):
            scope = s._scope(lang, o)
            for field, terms in post.terms.items():
                for term in terms:
                    a, b = post.span(field, term)
                    c, d = s.scorer.cut((lang, o), scope, (a, b))
                    assert a <= c <= d <= b
                    whole, part = post.docs[a:b], post.docs[c:d]
                    assert part[scope[part]].tolist() == whole[scope[whole]].tolist()
                    narrowed += (d - c) < (b - a)
    assert narrowed  # the newest English release skips the older one's documents


def test_scores_added_within_a_parts_documents_equal_the_merged_ones_there(index: Path) -> None:
    """`within` adds another part's scores to the documents already scored, as `merge` does,
    and adds no document."""
    from crkb.search.planning import EN_FIELDS
    from crkb.search.question import Term

    s = toy_searcher(index)
    for o in range(len(s.versions["en"])):
        sid, scope = ("en", o), s._scope("en", o)
        into = s.scorer.score(sid, scope, [Term("spring", (("spring", 1.0),))], EN_FIELDS)
        other = s.scorer.score(sid, scope, [Term("gear", (("gear", 1.0),), 0.1)], EN_FIELDS)
        assert len(into.docs) and len(other.docs)
        merged = s.scorer.merge(into, other)
        within = s.scorer.within(into, other)
        assert within.docs.tolist() == into.docs.tolist()
        assert within.matched.tolist() == into.matched.tolist()
        assert within.scores.tolist() == merged.scores[: len(into.docs)].tolist()
        assert set(merged.docs.tolist()) > set(within.docs.tolist())  # gear-only rules
