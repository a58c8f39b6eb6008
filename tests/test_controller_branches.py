"""Branches (issue 15): Regenerate keeps the earlier reply as an alternative, edit and resend
branches (also from inside a compacted group: the pre-compaction state of that point), fork
from here carries checkpoints and pins. The controller against the loopback fake Ollama; what
goes on the wire is read from the fake's request log."""

from __future__ import annotations

import asyncio

import pytest

from ollm_desktop.session.core import WARNED_MARK
from tests.controller_harness import (
    chat_turns,
    run,
    scripted_model,
    settle,
    turn,
)


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=40)
    return ollama_server




def sent_text(body: dict) -> str:
    return "\n".join(m["content"] for m in body["messages"])


async def regenerate(controller) -> None:
    task = controller.regenerate()
    assert task is not None
    await asyncio.gather(task, return_exceptions=True)
    await settle(controller)


def test_regenerate_keeps_the_earlier_reply_as_an_alternative(qloop, controller, server):
    async def scenario():
        await turn(controller, "Name a colour")
        first = controller.display_messages()[-1]
        await regenerate(controller)
        return first

    first = run(qloop, scenario())
    original_chat = controller.chat.id
    second = controller.display_messages()[-1]
    assert second.id != first.id and second.content != first.content
    # The same request went out again, without the old reply.
    bodies = chat_turns(server)
    assert bodies[-1]["messages"] == bodies[-2]["messages"]
    assert first.content not in sent_text(bodies[-1])
    found = controller.alternatives()[second.id]
    assert (found.index, found.count, found.label) == (1, 2, "2/2")
    # Paging back opens the chat holding the earlier reply: the whole state switches.
    shown = controller.switch_alternative(second.id, -1)
    assert shown == controller.display_messages()[1].id
    assert controller.chat.id != original_chat and controller.chat.is_branch
    assert controller.chat.root_id == original_chat
    assert [m.content for m in controller.display_messages()][-1] == first.content
    back = controller.alternatives()[controller.display_messages()[-1].id]
    assert back.label == "1/2"
    assert controller.switch_alternative(controller.display_messages()[-1].id, +1) == second.id
    assert controller.chat.id == original_chat


def test_a_regenerate_that_gets_nothing_keeps_no_alternative(qloop, controller, server):
    async def scenario():
        await turn(controller, "Name a colour")
        server.fail("/api/chat", 500, "model crashed")
        await regenerate(controller)

    run(qloop, scenario())
    assert controller.alternatives() == {}
    assert len(controller.list_chats()) == 1


def test_edit_and_resend_makes_a_branch_and_never_overwrites(qloop, controller, server):
    async def scenario():
        await turn(controller, "First question about tables")
        await turn(controller, "Second question: the ORIGINAL wording")
        original = controller.chat.id
        target = controller.display_messages()[2]
        assert controller.begin_edit(target.id) == "Second question: the ORIGINAL wording"
        await turn(controller, "Second question: the EDITED wording")
        return original

    original = run(qloop, scenario())
    body = chat_turns(server)[-1]
    assert "EDITED" in sent_text(body) and "ORIGINAL" not in sent_text(body)
    assert "First question about tables" in sent_text(body)
    branch = controller.chat
    assert branch.id != original and branch.is_branch and branch.family_id == original
    assert branch.branch_label.startswith("Edited: Second question")
    # The original chat is as it was.
    kept = controller.session.store.load_engine_state(original)
    assert [m.content for m in kept.messages][2] == "Second question: the ORIGINAL wording"
    assert len(kept.messages) == 4
    edited = controller.display_messages()[2]
    assert controller.alternatives()[edited.id].label == "2/2"
    assert controller.editing is None


def test_only_the_users_messages_can_be_edited(qloop, controller, server):
    errors: list[str] = []
    controller.error.connect(lambda kind, text: errors.append(text))
    run(qloop, turn(controller, "Hello"))
    reply = controller.display_messages()[-1]
    assert controller.begin_edit(reply.id) is None
    assert errors and "your own messages" in errors[-1]
    assert controller.editing is None


def compacted(controller, server, turns: int = 8) -> None:
    async def scenario():
        for i in range(turns):
            await turn(controller, f"Question {i}: " + "detail " * 60)
        task = controller.compact()
        assert task is not None
        await asyncio.gather(task, return_exceptions=True)
        await settle(controller)

    return scenario()


def test_an_edit_inside_a_compacted_group_branches_from_before_the_compaction(
        qloop, controller, server):
    run(qloop, compacted(controller, server))
    groups = controller.snapshot.groups
    assert groups, "the chat did not compact"
    inside = next(m for m in controller.display_messages()
                  if m.role == "user" and m.id in groups[-1].span_ids[1:])
    assert controller.begin_edit(inside.id) is not None
    run(qloop, turn(controller, "Question 1 reworded: EDITED"))
    body = chat_turns(server)[-1]
    text = sent_text(body)
    assert "EDITED" in text and inside.content not in text
    # The branch holds the history before the edited message verbatim: no checkpoint that
    # summarised the later messages came along.
    branch_groups = controller.snapshot.groups
    assert all(g.summary != groups[-1].summary for g in branch_groups)
    assert controller.display_messages()[-2].content == "Question 1 reworded: EDITED"


