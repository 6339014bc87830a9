"""The line protocol on its own: framing, parsing, and which lines get which error."""

from __future__ import annotations

import json

from spielleiter.link.protocol import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    LineFramer,
    RpcError,
    answer,
    overlong_line,
)


def echo(method: str, params: dict) -> dict:
    if method == "boom":
        raise RuntimeError("kaputt")
    if method == "refuse":
        raise RpcError(2, "no such thing")
    return {"method": method, "params": params}


def reply(line: bytes) -> dict | None:
    out = answer(line, echo)
    return None if out is None else json.loads(out)


def test_lines_end_at_newline_or_carriage_return_and_empty_lines_vanish():
    framer = LineFramer()
    assert framer.feed(b"AT\r\n\n{") == [b"AT"]
    assert framer.feed(b'"a":1}\r') == [b'{"a":1}']


def test_an_overlong_line_is_dropped_whole_and_reported_once_at_its_end():
    framer = LineFramer(limit=10)
    assert framer.feed(b"x" * 8) == []
    assert framer.feed(b"y" * 8) == []
    assert framer.feed(b"zz\nok\n") == [None, b"ok"]
    assert json.loads(overlong_line(10))["error"]["code"] == INVALID_REQUEST


def test_a_line_of_exactly_the_limit_is_kept():
    assert LineFramer(limit=4).feed(b"abcd\n") == [b"abcd"]


def test_a_request_is_answered_with_its_id():
    got = reply(b'{"jsonrpc":"2.0","method":"m","params":{"a":1},"id":7}')
    assert got == {"jsonrpc": "2.0", "id": 7, "result": {"method": "m", "params": {"a": 1}}}


def test_junk_gets_a_parse_error_with_id_null():
    for junk in (b"AT", b"ATE0", b"\xff\xfe", b'{"jsonrpc":', b"NaN", b"[" * 5000):
        got = reply(junk)
        assert got["id"] is None and got["error"]["code"] == PARSE_ERROR, junk


def test_a_batch_and_non_objects_are_invalid_requests():
    for line in (b"[]", b'[{"jsonrpc":"2.0","method":"m","id":1}]', b"3", b'"hello"', b"null"):
        assert reply(line)["error"]["code"] == INVALID_REQUEST, line


def test_malformed_requests_are_invalid_requests():
    for line in (
        b'{"method":"m","id":1}',
        b'{"jsonrpc":"1.0","method":"m","id":1}',
        b'{"jsonrpc":"2.0","method":5,"id":1}',
        b'{"jsonrpc":"2.0","method":"m","id":1.5}',
        b'{"jsonrpc":"2.0","method":"m","id":true}',
        b'{"jsonrpc":"2.0","method":"m","id":1,"extra":0}',
    ):
        got = reply(line)
        assert got["id"] is None and got["error"]["code"] == INVALID_REQUEST, line


def test_positional_params_are_refused_with_the_request_id():
    got = reply(b'{"jsonrpc":"2.0","method":"m","params":[1],"id":"x"}')
    assert got["id"] == "x" and got["error"]["code"] == INVALID_PARAMS


def test_method_errors_keep_the_id_and_bugs_become_internal_errors():
    assert reply(b'{"jsonrpc":"2.0","method":"refuse","id":1}')["error"]["code"] == 2
    assert reply(b'{"jsonrpc":"2.0","method":"boom","id":1}')["error"]["code"] == INTERNAL_ERROR


def test_notifications_and_stray_responses_are_not_answered():
    assert reply(b'{"jsonrpc":"2.0","method":"m"}') is None
    assert reply(b'{"jsonrpc":"2.0","method":"boom"}') is None
    assert reply(b'{"jsonrpc":"2.0","id":1,"result":{}}') is None
    assert reply(b'{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}') is None
