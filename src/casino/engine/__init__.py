"""The engine: the rules of Casino and its family as code, standard library only.

Cards and rulesets (:mod:`.cards`, :mod:`.rules`), builds and moves, the move generator
(:mod:`.movegen`) and the polynomial legality checks (:mod:`.legality`, through
:mod:`.partition`; each rule there also says why it refuses a move, and :mod:`.explain`
puts that into words), the immutable :class:`~.position.Position` and its text
(:mod:`.render`) and JSON (:mod:`.codec`),
scoring, the only shuffler (:class:`~.match.Match`) and game records (:mod:`.record`,
with the words for a file that cannot be written, :mod:`.files`).

Nothing here imports anything of the project outside this package, nor any third-party
package (pyproject.toml's import-linter contracts check it), so ``pip install casino``
without extras plays whole games. The public names are re-exported, lazily, by the
``casino`` package itself (``from casino import Position``). This ``__init__`` imports
nothing, so that importing one module (the command line imports :mod:`.files`) does
not load the rest.
"""
