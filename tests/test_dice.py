"""The dice, the pip map, icon sets and the number of dice an action rolls (issue 3)."""

from __future__ import annotations

import pytest

from companion.errors import CompanionError, DiceError
from companion.games.skeptics.dice import ACTIONS, DieKind, Face, PipMap, Requirement, dice_for, parse_faces

# -- the dice ---------------------------------------------------------------------------------


def test_clue_die_has_three_eyes_two_cameras_one_cobweb() -> None:
    """ "Action 3: Search", note: half Eyes, two Cameras, one Cobweb."""
    assert dict(DieKind.CLUE.sides) == {Face.EYE: 3, Face.CAMERA: 2, Face.COBWEB: 1}
    assert Face.BLANK not in DieKind.CLUE.faces


def test_key_die_is_half_keys_half_blank() -> None:
    """ "Action 2: Unlock", note: half of its sides Key icons, the other half blank."""
    assert dict(DieKind.KEY.sides) == {Face.KEY: 3, Face.BLANK: 3}


def test_summon_die_has_one_summon_side() -> None:
    """ "Action 7: Pull Ghost", note: each Summon Die only has a 1 in 6 chance of success."""
    assert dict(DieKind.SUMMON.sides) == {Face.SUMMON: 1, Face.BLANK: 5}


@pytest.mark.parametrize("kind", list(DieKind))
def test_every_die_has_six_sides(kind: DieKind) -> None:
    assert sum(kind.sides.values()) == 6
    assert sum(kind.chance(face) for face in kind.faces) == 1


def test_box_holds_five_clue_four_key_seven_summon_dice() -> None:
    """ "Game Components": Dice: 5 Clue Dice, 4 Key Dice, 7 Summon Dice."""
    assert [k.box_count for k in (DieKind.CLUE, DieKind.KEY, DieKind.SUMMON)] == [5, 4, 7]
    assert DieKind.CLUE.max_dice == 5


def test_die_kind_of_face() -> None:
    assert DieKind.of(Face.CAMERA) is DieKind.CLUE
    assert DieKind.of(Face.KEY) is DieKind.KEY
    assert DieKind.of(Face.SUMMON) is DieKind.SUMMON
    with pytest.raises(DiceError, match="blank"):
        DieKind.of(Face.BLANK)


def test_parse_faces_accepts_text_lists_and_plurals() -> None:
    assert parse_faces("eye, Camera,cobweb") == (Face.EYE, Face.CAMERA, Face.COBWEB)
    assert parse_faces(["keys", Face.BLANK]) == (Face.KEY, Face.BLANK)


def test_parse_faces_refuses_unknown_faces_and_faces_of_another_die() -> None:
    with pytest.raises(DiceError, match="unknown die face 'skull'.*eye, camera, cobweb, key, summon, blank"):
        parse_faces("eye,skull")
    with pytest.raises(DiceError, match="clue die has no blank face; its faces are: eye, camera, cobweb"):
        parse_faces("eye,blank", DieKind.CLUE)
    with pytest.raises(DiceError, match="key die has no eye"):
        parse_faces(["eye"], DieKind.KEY)


def test_dice_error_is_a_companion_error() -> None:
    assert issubclass(DiceError, CompanionError)


# -- the pip map ------------------------------------------------------------------------------


def test_default_pip_map() -> None:
    """The issue's default: clue 1-3 eye, 4-5 camera, 6 cobweb; key 4-6 key; summon 6 summon."""
    pips = PipMap.default()
    assert pips.faces(DieKind.CLUE, range(1, 7)) == (Face.EYE,) * 3 + (Face.CAMERA,) * 2 + (Face.COBWEB,)
    assert pips.faces(DieKind.KEY, range(1, 7)) == (Face.BLANK,) * 3 + (Face.KEY,) * 3
    assert pips.faces(DieKind.SUMMON, range(1, 7)) == (Face.BLANK,) * 5 + (Face.SUMMON,)
    assert pips.face(DieKind.CLUE, 4) is Face.CAMERA
    assert pips.pips(DieKind.CLUE, Face.CAMERA) == (4, 5)


@pytest.mark.parametrize("kind", list(DieKind))
def test_default_pip_map_keeps_the_real_face_counts(kind: DieKind) -> None:
    faces = PipMap.default().faces(kind, range(1, 7))
    assert {face: faces.count(face) for face in set(faces)} == dict(kind.sides)


def test_pip_map_from_dict_changes_one_kind_and_keeps_the_others() -> None:
    custom = PipMap.from_dict({"clue": {"cobweb": [1], "camera": [2, 3], "eye": [4, 5, 6]}})
    assert custom.faces(DieKind.CLUE, range(1, 7)) == (
        Face.COBWEB,
        Face.CAMERA,
        Face.CAMERA,
        Face.EYE,
        Face.EYE,
        Face.EYE,
    )
    assert custom.tables[DieKind.KEY] == PipMap.default().tables[DieKind.KEY]
    assert custom != PipMap.default()


