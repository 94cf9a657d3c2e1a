"""Balance sweeps and tuning: many variants of a spec, each checked like ``cardgen check``.

Modules:

* :mod:`cardgen.sweep.variants`: ``--vary`` options, the grid, a variant's ``game.yaml`` and its patch;
* :mod:`cardgen.sweep.work`: one variant's job (spec bytes in, a small record out) and its seeds;
* :mod:`cardgen.sweep.executors`: where jobs run (local processes, a Dask cluster);
* :mod:`cardgen.sweep.run`: a sweep over a grid, with its results file and ``--resume``;
* :mod:`cardgen.sweep.tune`: searching the varied numbers for the best objective (Optuna);
* :mod:`cardgen.sweep.present`: the table, the JSON and the charts.
"""
