"""crkb: the Comprehensive Rules knowledge base (English / Simplified Chinese)."""

__version__ = "0.1.0"
