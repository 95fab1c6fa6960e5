"""The JSON API fuzzed from its own OpenAPI document (schemathesis) over the real archive build.

Every generated request, valid or not, must get a documented answer: never a server error, the
status, content type and body the document promises, invalid parameters refused (400/404 JSON),
valid ones accepted.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

pytestmark = pytest.mark.archive


@pytest.fixture(scope="module")
def api(app):
    """The schema as a client finds it: the app's own /api/openapi.json."""
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api")
# The WSGI transport does not undo gzip (an HTTP client does; tests/test_web_speed.py checks the
# compressed answers), so these requests ask for plain bodies.
PLAIN = {"Accept-Encoding": "identity"}


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same cases on every run: a CI failure reproduces locally
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_every_generated_request_as_documented(case) -> None:
    # Every built-in check: not_a_server_error, status_code / content_type / response_schema
    # conformance, negative_data_rejection, positive_data_acceptance, unsupported_method.
    # identify judges its text by content: a schema-valid string that quotes no rule is a
    # documented 400, not a wrongly refused request; so is a carry whose English release is
    # not later than its Chinese one (a relation between two parameters no schema states).
    judged = ("/api/identify", "/api/translation/forward")
    excluded = [positive_data_acceptance] if case.operation.path in judged else []
    case.call_and_validate(headers=PLAIN, excluded_checks=excluded)


def _example(param_or_body: dict):
    schema_ = param_or_body.get("schema", {})
    if "example" in param_or_body:
        return param_or_body["example"]
    return (schema_.get("examples") or [None])[0]


def test_documented_examples_get_real_answers(api, app) -> None:
    """The document's examples are real requests answered 200 with a conforming body, so the
    fuzzing above reaches real rules, hits and diffs, not only 404s."""
    doc = app.test_client().get("/api/openapi.json").get_json()
    answered = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            params = {p["name"]: p for p in op.get("parameters", [])}
            path_params = {n: _example(p) for n, p in params.items() if p["in"] == "path"}
            query = {
                n: _example(p)
                for n, p in params.items()
                if p["in"] == "query" and _example(p) is not None
            }
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            kwargs = {"media_type": "application/json", "body": body["example"]} if body else {}
            case = api[path][method.upper()].Case(
                path_parameters=path_params, query=query, **kwargs
            )
            response = case.call_and_validate(headers=PLAIN)
            assert response.status_code == 200, (path, response.text[:200])
            answered.append(f"{method.upper()} {path}")
    assert len(answered) == sum(len(ops) for ops in doc["paths"].values()) >= 7


def test_declared_constraints_are_enforced_with_json_errors(app) -> None:
    """What the document constrains, the server refuses in one JSON line (not silently)."""
    c = app.test_client()
    for url in (
        "/api/search?q=trample&lang=",  # enum: an empty lang is not `auto`
        "/api/search?q=trample&lang=both",
        "/api/search?q=%20%20",  # pattern: a blank query
        "/api/search?q=" + "x" * 201,  # maxLength
        "/api/rules/702.2?lang=",
    ):
        r = c.get(url)
        assert r.status_code == 400, url
        assert r.is_json and set(r.get_json()) == {"error"} and r.get_json()["error"]
    for url in (
        "/api/diff?from=&to=latest",  # pattern: empty names are unknown versions
        "/api/diff?from=..%2F..&to=latest",
        "/api/rules/" + "1" * 17,  # maxLength of a rule number
    ):
        r = c.get(url)
        assert r.status_code in (400, 404), url
        assert r.is_json and set(r.get_json()) == {"error"}


def test_wrong_method_is_405_with_allow_header(app) -> None:
    r = app.test_client().delete("/api/versions")
    assert r.status_code == 405 and "GET" in r.headers["Allow"]
    assert r.is_json and set(r.get_json()) == {"error"}
