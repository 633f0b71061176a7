import os

from django.apps import AppConfig


class DevmailConfig(AppConfig):
    name = "devmail"
    verbose_name = "local mailbox"

    def ready(self) -> None:
        """Refuse to start a run that would show the mailbox to others
        (:func:`devmail.loopback.refuse_public_bind`)."""
        from devmail.loopback import refuse_public_bind

        refuse_public_bind(os.environ.get("RUN_HOST", ""))
