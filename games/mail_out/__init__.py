"""Email going out: the outbox, the emails' content, digests, invitations, the
signed links and reply addresses they carry, and who wants which emails."""
