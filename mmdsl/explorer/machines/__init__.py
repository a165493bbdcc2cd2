"""The explorer's machines, one sub-package each, behind the interface of ``explorer.machine``."""
