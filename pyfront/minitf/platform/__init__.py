"""minitf.platform: process-level helpers (tf_logging)."""
