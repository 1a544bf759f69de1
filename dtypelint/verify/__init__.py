"""`dtypelint verify`, the runtime harness: proves that the fixes turn a BF16 failure or silent
promotion into a clean low-precision run (SPEC section 6).

Nothing here imports torch at import time: the click command lives in `command`, torch runs only
in `runner`, inside the subprocesses the harness starts.
"""
