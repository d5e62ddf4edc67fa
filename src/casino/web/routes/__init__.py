"""The web game's routes, one router per part of the site, which :mod:`casino.web.app` wires.

- :mod:`~casino.web.routes.context`: what every route is given (:class:`WebContext`,
  through the :data:`~casino.web.routes.context.Web` dependency), the page templates, and
  errors said in words;
- :mod:`~casino.web.routes.errors`: the error handlers and the old cookies' middleware;
- :mod:`~casino.web.routes.pages`: the HTML pages (the lobby, a game, invites, rules,
  the glossary, guides, records and replays);
- :mod:`~casino.web.routes.api`: the JSON API (new games, the lobby's lists, replays,
  reviews);
- :mod:`~casino.web.routes.drawings`: the cards' SVG drawings;
- :mod:`~casino.web.routes.socket`: the game WebSocket (:class:`GameSocket`);
- :mod:`~casino.web.routes.tools`: the tools for a real table (the score pad and the
  move helper; what they do is :mod:`casino.web.tools`);
- :mod:`~casino.web.routes.accounts`: the optional accounts' pages (sign up, sign in,
  recovery, the account; what they do is :mod:`casino.web.accounts`);
- :mod:`~casino.web.routes.ratings`: the leaderboards of rated games.

Routes stay thin: they read the request, ask the
:class:`~casino.web.service.GameService` and turn its answer (or its
:class:`~casino.web.service.GameError`) into a response.
"""
