"""Moderation: roles, blocks, reports, mutes, bans, table aborts, chat removal, the audit
log, and account deletion (an event each feature handles: ``kernel/closing.py``). Its
policy (who may meet, chat, invite) is read by the features above it."""
