"""The web service: `create_app()` builds the Flask app (pages, JSON API) over the current build."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from crkb.config import PROJECT_ROOT

__all__ = ["create_app"]


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """A Flask app serving `CRKB_DATA` (or test_config["DATA"]); the store opens on first use."""
    from crkb import config
    from crkb.web import api, conditional, download, errors, forward, pages, serving, stored, urls
    from crkb.web.state import Served

    app = Flask(
        __name__,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder="static",
    )
    app.config.from_mapping(DATA=str(config.data_dir()), PAGE_CACHE=True)
    if test_config:
        app.config.update(test_config)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals["url_for"] = urls.url_for  # flask.url_for's answers, from kept patterns
    # DefaultJSONProvider's settings; the JSONProvider base type does not declare them
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    # absolute: Flask reads a relative path (send_file) from the package, not the working dir
    app.extensions["crkb"] = Served(Path(app.config["DATA"]).absolute())
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(forward.bp)
    app.register_blueprint(download.bp)
    errors.register(app)
    conditional.register(app)  # before serving: its hook runs after serving's
    serving.register(app)
    stored.register(app)
    return app
