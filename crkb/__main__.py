"""`python -m crkb` is the `crkb` command."""

from crkb.cli import main

raise SystemExit(main())
