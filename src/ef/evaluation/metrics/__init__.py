"""Pure metric functions: no plugin machinery, no I/O, no imports beyond the standard library."""
