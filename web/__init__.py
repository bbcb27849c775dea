"""carcam's web companion: live scores, open features and the final tally from table photos.

``create_app(test_config)`` builds the Flask app (Flask tutorial style). Configuration that tests
replace: ``DATABASE`` (the SQLite file), ``READER`` (an object with ``.read(image_bytes, game=,
expansions=, players=, prior=) -> scorer.Reading``; ``None`` means the real
``vision.reader.BoardReader``, imported on the first photo), ``FOLLOW`` (infer turns between
photos with ``scorer.follow``; tests turn it off to score each reading as read), ``SECRET_KEY``.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, render_template, request, session
from werkzeug.exceptions import HTTPException

from scorer import CarcamError

from .service import ServiceError

MAX_UPLOAD_BYTES = 20 * 1024 * 1024
CSRF_HEADER = "X-CSRF-Token"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """The app, its database created in ``DATA_DIR`` (default ``carcam-data/``) unless
    ``DATABASE`` is given."""
    app = Flask(__name__)
    app.config.from_mapping(
        DATA_DIR=os.path.abspath("carcam-data"),
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        READER=None,
        FOLLOW=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    if test_config:
        app.config.update(test_config)
    data_dir = Path(app.config["DATA_DIR"])
    if "DATABASE" not in app.config:
        data_dir.mkdir(parents=True, exist_ok=True)
        app.config["DATABASE"] = str(data_dir / "carcam.sqlite3")
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(data_dir)

    app.json.sort_keys = False  # type: ignore[attr-defined]  # keep "format" first, as the spec writes it
    from . import api, db, pages
    db.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
    _register_errors(app)
    return app


def _secret_key(data_dir: Path) -> str:
    """The session key, kept in the data folder so sessions survive a restart."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "secret_key"
    if path.is_file():
        return path.read_text(encoding="ascii").strip()
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key)
    return key


# ---------------------------------------------------------------------------------------------
# CSRF: a per-session token on every HTML form POST; JSON API calls are exempt (a browser cannot
# send Content-Type: application/json to another site without a CORS preflight, which this app
# never answers); other API POSTs (a multipart photo) carry the token in the X-CSRF-Token header.
def csrf_token() -> str:
    """The session's CSRF token, made on first use."""
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return str(token)


def check_csrf() -> None:
    """Refuse a POST without the session's token (before any view runs)."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return
    is_api = request.path.startswith("/api/")
    if is_api and request.mimetype == "application/json":
        return
    sent = request.headers.get(CSRF_HEADER)
    if sent is None and not is_api:
        sent = request.form.get("csrf_token")
    expected = session.get("csrf")
    if not sent or not expected or not hmac.compare_digest(str(sent), str(expected)):
        hint = ("send JSON with Content-Type: application/json, or the X-CSRF-Token header from GET /api/csrf"
                if is_api else "reload the page and try again")
        raise ServiceError(f"missing or wrong CSRF token ({hint})", 400)


# ---------------------------------------------------------------------------------------------
def wants_json() -> bool:
    """API paths and script requests get JSON errors; pages get an HTML error page."""
    return (request.path.startswith("/api/") or request.headers.get(CSRF_HEADER) is not None
            or request.accept_mimetypes.best == "application/json")


def error_response(status: int, message: str) -> Response | tuple[Any, int]:
    """A 4xx/5xx answer with one clear message."""
    if wants_json():
        return jsonify({"error": message, "status": status}), status
    return render_template("error.html", status=status, message=message), status


def _register_errors(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def _service(exc: ServiceError) -> Any:
        return error_response(exc.status, exc.message)

    @app.errorhandler(CarcamError)
    def _carcam(exc: CarcamError) -> Any:
        return error_response(400, str(exc))

    @app.errorhandler(413)
    def _too_large(_exc: HTTPException) -> Any:
        mb = app.config["MAX_CONTENT_LENGTH"] // (1024 * 1024)
        return jsonify({"error": f"the upload is too large: at most {mb} MB per photo", "status": 413}), 413

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Any:
        messages = {404: "not found", 405: "this address does not take that method"}
        return error_response(exc.code or 500, messages.get(exc.code or 0, exc.description or exc.name))
