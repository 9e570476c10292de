"""Issue 25: box files and pack files read in bounded time and memory (companion.toml_text).

The texts that cost tomllib N^2 (a dotted key of many parts) or a RecursionError (brackets hundreds deep)
are refused by a one-pass scan naming the file and the line; on the real server a box file of that kind is
a 400 and a host command meanwhile is answered (the seconds are measured in benchmarks/bench_abuse.py).
"""

from __future__ import annotations

import threading
import tomllib

import pytest

from companion.box import Box
from companion.errors import ConfigError, PackError
from companion.toml_text import MAX_DEPTH, MAX_KEY_PARTS, MAX_KEYS, check_toml, read_toml
from tests.web_fixtures import Table


def dotted(parts: int) -> str:
    return "title = 'x'\n" + ".".join(["a"] * parts) + " = 1\n"


def nested(depth: int) -> str:
    return "ghosts = 1\nx = " + "[" * depth + "]" * depth + "\n"


def test_a_key_of_many_parts_is_refused_with_its_line() -> None:
    with pytest.raises(PackError, match=r"^ghosts.toml: line 2: a key of more than 16 parts"):
        read_toml("ghosts.toml", dotted(16_000))


def test_deep_brackets_are_refused_with_their_line_and_inline_tables_too() -> None:
    with pytest.raises(PackError, match=r"^ghosts.toml: line 2: lists or tables nested more than 16 deep"):
        read_toml("ghosts.toml", nested(500))
    with pytest.raises(PackError, match="nested more than"):
        read_toml("x.toml", "x = " + "{a = " * 500 + "1" + "}" * 500)


def test_too_many_keys_and_too_large_a_file_are_refused() -> None:
    text = "".join(f"k{i} = {i}\n" for i in range(MAX_KEYS + 1))
    with pytest.raises(PackError, match=rf"line {MAX_KEYS + 1}: more than {MAX_KEYS} keys"):
        check_toml("items.toml", text)
    with pytest.raises(ConfigError, match="at most 256 KB"):
        check_toml("companion.toml", "# " + "x" * 300_000, error=ConfigError)


def test_at_the_limits_the_text_reads_as_tomllib_reads_it() -> None:
    text = ".".join(["a"] * MAX_KEY_PARTS) + " = 1\n" + "x = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    assert read_toml("ok.toml", text) == tomllib.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        # what is inside strings and comments is not a key, a dot or a bracket
        'a = "' + "." * 200 + '[[[[[[[[[[[[[[[[[[[[ = = ="\n',
        "a = '" + "." * 200 + "'\n",
        'a = """\n' + "x.y." * 100 + '\n[[[[[[[[[[[[[[[[[[ ""\\""" still text """\n',
        "a = '''\n" + "{" * 100 + "\n'''\n",
        "# " + "[" * 100 + "." * 100 + "\nb = 1\n",
        'a = """ends with two quotes"""""\n'
        + "b = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5]\n",
        '"q.u.o.t.e.d" = 1\n"\\"" = 2\n',
    ],
)
def test_strings_comments_and_floats_do_not_count(text: str) -> None:
    assert read_toml("ok.toml", text) == tomllib.loads(text)


def test_a_line_after_a_multi_line_string_is_named_rightly() -> None:
    text = 'a = """\none\ntwo\n"""\n' + ".".join(["b"] * 40) + " = 1\n"
    with pytest.raises(PackError, match="line 5:"):
        read_toml("ghosts.toml", text)


def test_a_box_file_with_a_costly_key_is_refused_before_any_parser(tmp_path: object) -> None:
    box = Box(None)
    data = {"kind": "skeptics companion box", "version": 1, "files": {"ghosts.toml": dotted(16_000)}}
    with pytest.raises(PackError, match=r"ghosts.toml in that box file: line 2: a key of more than"):
        box.parse_import(data)


def test_on_the_server_a_costly_box_file_is_a_400_and_the_host_plays_meanwhile(table: Table) -> None:
    table.service.box = Box(table.data_dir / "packs")
    host = table.host()
    replies: dict[str, int] = {}

    def send(name: str, text: str) -> None:
        data = {"kind": "skeptics companion box", "version": 1, "files": {"ghosts.toml": text}}
        replies[name] = host.request("PUT", "/api/box/file", body=data).status

    senders = [
        threading.Thread(target=send, args=("keys", dotted(16_000))),
        threading.Thread(target=send, args=("deep", nested(500))),
    ]
    for sender in senders:
        sender.start()
    assert host.post("/api/command", {"command": "end-round"}).status == 200
    for sender in senders:
        sender.join(30)
    assert replies == {"keys": 400, "deep": 400}
    reply = host.request(
        "PUT",
        "/api/box/file",
        body={"kind": "skeptics companion box", "version": 1, "files": {"ghosts.toml": nested(500)}},
    )
    assert "line 2" in reply.json()["error"] and "Traceback" not in reply.body.decode()
    assert not (table.data_dir / "packs" / "ghosts.toml").exists()  # nothing was written
