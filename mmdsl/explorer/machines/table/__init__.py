"""The one-memory machine of a reordering table: pending lists, issue and perform steps."""
