"""`companion dice ...`: read dice from photos, set up the tray, watch a camera.

    companion dice read IMAGE [IMAGE ...] [--json] [--annotate DIR] [--tray] [--config PATH] [--taught PATH]
    companion dice calibrate --empty EMPTY.jpg --dice DICE.jpg [--region x,y,w,h] [--config PATH]
    companion dice teach IMAGE [IMAGE ...] [--labels DIR] [--save PATH] [--config PATH]
    companion dice teach --reset [--save PATH] [--config PATH]
    companion dice watch [--camera auto|pi|usb:N|/dev/videoN|sim|replay:PATH] [--sim] [--frames N]

`read --json` prints one JSON line per image:
{"image": PATH, "width": W, "height": H, "dice": [{"value": 1-6 or null, "box": [x, y, w, h],
"confidence": C, "color": NAME}], "found": N, "ms": MILLISECONDS} ("found": the dice found, sure or
unsure, to compare with the number rolled); an image that cannot be read gets
{"image": PATH, "error": "..."} and the exit status is 1, after the other images are read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, VisionError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion dice", description="Read dice from photos; set up the dice tray.")
    sub = parser.add_subparsers(dest="command", required=True)

    read = sub.add_parser("read", help="read the dice in photos")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--json", action="store_true", help="one JSON line per image")
    read.add_argument("--annotate", metavar="DIR", help="write each image with its readings drawn into DIR")
    read.add_argument(
        "--tray",
        action="store_true",
        help="use the tray region and colour references of the configuration (default: whole image)",
    )
    read.add_argument("--config", metavar="PATH", help="configuration file (implies --tray)")
    read.add_argument(
        "--unsure-below",
        type=float,
        default=None,
        metavar="P",
        help="report a die as unsure (null) below this confidence (default 0.5, the reader's)",
    )
    read.add_argument("--taught", metavar="PATH", help="read with the reader taught by companion dice teach")

    cal = sub.add_parser("calibrate", help="find the tray region and the dice colours; save them to the configuration")
    cal.add_argument("--empty", metavar="EMPTY.jpg", help="photo of the empty tray from the camera's place")
    cal.add_argument(
        "--dice", metavar="DICE.jpg", required=True, help="photo of the tray with a few dice of each colour"
    )
    cal.add_argument("--region", metavar="x,y,w,h", help="the tray region in pixels, instead of finding it")
    cal.add_argument("--config", metavar="PATH", help="configuration file to write (default: the one in use)")

    teach = sub.add_parser(
        "teach",
        help="teach the reader this table's dice from labelled photos",
        description="Adapt the reader to the table's own dice, camera and light from photos "
        "labelled in the datasets' YOLO format (one line per die: CLASS XC YC W H, CLASS 0-5 "
        "for 1-6 pips; label a symbol face with the value it stands for). The taught reader is "
        "saved to --save and recorded as [tray] taught in the configuration, so companion "
        "serve uses it; --reset goes back to the shipped reader.",
    )
    teach.add_argument("images", nargs="*", metavar="IMAGE")
    teach.add_argument(
        "--labels", metavar="DIR", help="folder of NAME.txt label files (default: beside each image, or ../labels/)"
    )
    teach.add_argument(
        "--save", metavar="PATH", help="where to save the taught reader (default: DATA_DIR/dice/taught.npz)"
    )
    teach.add_argument(
        "--reset",
        action="store_true",
        help="go back to the shipped reader: remove [tray] taught (and the file at --save)",
    )
    teach.add_argument("--config", metavar="PATH", help="configuration file to record the taught reader in")
    teach.add_argument(
        "--game",
        metavar="RULES",
        default=None,
        help="the game whose icon faces the labels may name instead of a class 0-5 (eye, key:blank, "
        "yellow:lore ...): skeptics (default) or elder-sign",
    )

    watch = sub.add_parser("watch", help="watch the camera and print each settled roll")
    watch.add_argument("--camera", default=None, help="auto, pi, usb, usb:N, /dev/videoN, sim, replay:PATH")
    watch.add_argument("--sim", action="store_true", help="replay the bundled sample photos (same as --camera sim)")
    watch.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: run until Ctrl-C)")
    watch.add_argument("--config", metavar="PATH", help="configuration file")
    return parser


def _tray_table(config: str | None) -> dict[str, Any]:
    from companion.config import find_config_file, read_toml

    path = find_config_file(config)
    if path is None:
        return {}
    table = read_toml(path).get("tray", {})
    return dict(table) if isinstance(table, dict) else {}


def _config_target(config: str | None) -> Path:
    from companion import paths
    from companion.config import find_config_file

    if config:
        return Path(config).expanduser()
    if os.environ.get("COMPANION_CONFIG"):
        return Path(os.environ["COMPANION_CONFIG"]).expanduser()
    return find_config_file(None) or paths.user_config_file()


def _load_image(path: str) -> Any:
    import cv2

    if not Path(path).is_file():
        raise VisionError(f"{path}: no such file.")
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise VisionError(f"{path}: not an image OpenCV can read (JPEG, PNG, BMP ...).")
    return image


def cmd_read(args: argparse.Namespace) -> int:
    import cv2

    from vision.nets import load_models
    from vision.reader import ReaderSettings, annotate, read_frame

    load_models()  # so that "ms" is the time of reading, not of loading the networks
    settings = ReaderSettings()
    if args.tray or args.config:
        settings = ReaderSettings.from_config(_tray_table(args.config))
    if args.unsure_below is not None:
        from dataclasses import replace

        settings = replace(settings, unsure_below=args.unsure_below)
    if args.taught:
        from dataclasses import replace

        from vision.teach import load_taught

        settings = replace(settings, taught=load_taught(args.taught))
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    status = EXIT_OK
    for path in args.images:
        try:
            image = _load_image(path)
            t0 = time.perf_counter()
            result = read_frame(image, settings)
            ms = (time.perf_counter() - t0) * 1000
            readings = result.dice
        except CompanionError as exc:
            status = EXIT_FAILED
            if args.json:
                print(json.dumps({"image": path, "error": str(exc)}), flush=True)
            else:
                print(f"{path}: error: {exc}", file=sys.stderr, flush=True)
            continue
        if out_dir is not None:
            target = out_dir / (Path(path).stem + ".annotated.jpg")
            cv2.imwrite(str(target), annotate(image, readings, settings.region))
        if args.json:
            record = {
                "image": path,
                "width": int(image.shape[1]),
                "height": int(image.shape[0]),
                "dice": [r.to_dict() for r in readings],
                "found": result.found,
                "ms": round(ms, 2),
            }
            print(json.dumps(record), flush=True)
        else:
            values = ", ".join(r.text for r in readings)
            unsure = sum(r.value is None for r in readings)
            note = f" ({unsure} unsure)" if unsure else ""
            print(f"{path}: {len(readings)} dice{note}: {values or '-'}  [{ms:.1f} ms]", flush=True)
    return status


def cmd_calibrate(args: argparse.Namespace) -> int:
    from companion.config import save_section
    from vision.tray import calibrate, parse_region

    if not args.empty and not args.region:
        raise VisionError("give a photo of the empty tray (--empty EMPTY.jpg) or the region (--region x,y,w,h).")
    region = parse_region(args.region) if args.region else None
    empty = _load_image(args.empty) if args.empty and region is None else None
    dice = _load_image(args.dice)
    result = calibrate(empty, dice, region)
    target = _config_target(args.config)
    table = _tray_table(str(target)) if target.is_file() else {}
    table.update(result.to_table())
    save_section(target, "tray", table)
    x, y, w, h = result.region
    names = ", ".join(sorted(result.colors))
    size = f"; faces {result.face_size:.0f} px" if result.face_size else ""
    print(f"tray region {x},{y},{w},{h}; {result.dice_seen} dice seen{size}; colours: {names}")
    print(f'saved [tray] to {target}. Map colours to kinds with [tray.kinds], e.g. blue = "clue".')
    return EXIT_OK


def _default_taught_path(config: str | None) -> Path:
    from companion.config import load_config
    from vision.teach import taught_path

    return taught_path(load_config(config).data_dir)


def cmd_teach(args: argparse.Namespace) -> int:
    from companion.config import save_section

    target = _config_target(args.config)
    table = _tray_table(str(target)) if target.is_file() else {}
    if args.reset:
        if args.images:
            raise VisionError("--reset goes back to the shipped reader; give it no photos.")
        removed = []
        if table.pop("taught", None) is not None:
            save_section(target, "tray", table)
            removed.append(f"[tray] taught from {target}")
        if args.save and Path(args.save).is_file():
            Path(args.save).unlink()
            removed.append(str(args.save))
        print(
            f"the shipped reader is in use again ({'removed ' + ', '.join(removed) if removed else 'nothing was taught'})."
        )
        return EXIT_OK
    if not args.images:
        raise VisionError(
            "give the labelled photos to teach from (companion dice teach IMAGE... --labels DIR), "
            "or --reset to go back to the shipped reader."
        )
    from companion.games.base import module_for
    from vision.teach import load_examples, save_taught, teach

    icons = module_for(args.game).icon_pips
    examples = load_examples(args.images, args.labels, icons)
    region = table.get("region")
    taught = teach(examples, region=tuple(region) if isinstance(region, list) and len(region) == 4 else None)
    save = Path(args.save).expanduser() if args.save else _default_taught_path(args.config)
    save_taught(taught, save)
    table["taught"] = str(save.resolve())
    save_section(target, "tray", table)
    print(f"taught the reader {taught.dice} dice from {taught.photos} photos in {taught.seconds:.1f} s")
    print(f"saved to {save}; recorded as [tray] taught in {target} (companion dice teach --reset undoes it).")
    return EXIT_OK


def cmd_watch(args: argparse.Namespace) -> int:
    from vision.camera import open_camera
    from vision.reader import ReaderSettings
    from vision.tray import TrayWatcher, readings_summary

    spec = "sim" if args.sim else (args.camera or "auto")
    table = _tray_table(args.config) if spec not in ("sim",) else {}
    settings = ReaderSettings.from_config(table)
    count = 0

    def settled(readings: list[Any]) -> None:
        print(f"settled: {readings_summary(readings)}", flush=True)

    watcher = TrayWatcher(settings, when_settled=settled)
    with open_camera(spec) as camera:

        def stop() -> bool:
            nonlocal count
            count += 1
            return bool(args.frames) and count > args.frames

        try:
            watcher.run(camera, stop, interval=0.1, when_error=lambda exc: print(f"camera: {exc}", file=sys.stderr))
        except KeyboardInterrupt:
            pass
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        if args.command == "read":
            return cmd_read(args)
        if args.command == "calibrate":
            return cmd_calibrate(args)
        if args.command == "teach":
            return cmd_teach(args)
        return cmd_watch(args)
    except CompanionError as exc:
        print(f"companion dice {args.command}: {exc}", file=sys.stderr)
        return EXIT_FAILED


if __name__ == "__main__":
    raise SystemExit(main())
