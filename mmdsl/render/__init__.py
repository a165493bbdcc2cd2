"""Output: herd-style text, JSON, model descriptions and (graphviz) diagrams."""
