"""Words: what people read and see, drawn from the engine.

Moves and scores in sentences (:mod:`.narrate`), the how-to-play guides (:mod:`.guide`,
``python -m casino.words.guide`` writes docs/how-to-play.md), ranked and capped move
lists (:mod:`.shortlist`) and the card drawings (:mod:`.svg`). Imports the engine only.
"""
