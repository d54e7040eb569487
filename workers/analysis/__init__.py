"""The analysis of finished games (pure: no Celery, Redis or Flask).

    from workers.analysis import analyse, DEFAULT
    report = analyse(record, DEFAULT, seed=0, on_progress=lambda done, total: ...)

See ``workers.analysis.engine`` for what is judged and how, and
``workers.analysis.scoring`` for the loss classes, accuracy and luck.
"""

from workers.analysis.engine import DEFAULT, QUICK, Strength, analyse, assess_decision, decisions_of
from workers.analysis.scoring import accuracy, classify, luck, move_accuracy

__all__ = ["DEFAULT", "QUICK", "Strength", "accuracy", "analyse", "assess_decision",
           "classify", "decisions_of", "luck", "move_accuracy"]  # fmt: skip
