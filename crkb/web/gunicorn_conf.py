"""gunicorn's production configuration for crkb: workers warm before they take traffic.

    gunicorn -c python:crkb.web.gunicorn_conf -w 2 -b 0.0.0.0:8000 'crkb.web:create_app()'

The app is imported once in the master (preload) and each worker, once forked, opens its own
store and index and loads jieba, OpenCC, the glossary matchers and the templates (crkb/web/warm.py)
before it accepts a connection. Files are opened only after the fork, so no worker shares a file
position with another.
"""

from __future__ import annotations

import gc
import time
from typing import Any

preload_app = True


def post_worker_init(worker: Any) -> None:  # noqa: ANN401 - gunicorn's Worker
    """Warm the worker's app; logs "crkb worker ready" (scripts/loadtools.py waits for it)."""
    from crkb.web.warm import warm

    t0 = time.perf_counter()
    done = warm(worker.wsgi)
    # What warming loaded (index, jieba, OpenCC, glossary matchers: ~1M objects) lives as long
    # as the build; left to the collector, every full collection walked it again and stalled
    # the worker 20-67 ms under load, with every request queued behind it. Frozen, it is left
    # out of collections (a newly published build unfreezes it: crkb/web/state.py).
    gc.collect()
    gc.freeze()
    worker.log.info(
        "crkb worker ready (pid %s, warmed %s in %.2f s)",
        worker.pid,
        ", ".join(done) or "nothing: no build yet",
        time.perf_counter() - t0,
    )
