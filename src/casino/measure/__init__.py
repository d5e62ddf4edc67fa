"""Measurement: bots against bots (:mod:`.arena`) and the statistics of the results
(:mod:`.stats`), and the Glicko-2 ratings of rated play between people
(:mod:`.glicko2`). ``casino arena`` is the front end; matplotlib (the ``arena`` extra) and
rich are imported only inside the functions that plot and show progress.
"""
