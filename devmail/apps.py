from django.apps import AppConfig


class DevmailConfig(AppConfig):
    name = "devmail"
    verbose_name = "local mailbox"
