"""The rules, pure: the day's count, the night, reading requests, the deal."""
