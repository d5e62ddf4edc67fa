"""A game at a table: people and computer seats around the engine.

:mod:`.session` (turns, undo, hints, the move log, saving) and :mod:`.standing` (a seat's
running count). Every front end plays through these; they import the engine, the words
and the bots' levels, never a front end. :mod:`.console` is how the line-mode front ends
(the plain terminal game, the move helper's prompt, the score pad) read and write lines.
"""
