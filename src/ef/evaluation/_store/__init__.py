"""The store of evaluations: recorded reports over time, across systems and datasets."""
