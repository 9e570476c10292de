"""Your box: the cards of the copy on the table, filled in on the phone and kept as pack files.

The bundled packs hold placeholders wherever the rulebook names no card (docs/packs.md). The host's page
fills them in one entry at a time; each edit is made here on the text of the pack file it belongs to (with
tomlkit, so the file's comments stay), checked by the game's own packs loader exactly as a file edited by hand
would be, and only then written into the box folder (the data folder's ``packs``, or ``game.packs_dir``) as the
same files ``companion packs export`` writes. A whole box is exported as one file and imported the same way, so
owners can share a filled-in box::

    box = Box(folder)
    change = box.edit(packs, BoxEdit("ghost", "shadow", {"name": "Shadow Ghost", "difficulty": 3}))
    new_packs = box.check(change)      # PackError names file, entry and field
    box.save(change)                   # atomic, one file per pack file changed

Each game with packs to fill in says which files, parts and fields are its own through its module
(``GameModule.box_packs()``, a :class:`companion.pack_edits.BoxPacks`); the box names no game. The default game's
packs (:attr:`Box.rules`) are the service's own: a damaged file of them is left out alone; the other games' files
sit beside them, and a damaged one leaves that game's bundled packs in play.

Nothing here knows about a game in play: the service checks that the game still replays with the
new packs before it saves (a table operation is one service call).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import tomlkit

from companion import paths
from companion.errors import BadCommand, PackError
from companion.games.base import DEFAULT_RULES, RULES, GameModule, module_for
from companion.pack_edits import BoxPacks, clean_fields, parse_doc
from companion.pack_files import owner_text
from companion.toml_text import MAX_BYTES, check_toml

__all__ = ["Box", "BoxEdit", "BoxChange", "EXPORT_KIND", "OTHER_FILES", "box_view", "sections"]

EXPORT_KIND = "skeptics companion box"  # the box file's kind since its first version (kept: old files import)
EXPORT_VERSION = 1
MAX_FILE = MAX_BYTES  # one pack file; the bundled ones are under 10 KB
# A change to the box with nowhere to keep it: the host's words (the setting in words, docs/packs.md says how).
NO_BOX_FOLDER = (
    "this companion has no folder to keep your box in: name one as the game's packs folder in the configuration "
    "file (docs/packs.md), then restart the companion."
)


def _games() -> Iterator[BoxPacks]:
    """Every game's part of the box: the default game's first, then the others by their rules."""
    own = module_for(DEFAULT_RULES).box_packs()
    if own is not None:
        yield own
    for rules in sorted(set(RULES) - {DEFAULT_RULES}):
        found = module_for(rules).box_packs()
        if found is not None:
            yield found


def _game(rules: str) -> BoxPacks:
    found = module_for(rules).box_packs()
    if found is None:
        raise PackError(f"{module_for(rules).title} keeps no pack files in the box.")
    return found


def sections() -> tuple[str, ...]:
    """The parts of the box the page fills in ("ghost", "event", "es_adventure" ...), every game's."""
    return tuple(section for game in _games() for section in game.sections)


@functools.cache
def _other_files() -> dict[str, str]:
    return {rel: game.rules for game in _games() if game.rules != DEFAULT_RULES for rel in game.files}


class _OtherFiles(Mapping[str, str]):
    """The pack files of the other games the box keeps beside the default game's (file -> the game's rules),
    from the games' modules when first asked (so that importing the box loads no game)."""

    def __getitem__(self, rel: str) -> str:
        return _other_files()[rel]

    def __iter__(self) -> Iterator[str]:
        return iter(_other_files())

    def __len__(self) -> int:
        return len(_other_files())


OTHER_FILES: Mapping[str, str] = _OtherFiles()


@dataclass(frozen=True)
class BoxEdit:
    """One entry filled in: `section` (see :func:`sections`), its `key` and the fields the page sent.

    Keys: a ghost's or an environment card's or an evidence symbol's id; a clue card's number; a board
    space "BOARD:N" (0 is the Entrance); a connection or a secret passage "BOARD:A-B". ``fields`` may hold
    ``placeholder: true`` to mark the entry as not filled in again; any other edit marks it filled in.
    """

    section: str
    key: str
    fields: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class BoxChange:
    """The new texts of the pack files an edit or an import changes (relative path -> text)."""

    files: Mapping[str, str]
    what: str  # "the Shadow Ghost", "door 7-8 of the Asylum": for the sentence the page shows


