"""Tools for games played with real cards: the move helper and the score pad.

:mod:`.helper` answers the legal plays of a table described by hand, :mod:`.scorepad`
keeps the score of rounds counted by hand. The command line (``casino helper``,
``casino score``) and the web's tools pages are their front ends.
"""
