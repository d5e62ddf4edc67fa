"""The terminal game, ``casino play``: a full-screen textual app and a plain line mode.

Both draw a :class:`~casino.play.session.GameSession` and nothing else, so the rules,
the computer players, undo and saving behave the same in each.
"""
