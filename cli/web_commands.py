"""``carcam serve``: the web companion on a real SQLite file (registered by ``cli.main``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

#: the repository's bundled samples, used when the current folder has none
BUNDLED_SAMPLES = Path(__file__).resolve().parents[1] / "sample_images"


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    p = subparsers.add_parser("serve", help="start the web companion (phones on the same network open it)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0 lets phones on the same network connect)")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--data", default="carcam-data", help="folder of the SQLite database (default carcam-data/)")
    p.add_argument("--demo", action="store_true", help="open a game already loaded from sample_images/")
    p.add_argument("--samples", default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Create the app, optionally load the demo game, and serve until Ctrl-C."""
    from web import create_app, service
    from web.db import connect

    app = create_app({"DATA_DIR": os.path.abspath(args.data)})
    where = f"http://{'localhost' if args.host in ('127.0.0.1', '0.0.0.0') else args.host}:{args.port}"
    if args.demo:
        db = connect(app.config["DATABASE"])
        try:
            samples = args.samples or ("sample_images" if os.path.isdir("sample_images") else str(BUNDLED_SAMPLES))
            gid = service.load_demo(db, samples, app.config["READER"], app.config["FOLLOW"])
        except service.ServiceError as exc:
            print(f"carcam serve: {exc.message}", file=sys.stderr)
            return 2
        finally:
            db.close()
        print(f"demo game: {where}/games/{gid}")
    print(f"carcam web companion on {where}/ (data in {os.path.abspath(args.data)})")
    app.run(host=args.host, port=args.port, debug=False, threaded=True, use_reloader=False)
    return 0
