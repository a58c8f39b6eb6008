"""`--app` trace: where each chat request left the one before (why it was re-read)."""

from __future__ import annotations


def test_the_trace_says_where_a_chat_request_left_the_one_before() -> None:
    from bench.memory.app_mode import diverged

    before = [{"role": "system", "content": "notes: port 7443"}, {"role": "user", "content": "hi"}]
    assert diverged(before, [*before, {"role": "assistant", "content": "yo"}]) is None
    moved = diverged(before, [{"role": "system", "content": "notes: port 9443"}, before[1]])
    assert moved is not None and (moved["message"], moved["role"], moved["at"]) == \
        (0, "system", len("notes: port "))
    assert moved["was"].endswith("7443") and moved["now"].endswith("9443")
    assert diverged(before, before[:1])["message"] == 1  # a message gone from the end
