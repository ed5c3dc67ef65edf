"""The built-in plugins: thin ``@hookimpl`` modules, the only built-in code that touches pluggy."""
