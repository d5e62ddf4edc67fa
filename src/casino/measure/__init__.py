"""Measurement: bots against bots (:mod:`.arena`) and the statistics of the results
(:mod:`.stats`). ``casino arena`` is the front end; matplotlib (the ``arena`` extra) and
rich are imported only inside the functions that plot and show progress.
"""
