"""Dataset readers and writers, one module per format; pure I/O, no plugin machinery."""
