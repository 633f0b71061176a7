from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("players/<str:who>/", views.player, name="player"),
    path("leaderboard/<str:kind>/", views.leaderboard, name="leaderboard"),
]
