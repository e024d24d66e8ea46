"""Command-line tools with I/O around the pure engine: the Gomocup brain, the arena, analysis, tuning."""