def test_pip_map_left_over_pips_go_to_the_one_face_not_named() -> None:
    """Key: naming the key pips is enough; the rest are blank."""
    custom = PipMap.from_dict({"key": {"key": [2, 4, 6]}, "summon": {"summon": [1]}})
    assert custom.pips(DieKind.KEY, Face.BLANK) == (1, 3, 5)
    assert custom.face(DieKind.SUMMON, 1) is Face.SUMMON
    assert custom.face(DieKind.SUMMON, 6) is Face.BLANK


def test_pip_map_round_trips_through_a_dict() -> None:
    custom = PipMap.from_dict({"clue": {"eye": [2, 4, 6], "camera": [1, 3], "cobweb": [5]}})
    assert PipMap.from_dict(custom.to_dict()) == custom
    assert hash(PipMap.from_dict(custom.to_dict())) == hash(custom)
    assert PipMap.from_dict({}) == PipMap.default()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"clue": {"eye": [1, 2, 3, 4], "camera": [5], "cobweb": [6]}}, "gives eye 4 pip.*real die has 3"),
        ({"clue": {"eye": [1, 2, 3], "camera": [3, 4], "cobweb": [6]}}, "pip 3 of the clue die is mapped twice"),
        ({"clue": {"eye": [1, 2, 3], "camera": [4]}}, "gives camera 1 pip.*real die has 2"),
        ({"clue": {"eye": [1, 2, 3]}}, "pips 4, 5, 6 of the clue die are not mapped"),
        ({"clue": {"eye": [1, 2, 7], "camera": [4, 5], "cobweb": [6]}}, "pip 7 .* not a number from 1 to 6"),
        ({"clue": {"key": [1, 2, 3]}}, "clue die has no key face"),
        ({"dice": {"eye": [1]}}, "unknown kind of die 'dice'; use one of: clue, key, summon"),
        ({"key": {"key": 4}}, "must be a list"),
        ({"summon": {"summon": [5, 6]}}, "gives summon 2 pip.*real die has 1"),
    ],
)
def test_pip_map_refuses_mappings_that_would_make_the_odds_wrong(data: dict, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        PipMap.from_dict(data)


def test_pip_face_refuses_pips_outside_one_to_six() -> None:
    with pytest.raises(DiceError, match="1 to 6 pips, not 0"):
        PipMap.default().face(DieKind.CLUE, 0)


# -- icon sets ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("eye:2,camera:1", "eye:2,camera:1"),
        ("camera:1, eye:2", "eye:2,camera:1"),
        ("key:3", "key:3"),
        ("cobweb:1,timer", "cobweb:1,timer"),
        ("eye:1,camera:1,disruption", "eye:1,camera:1,disruption"),
        ("disruption,timer,eye", "eye:1,timer,disruption"),
        ("2 eyes and a camera", "eye:2,camera:1"),
        ("an eye, a camera and a cobweb", "eye:1,camera:1,cobweb:1"),
        ("three keys", "key:3"),
        ("eye x2", "eye:2"),
        ("Eyes:2 + Cameras:2 with a timer", "eye:2,camera:2,timer"),
        ("summon", "summon:1"),
        ("eye:2 camera:1 timer", "eye:2,camera:1,timer"),
    ],
)
def test_requirement_parse_and_canonical_text(text: str, canonical: str) -> None:
    req = Requirement.parse(text)
    assert str(req) == canonical
    assert Requirement.parse(str(req)) == req


def test_requirement_reading() -> None:
    req = Requirement.parse("eye:2,camera:1,timer")
    assert req.kind is DieKind.CLUE
    assert req.size == 3
    assert req.timer and not req.disruption
    assert req.counts == {Face.EYE: 2, Face.CAMERA: 1}
    assert req.vector() == (2, 1, 0)
    assert req.missing([Face.EYE, Face.COBWEB]) == {Face.EYE: 1, Face.CAMERA: 1}
    assert req.satisfied_by(["camera", "eye", "eye", "cobweb"])
    assert not req.satisfied_by(["camera", "eye", "cobweb"])
    assert str(req.without([Face.EYE])) == "eye:1,camera:1,timer"
    assert req.without([Face.EYE, Face.EYE, Face.CAMERA]) is None
    assert Requirement.parse("key:2").kind is DieKind.KEY
    assert Requirement.parse("summon").kind is DieKind.SUMMON


