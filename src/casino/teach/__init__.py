"""Teaching: the post-game review (:mod:`casino.teach.review`) and the judge it stands on
(:mod:`casino.teach.judge`).

A layer beside the tools and the measurements: it may import the play session, the
words, the bots and the engine, and uses the standard library only.
"""
