"""Built-in retriever adapters: turn a retriever object into ``search(query, limit)``."""
