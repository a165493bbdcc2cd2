"""Suites: running many tests under many models, manifests, expectations and reports."""