def test_requirement_describe_reads_back() -> None:
    req = Requirement.parse("eye:2,camera:1,cobweb:1,timer,disruption")
    assert req.describe() == "2 eyes, a camera and a cobweb, with a timer and disruption"
    assert Requirement.parse(req.describe()) == req
    assert Requirement.parse("eye:1").describe() == "an eye"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("skull:1", "unknown icon 'skull'.*eye, camera, cobweb, key, summon.*timer and disruption"),
        ("eye:0", "must be at least 1"),
        ("eye:2,eye:1", "eye is given twice"),
        ("eye:3,camera:3", "needs 6 clue dice but a roll may use at most 5"),
        ("key:6", "needs 6 key dice but a roll may use at most 5"),
        ("eye:1,key:1", "one kind of die"),
        ("timer", "at least one icon"),
        ("", "icon set is text"),
        ("blank:2", "blank is not an icon"),
        ("eye:two", "cannot read"),
        ("2 timers,eye", "red icon 'timers' takes no count"),
        ("summon:2", "summon:1"),
        ("summon,timer", "no timer or disruption"),
    ],
)
def test_requirement_refuses_bad_icon_sets_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        Requirement.parse(text)


def test_requirement_of_a_mapping() -> None:
    assert Requirement.of({"camera": 1, Face.EYE: 2}, timer=True) == Requirement.parse("eye:2,camera:1,timer")


# -- how many dice ------------------------------------------------------------------------------


def test_three_base_dice() -> None:
    """ "Action 2: Unlock", "Action 3: Search": three dice to begin with."""
    assert dice_for("search") == 3
    assert dice_for("unlock") == 3


def test_magnifying_glass_adds_a_die_to_search_solve_and_prove_only() -> None:
    """ "Magnifying Glass": +1 Clue Die on Search, Solve or Prove; not on Pull, Summon, Unlock."""
    for action in ("search", "solve", "prove"):
        assert dice_for(action, glass=True) == 4
    for action in ("unlock", "summon", "pull", "fire", "barrier"):
        with pytest.raises(DiceError, match="only to search, solve, prove"):
            dice_for(action, base=2, glass=True)


def test_aid_adds_a_die_on_a_prove_only() -> None:
    """ "Aiding Players": one additional Clue Die for Prove Actions only."""
    assert dice_for("prove", aid=True) == 4
    with pytest.raises(DiceError, match="only to a prove"):
        dice_for("search", aid=True)


def test_never_more_than_five_clue_dice() -> None:
    """ "Action 3: Search": Players may not exceed five Clue Dice."""
    assert dice_for("prove", glass=True, aid=True, items=1) == 5
    assert dice_for("prove", glass=True, aid=True, items=3) == 5


def test_watching_eyes_reduces_first_then_the_bonuses_fill_up_to_five() -> None:
    """FAQ: EVP Recorder, Magnifying Glass and aid give six dice; Watching Eyes takes one;
    the card is played out first and the bonuses after, so the player still rolls five."""
    assert dice_for("prove", glass=True, aid=True, items=1, minus=1) == 5
    assert dice_for("search", minus=1) == 2


def test_items_cannot_be_used_on_environment_cards() -> None:
    """ "Fire Card" and "Barrier": rolled without the use of Items."""
    with pytest.raises(DiceError, match="environment cards"):
        dice_for("fire", items=1)
    assert dice_for("barrier") == 3


def test_summon_and_pull_roll_the_summon_dice_held() -> None:
    """ "Action 8: Summon": roll one Summon Die per solved Clue."""
    assert dice_for("summon", base=4) == 4
    assert dice_for("pull", base=1) == 1
    with pytest.raises(DiceError, match="at least one summon die"):
        dice_for("summon", base=0)
    with pytest.raises(DiceError, match="items do not add summon dice"):
        dice_for("pull", base=2, items=1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"action": "dance"}, "unknown action 'dance'; dice are rolled for: " + ", ".join(ACTIONS)),
        ({"action": "search", "items": -1}, "items must be a whole number"),
        ({"action": "search", "base": 0}, "at least one die"),
        ({"action": "summon", "base": 8}, "at most 7 summon dice"),
    ],
)
def test_dice_for_refuses_bad_input(kwargs: dict, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        dice_for(**kwargs)


def test_every_icon_set_of_the_bundled_ghosts_is_read() -> None:
    """ "Ghost Card", Icon Sets to Resolve: the engine starts prove attempts from these texts."""
    from companion.games.skeptics.packs import load_packs

    texts = [text for ghost in load_packs().ghosts.values() for text in ghost.icon_sets]
    assert texts
    for text in texts:
        req = Requirement.parse(text)
        assert req.kind is DieKind.CLUE
        assert Requirement.parse(str(req)) == req
