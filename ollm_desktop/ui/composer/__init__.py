"""The composer under the conversation: the input, Send and Stop, Attach, the context ring
and the unsent text kept per chat."""
