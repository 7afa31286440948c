"""The claim catalogue: one module per paper; every claim cites its seed file and item."""
