"""The execution-graph machine of an axiomatic model: events added one by one, steps enabled by the axioms."""
