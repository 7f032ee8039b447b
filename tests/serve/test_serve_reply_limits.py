"""pedro serve cuts an upstream reply that repeats itself or streams past its time limit, and the client gets the
Responses API's end for a reply cut short: response.incomplete, status incomplete, reason max_output_tokens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openai
import pytest
from serve_util import serving
from stub_server import Looping

from pedro.serve.limits import ServeLimits

SENTENCE = "I will look at the file to see what is wrong with it. "


@pytest.fixture
def serve() -> Iterator[Any]:
    with serving() as start:
        yield lambda upstream, **options: f"http://127.0.0.1:{start(upstream, **options)}/v1"


@pytest.fixture
def client() -> Iterator[Any]:
    made: list[openai.OpenAI] = []

    def make(url: str) -> openai.OpenAI:
        made.append(openai.OpenAI(base_url=url, api_key="unused", max_retries=0))
        return made[-1]

    yield make
    for one in made:
        one.close()


def test_a_repeating_upstream_stream_ends_in_response_incomplete(stub_server: Any, serve: Any, client: Any) -> None:
    upstream = stub_server([Looping(SENTENCE)])
    url = serve(f"{upstream.url}/v1")
    events = list(client(url).responses.create(model="m", input="hi", stream=True))
    assert [event.type for event in events[-2:]] == ["response.incomplete", "response.done"]
    response = events[-2].response
    assert response.status == "incomplete" and response.incomplete_details.reason == "max_output_tokens"
    deltas = [event.delta for event in events if event.type == "response.output_text.delta"]
    assert len(deltas) <= 8, "cut a few copies in, not at the end of a 20,000-chunk stream"


def test_an_upstream_stream_past_the_time_limit_ends_in_response_incomplete(
    stub_server: Any, serve: Any, client: Any
) -> None:
    upstream = stub_server([Looping("word", numbered=True)])
    url = serve(f"{upstream.url}/v1", limits=ServeLimits(reply_time_limit=0.3))
    events = list(client(url).responses.create(model="m", input="hi", stream=True))
    assert events[-2].type == "response.incomplete" and events[-2].response.status == "incomplete"
    text = "".join(event.delta for event in events if event.type == "response.output_text.delta")
    assert text.startswith("word0 word1 ")


def test_a_non_streamed_request_gets_the_incomplete_response_with_200(
    stub_server: Any, serve: Any, client: Any
) -> None:
    upstream = stub_server([Looping(SENTENCE)])
    url = serve(f"{upstream.url}/v1")
    response = client(url).responses.create(model="m", input="hi")
    assert response.status == "incomplete" and response.incomplete_details.reason == "max_output_tokens"
    assert SENTENCE.strip() in response.output_text
