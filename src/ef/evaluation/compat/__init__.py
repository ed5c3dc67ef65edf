"""The call shapes of other evaluation tools, over ef-evaluation's engine.

Each module takes the arguments of one tool, in its order (qrels first), with its measure
names, and gives back its result shapes and its numbers, through the compatibility profiles
(:mod:`ef.evaluation._engine.profiles`) where that tool's numbers differ from trec_eval's:

* :mod:`ef.evaluation.compat.pytrec_eval`: ``RelevanceEvaluator(qrels, measures).evaluate(run)``;
* :mod:`ef.evaluation.compat.beir`: ``EvaluateRetrieval.evaluate`` and ``evaluate_custom``;
* :mod:`ef.evaluation.compat.ir_measures`: ``calc_aggregate``, ``iter_calc``, measure objects;
* :mod:`ef.evaluation.compat.ranx`: ``evaluate``, ``Qrels`` and ``Run``.

None of them changes the caller's input, even where the tool does (BEIR's
``ignore_identical_ids``, ranx's ``save_results_in_run``); each refuses what ef-evaluation
refuses (a run that shares no query with the qrels, a NaN score), where the tool would give
an empty result or a plausible number, but doc ids spelled otherwise than the qrels': those
score 0, as in the tool, with an :class:`~ef.evaluation.InputWarning` that names the likely
cause (``check_doc_ids="warn"``). An empty run is the other exception: each
gives what its tool gives for it (``{}``, or 0), with an :class:`~ef.evaluation.InputWarning`
that says the run is empty. docs/migrating.md lists what differs, tool by tool.
Importing this package imports none of the tools, and none is needed.
"""

from __future__ import annotations