class Box:
    """The box folder: where the owner's pack files are kept. ``folder=None``: the bundled packs, read only."""

    rules = DEFAULT_RULES  # the game whose packs the box holds (the service's own packs); OTHER_FILES are other games'

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = Path(folder) if folder is not None else None
        # the box's files that cannot be used (relative path or a game's rules -> what the host reads):
        # the bundled file plays instead until the owner mends it (docs/packs.md, "A damaged file")
        self.problems: dict[str, str] = {}

    def _own(self) -> BoxPacks:
        return _game(self.rules)

    def _box_folder(self) -> Path | None:
        return self.folder if self.folder is not None and self.folder.is_dir() else None

    def open_packs(self) -> object:
        """The default game's packs with every box file that can be read and checked; a damaged one is left out.

        Each file that cannot be used (unreadable, not TOML, over the limits, refused by the checks) is named
        in :attr:`problems` with how to mend it, and the bundled file plays in its place: a damaged box never
        stops the companion. Raises PackError only if the bundled packs themselves fail.
        """
        self.problems = {k: v for k, v in self.problems.items() if not k.endswith(".toml")}  # other games' stay
        for rules in sorted(set(OTHER_FILES.values())):  # said at start too, though that game loads when first played
            try:
                self.other_packs(rules)
            except PackError as exc:
                files = ", ".join(rel for rel, of in OTHER_FILES.items() if of == rules)
                self.problems[rules] = damaged(f"files for {rules} ({files})", exc)
        try:
            return self.check(BoxChange({}, "the box"))
        except PackError:
            pass
        own = self._own()
        if self.folder is not None and not self.folder.is_dir():
            return own.parse({}, self.folder)
        good: dict[str, str] = {}
        for rel, path in own.owner_files(self.folder).items() if self.folder is not None else ():
            try:
                candidate = {**good, rel: owner_text(path)[1]}
                own.parse(candidate, self.folder)
            except PackError as exc:
                self.problems[rel] = damaged(rel, exc)
                continue
            good = candidate
        return own.parse(good, self.folder)

    def label(self, rel: str) -> str:
        """How messages name one of the box's files: "packs/ghosts.toml" (no machine path, the phone shows it)."""
        return f"{self.folder.name}/{rel}" if self.folder is not None else rel

    @property
    def is_writable(self) -> bool:
        return self.folder is not None

    def texts(self) -> dict[str, str]:
        """Every pack file's text as in use now (the box folder's where there is one), the other games' too."""
        return {**self._own().texts(self.folder), **self.other_texts()}

    def other_texts(self) -> dict[str, str]:
        """The other games' pack files the box keeps (OTHER_FILES): the box folder's, else the bundled one."""
        out: dict[str, str] = {}
        for game in _games():
            if game.rules != self.rules:
                out.update(game.texts(self._box_folder()))
        return out

    def other_packs(self, rules: str, change: BoxChange | None = None) -> object:
        """Another game's packs as they are (or would be with `change`), validated like files edited by hand."""
        texts = self.other_texts()
        if change is not None:
            texts.update({rel: text for rel, text in change.files.items() if rel in OTHER_FILES})
        mine = {rel: text for rel, text in texts.items() if OTHER_FILES.get(rel) == rules}
        return _game(rules).parse(mine, self.folder)

    # -- edits -------------------------------------------------------------------------------

    def edit(self, packs: object, edit: BoxEdit) -> BoxChange:
        """The file text that `edit` makes (not yet checked nor saved); `packs` are the default game's as in play.
        BadCommand for a malformed edit."""
        game = next((g for g in _games() if edit.section in g.sections), None)
        if game is None:
            raise BadCommand(f"box: unknown part {edit.section!r}; the parts are {', '.join(sections())}.")
        values = clean_fields(
            edit.section, game.sections[edit.section], edit.fields, game.effect_keys, game.effect_texts
        )
        texts = self.texts()
        own = packs if game.rules == self.rules else None
        rel = game.file_of(own, edit.section, edit.key)
        doc = parse_doc(rel, texts[rel])
        what = game.edit(doc, own, edit.section, edit.key, values)
        return BoxChange({rel: tomlkit.dumps(doc)}, what)

    def check(self, change: BoxChange) -> object:
        """The default game's packs as they would be with `change`, validated like files edited by hand
        (PackError); the other games' files in `change` are checked too."""
        for rules in sorted({OTHER_FILES[rel] for rel in change.files if rel in OTHER_FILES}):
            self.other_packs(rules, change)  # PackError names the file, the entry and the field
        own = self._own()
        texts: dict[str, str] = {}
        if self.folder is not None and self.folder.is_dir():
            for rel, path in own.owner_files(self.folder).items():
                if rel not in self.problems and rel not in change.files:  # a damaged file stays out until mended
                    texts[rel] = owner_text(path)[1]
        texts.update({rel: text for rel, text in change.files.items() if rel not in OTHER_FILES})
        return own.parse(texts, self.folder)

    def save(self, change: BoxChange) -> None:
        """Write the changed files into the box folder, each atomically (a power cut keeps the old or the new)."""
        if self.folder is None:
            raise PackError(NO_BOX_FOLDER)
        for rel, text in change.files.items():
            paths.write_atomic(self.folder / rel, text)
            self.problems.pop(rel, None)
            self.problems.pop(OTHER_FILES.get(rel, ""), None)

    def game_packs(self, module: GameModule) -> object:
        """Another game's packs with the box's files for it; a damaged one: the bundled packs, and a problem."""
        try:
            return module.load_packs(self._box_folder())
        except PackError as exc:
            self.problems[module.rules] = damaged(f"files for {module.rules}", exc)
            return module.load_packs(None)

    # -- one file for the whole box ----------------------------------------------------------

    def export(self) -> dict[str, object]:
        """The whole box as one JSON-able value: every pack file in use, by its path."""
        return {"kind": EXPORT_KIND, "version": EXPORT_VERSION, "files": self.texts()}

    def parse_import(self, data: object) -> BoxChange:
        """A box file (as :meth:`export` writes it) as a change; BadCommand says what is wrong with the file."""
        if isinstance(data, (bytes, str)):
            try:
                data = json.loads(data)
            except ValueError:
                raise BadCommand(
                    "box: that file is not a box file (it is not JSON); choose the file that "
                    '"Save my box to a file" made.'
                ) from None
        if not isinstance(data, dict) or data.get("kind") != EXPORT_KIND:
            raise BadCommand('box: that file is not a box file; choose the file that "Save my box to a file" made.')
        if data.get("version") != EXPORT_VERSION:
            raise BadCommand(
                f"box: that box file is version {data.get('version')!r}; this companion reads "
                f"version {EXPORT_VERSION}. Update the companion that made it, or this one."
            )
        files = data.get("files")
        if not isinstance(files, dict) or not files:
            raise BadCommand("box: that box file holds no pack files.")
        games = list(_games())
        out: dict[str, str] = {}
        for rel, text in files.items():
            if not isinstance(rel, str) or not any(game.holds(rel) for game in games):
                raise BadCommand(f"box: that box file holds {str(rel)[:60]!r}, which is not a pack file.")
            if not isinstance(text, str) or len(text) > MAX_FILE:
                raise BadCommand(f"box: {rel} in that box file is not a pack file's text (or is too long).")
            check_toml(f"{rel} in that box file", text)  # bounded before any parser reads it
            out[rel] = text
        return BoxChange(out, "the box from the file")


def damaged(what: str, exc: Exception) -> str:
    """The host's sentence for a box file that cannot be used (`what`: its path, or a game's rules)."""
    return (
        f"your box's {what} cannot be used, so the bundled cards play instead. {exc} Or bring back a box file "
        'you saved (Your box, "Bring back a box"), or delete the file.'
    )


def box_view(packs: object, box: Box) -> dict[str, object]:
    """What the "Your box" page shows: every game's entries with what is filled in, and what is still to do."""
    view: dict[str, object] = {}
    for game in _games():
        if game.rules == box.rules:
            view.update(game.view(packs))
            continue
        try:
            view.update(game.view(box.other_packs(game.rules)))
        except PackError:  # a broken file of another game must not hide the rest of the box
            view.update(game.view(None))
    view["writable"] = box.is_writable
    # where it is, for the host, by its last two parts ("skeptics/packs"): phones are not told the machine's paths
    view["folder"] = "/".join(box.folder.parts[-2:]) if box.folder is not None else None
    return view
