from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from games.core.followers import Moved, Rebuilt, follow
        from ratings import rating

        # After the games app's followers (installed before this app): a move
        # that ends a rated game rates it last (games/core/followers.py).
        follow(Moved, rating.on_move)
        follow(Rebuilt, rating.on_rebuilt)
