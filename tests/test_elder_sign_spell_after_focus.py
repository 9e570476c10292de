"""After focus holds the failed roll's one die of its face, the legal actions are still worked out: the offer of a die
for a Spell card (elder-sign-rules.txt:345) set aside a green die that was neither the Spell's nor the held one, and
where every other green die showed the Spell's face it took the held one, then failed to take the held one again (a
crash on every state the page was sent). The die set aside is now one of its colour left after the held one (:211,
:213, :365 "a different die")."""

from __future__ import annotations

import pytest
from test_elder_sign_findings import stand_in_attempt

from companion.errors import IllegalCommand

MISSED = "green:lore,green:inv1,green:inv1,green:inv1,green:inv1,green:inv1"  # peril:3 not met


def test_a_spell_die_is_offered_after_the_only_lore_is_held() -> None:
    game = stand_in_attempt("peril:3")
    game.push(f"roll faces={MISSED}")
    game.push("focus die=lore")
    offered = sorted(a.args["die"] for a in game.legal_actions() if a.name == "spell")
    assert offered == ["inv1"], offered  # the lore is held: an investigation die may go on the Spell
    with pytest.raises(IllegalCommand, match="set aside or held"):
        game.push("spell die=lore")
    game.push("spell die=inv1")
    attempt = game.view()["attempt"]
    assert (attempt["hold"], attempt["spell"], attempt["aside"]) == ("lore", "inv1", "green")
    events = game.push("roll faces=green:inv1,green:inv1,green:inv1")  # six less one aside, one held, one spell
    assert [e["type"] for e in events].count("die_lost") == 1
