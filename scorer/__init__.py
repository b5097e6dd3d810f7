"""The dice scorer: rules, games and their storage, the dice reader, the devices and the table."""

__version__ = "0.1.0"
