from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from anymail.signals import inbound, tracking

        from accounts.signals import address_confirmed, renaming
        from games import checks  # noqa: F401  (registers the system checks)
        from games.coach import analysis, hints
        from games.core import windows
        from games.core.followers import Moved, SeatTaken, follow
        from games.core.seat_names import refuse_look_alike_rename
        from games.mail_in.inbound_webhook import on_inbound
        from games.mail_out import move_notices
        from games.mail_out.tracking import on_address_confirmed, on_tracking
        from games.robots import owed
        from games.timing import lateness

        inbound.connect(on_inbound, dispatch_uid="games.mail_in.inbound")
        tracking.connect(on_tracking, dispatch_uid="games.mail_out.tracking")
        address_confirmed.connect(on_address_confirmed, dispatch_uid="games.mail_out.tracking")
        renaming.connect(refuse_look_alike_rename, dispatch_uid="games.core.seat_names")

        # What follows a move, in this order (games/core/followers.py); the
        # ratings app adds the ratings last.
        follow(Moved, move_notices.on_move)
        follow(Moved, lateness.on_move)
        follow(Moved, windows.on_move)
        follow(Moved, owed.on_move)
        follow(Moved, hints.on_move)
        follow(Moved, analysis.on_move)
        windows.install()  # the gate at the door, and the window's seat follower first
        follow(SeatTaken, owed.on_seat_taken)
