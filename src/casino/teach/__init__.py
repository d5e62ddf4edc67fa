"""Teaching: the post-game review (:mod:`casino.teach.review`), the hints and the lessons,
on the judge the expert level plays by (:mod:`casino.bots.judge`).

A layer beside the tools and the measurements: it may import the play session, the
words, the bots and the engine, and uses the standard library only.
"""
