"""What the CLI and the web both show: argument parsers and the JSON shapes of SPEC.md."""
