"""The crossword tile game, Bible edition (seed ``004_…``): a pure engine, no Django."""
