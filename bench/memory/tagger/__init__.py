"""A probe: would a small trained sequence tagger read corrections better than the rules?

Issue 28's correction reader is hand-written rules; they reach 95-100 % on the dev halves of the
phrasing corpus and 76 % on the held-out halves. This package is the experiment that decides
whether a trained tagger (new value, old value, and whether the message supersedes) is worth
shipping beside them. It reads only the dev halves, trains an averaged perceptron in pure
Python, and evaluates it leave-one-corpus-out (``python -m bench.memory.tagger``). Nothing in
``ollm_desktop`` imports it.
"""
