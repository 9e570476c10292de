"""An investigator is devoured when sanity or stamina "go below 0" (elder-sign-rules.txt:407); the value shown stays
0, so the words say it fell below 0, from what it was, and the announcement's title and text do not say "devoured"
twice."""

from __future__ import annotations

from test_elder_sign_task_choice import at_two_tasks

from companion.games.elder_sign.sentences import announcement, describe_events


def test_the_words_say_what_fell_below_0_and_the_toast_does_not_repeat_itself() -> None:
    game = at_two_tasks()
    game.push("roll faces=terror,peril,peril,peril,peril,peril")
    stamina = next(i["stamina"] for i in game.view()["investigators"] if i["active"])
    events = game.push("card-did effect=stamina n=-9")
    said = describe_events(events)
    inv = next(str(e["investigator"]) for e in events if e["type"] == "investigator_devoured")
    assert f"{inv}: sanity" in " ".join(said) and "stamina below 0." in " ".join(said), said
    assert "stamina 0" not in " ".join(said), said  # not a 0 played on
    assert f"{inv}'s stamina fell below 0 (had {stamina} and lost 9): {inv} is devoured." in said, said
    told = next(announcement(e) for e in events if e["type"] == "investigator_devoured")
    assert told is not None and told["title"] == "Devoured", told
    assert told["text"] == f"{inv}'s stamina fell below 0 (had {stamina} and lost 9).", told
    assert "devoured" not in told["text"].lower()
