"""``oska tournament``: every entrant against every other, ratings and a report.

- ``entrants``: the bots and AI levels given on the command line;
- ``schedule``: the games of every pair, with seeded openings and game ids;
- ``games``: plays one game (the only module that uses the game-playing API);
- ``result``: a finished game as plain data;
- ``store``: finished games in SQLite, so that a rerun continues;
- ``runner``: games in parallel on local processes or on a Dask cluster;
- ``ratings``: Bradley-Terry Elo ratings with 95 % intervals;
- ``standings``: the tables; ``report``: the HTML report;
- ``command``: the whole run of ``oska tournament`` (options: ``oska_gui.cli.tournament``).
"""
