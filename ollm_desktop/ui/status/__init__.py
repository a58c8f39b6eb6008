"""What the window says about its state: the server banner, the bars (warning, undo,
compaction progress), the reliability indicator and messages that follow the state."""
