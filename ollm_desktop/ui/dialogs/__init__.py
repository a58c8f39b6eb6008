"""The window's dialogs: chat settings, snapshot label and compact prompts, About, recovering
chats from a damaged database, Help pages."""
