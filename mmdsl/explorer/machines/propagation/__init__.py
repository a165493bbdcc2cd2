"""The per-thread propagation machine: writes reach each thread at its own time (a storage)."""
