from django.urls import include, path

from games.web import (
    analysis_views,
    how_to_play_views,
    invite_views,
    live_views,
    lobby_views,
    mail_again_views,
    message_views,
    play_views,
    record_views,
    views,
)

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # how to play each game
    path("how-to-play/", how_to_play_views.every_game, name="how_to_play_index"),
    path("how-to-play/<str:kind>/", how_to_play_views.how_to_play, name="how_to_play"),
    # lobby: creating, joining and finding games
    path("dashboard/", lobby_views.dashboard, name="dashboard"),
    path("next/", lobby_views.next_game, name="next_game"),
    path("games/new/", lobby_views.create, name="create"),
    path("games/new/robot/", lobby_views.play_robot, name="play_robot"),
    path("games/open/", lobby_views.open_games, name="open_games"),
    path("games/<id:game_id>/join/", lobby_views.join, name="join"),
    path("games/<id:game_id>/invite/", invite_views.invite, name="invite"),
    path("invite/<str:token>/", lobby_views.accept_invite, name="accept_invite"),
    # playing
    path("games/<id:game_id>/", play_views.game_page, name="game"),
    path("games/<id:game_id>/move/", play_views.move, name="move"),
    path("games/<id:game_id>/preview/", play_views.preview, name="preview"),
    path("games/<id:game_id>/changes/", play_views.changes, name="changes"),
    path("games/<id:game_id>/hints/", play_views.hints_ready, name="hints"),
    path("games/<id:game_id>/live/", live_views.game_stream, name="live"),
    # mail that stopped: the banner's button
    path("mail/again/", mail_again_views.confirm_again, name="mail_again"),
    # players' messages
    path("games/<id:game_id>/messages/", message_views.say, name="say"),
    path("games/<id:game_id>/messages/mute/", message_views.mute, name="mute_messages"),
    path(
        "games/<id:game_id>/messages/<id:message_id>/report/",
        message_views.report,
        name="report_message",
    ),
    # records
    path("games/<id:game_id>/record.json", record_views.download, name="download"),
    path("games/<id:game_id>/replay/", record_views.game_replay, name="game_replay"),
    path("games/<id:game_id>/analysis/", analysis_views.game_analysis, name="analysis"),
    path("records/upload/", record_views.upload, name="upload"),
    path("records/<id:record_id>/", record_views.uploaded_replay, name="uploaded_replay"),
    path("records/<id:record_id>/delete/", record_views.delete_upload, name="delete_upload"),
    path("", include("games.web.email_urls")),
    path("", include("games.web.vacation_urls")),
]
