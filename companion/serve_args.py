"""The command line of ``companion serve`` (companion.serve): its options and their help."""

from __future__ import annotations

import argparse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion serve",
        description=(
            "Run the table companion: the clock hand, the OLED, the dice tray and the phone page. "
            "Without a Raspberry Pi (or with --sim) the hardware is simulated."
        ),
    )
    parser.add_argument(
        "--sim",
        action="store_true",
        default=None,
        help="simulate the hardware: mock pins, dummy OLED, a drawn dice tray; serve on 127.0.0.1",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="a clean start: a new empty data folder for this run only (no host PIN, no games), in the system's "
        "temporary files; without it --sim finds the PIN and the games of its earlier runs again",
    )
    parser.add_argument(
        "--config",
        metavar="PATH",
        help="the configuration file (default: $COMPANION_CONFIG, "
        "~/.config/skeptics-companion/config.toml, /etc/skeptics-companion/config.toml)",
    )
    parser.add_argument("--host", metavar="H", help="address to listen on (default 0.0.0.0; 127.0.0.1 with --sim)")
    parser.add_argument("--port", metavar="P", help="port to listen on (default 8080; 0 picks a free one)")
    parser.add_argument(
        "--check", action="store_true", help="check the configuration, print where everything would go, and exit"
    )
    return parser
