"""The command line interface (typer), thin: every command calls the layers above."""
