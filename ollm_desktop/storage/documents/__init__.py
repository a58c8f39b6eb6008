"""Documents attached to chats: reading their text (one well-kept library per format), storing
each content once, and its passages' word index."""

from ollm_desktop.storage.documents.reading import MAX_BYTES, DocumentError, read_document

__all__ = ["MAX_BYTES", "DocumentError", "read_document"]