def test_a_fork_carries_the_checkpoints_and_pins_up_to_its_message(qloop, controller, server):
    run(qloop, compacted(controller, server))
    groups = controller.snapshot.groups
    assert groups
    messages = controller.display_messages()
    pinned = next(m for m in reversed(messages) if m.role == "user")
    controller.toggle_pin(pinned.id)
    parent = controller.chat
    controller.session.store.set_chat_mark(parent.id, WARNED_MARK)  # the user saw it here
    fork = controller.fork_chat(messages[-1].id)
    assert fork is not None and controller.chat.id == fork.id != parent.id
    assert fork.branch_kind == "fork" and fork.parent_id == parent.id and fork.root_id is None
    assert fork.title == f"{parent.title} (fork)"
    # The compression warning was for this conversation: the fork does not show it again.
    assert controller.session.store.has_chat_mark(fork.id, WARNED_MARK)
    run(qloop, turn(controller, "Carry on from here in the fork"))
    text = sent_text(chat_turns(server)[-1])
    assert groups[-1].summary.split("\n")[1] in text  # the parent's checkpoint
    assert pinned.content in text  # the pinned message, verbatim
    assert [g.summary for g in controller.snapshot.groups] == [g.summary for g in groups]
    # The parent chat is untouched.
    parent_state = controller.session.store.load_engine_state(parent.id)
    assert len(parent_state.messages) == len(messages)


def test_an_edit_branch_does_not_inherit_a_decision_made_after_its_point(
        qloop, controller, server):
    replies = iter(["Noted.\n[DECISION] Use PostgreSQL for storage (LOCKED)",
                    "Fine, Redis it is.", "ok"])
    server.reply_fn = lambda body: next(replies, "ok")

    async def scenario():
        await turn(controller, "Which database should we use?")
        assert [d.description for d in controller.snapshot.goal.decisions] == [
            "Use PostgreSQL for storage"]
        assert controller.begin_edit(controller.display_messages()[0].id) is not None
        await turn(controller, "Which cache should we use?")

    run(qloop, scenario())
    assert controller.chat.is_branch
    assert controller.snapshot.goal.decisions == []
    assert "PostgreSQL" not in sent_text(chat_turns(server)[-1])


def test_an_edited_message_keeps_its_images_and_the_drafts_wait(qloop, controller, server):
    from PySide6.QtGui import QColor, QImage

    def image(colour: str) -> QImage:
        picture = QImage(32, 32, QImage.Format.Format_RGB32)
        picture.fill(QColor(colour))
        return picture

    async def scenario():
        controller.attach_image(image("red"), "chart.png")
        await turn(controller, "What does this chart show?")
        original = chat_turns(server)[-1]["messages"][-1]["images"]
        controller.attach_image(image("blue"), "draft.png")  # for a message being written
        user = controller.display_messages()[0]
        assert controller.begin_edit(user.id) is not None
        assert [i.name for i in controller.pending_images()] == ["chart.png"]
        await turn(controller, "What does this chart show, in one word?")
        return original

    original = run(qloop, scenario())
    sent = chat_turns(server)[-1]["messages"][-1]
    assert sent["content"] == "What does this chart show, in one word?"
    assert sent["images"] == original  # the edit went with the message's picture
    assert [i.name for i in controller.pending_images()] == ["draft.png"]  # back after it


def test_an_edit_whose_message_was_deleted_ends_and_gives_the_text_back(
        qloop, controller, server):
    failed: list[tuple[str, str]] = []
    controller.sendFailed.connect(lambda text, reason: failed.append((text, reason)))
    run(qloop, turn(controller, "First"))
    run(qloop, turn(controller, "Second"))
    target = controller.display_messages()[2]
    assert controller.begin_edit(target.id) is not None
    controller.delete_message(target.id)
    assert controller.send("Second, reworded") is None
    assert failed and failed[-1][0] == "Second, reworded"
    assert "no longer in this chat" in failed[-1][1]
    assert controller.editing is None
    assert len(controller.list_chats()) == 1  # no branch was made
    task = controller.send("Second, reworded")  # now an ordinary message
    assert task is not None
    run(qloop, asyncio.gather(task))
    run(qloop, settle(controller))
    assert controller.display_messages()[-2].content == "Second, reworded"


def test_a_refused_edit_makes_no_branch_and_keeps_editing(qloop, controller, server):
    run(qloop, turn(controller, "Short question"))
    target = controller.display_messages()[0]
    assert controller.begin_edit(target.id) is not None
    assert controller.send("word " * 20000) is None  # far over the context
    assert controller.editing == target.id and len(controller.list_chats()) == 1


def test_a_message_copied_into_versions_is_one_search_hit(qloop, controller, server):
    async def scenario():
        await turn(controller, "Tell me about zanzibar")
        for _ in range(3):
            await regenerate(controller)

    run(qloop, scenario())
    assert len(controller.list_chats()) == 4  # the chat and three earlier replies
    hits = controller.search("zanzibar")
    assert [(h.chat_id, h.role) for h in hits] == [(controller.chat.id, "user")]


def test_a_message_deleted_in_one_version_makes_no_false_version(qloop, controller, server):
    async def scenario():
        for text in ("First question", "Second question", "Third question ORIGINAL"):
            await turn(controller, text)
        root = controller.chat.id
        third = controller.display_messages()[4]
        assert controller.begin_edit(third.id) is not None
        await turn(controller, "Third question EDITED")
        controller.open_chat(root)
        return root

    root = run(qloop, scenario())
    reply = controller.display_messages()[1]
    controller.delete_message(reply.id)  # only in the original chat
    found = controller.alternatives()
    third = controller.display_messages()[3]
    assert third.content == "Third question ORIGINAL"
    assert set(found) == {third.id} and found[third.id].label == "1/2"
    shown = controller.switch_alternative(third.id, +1)
    assert controller.chat.id != root
    assert controller.message(shown).content == "Third question EDITED"
