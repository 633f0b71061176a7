from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from anymail.signals import inbound

        from games import checks  # noqa: F401  (registers the system checks)
        from games.mail_in.inbound_webhook import on_inbound

        inbound.connect(on_inbound, dispatch_uid="games.mail_in.inbound")
