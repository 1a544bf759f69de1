"""The folder `dtypelint trace` puts first on the traced command's PYTHONPATH (sitecustomize)."""
