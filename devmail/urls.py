from django.urls import path

from devmail import views

app_name = "devmail"

urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("news/", views.news, name="news"),
    path("<id:message_id>/", views.message, name="message"),
    path("<id:message_id>/html/", views.message_html, name="html"),
    path("<id:message_id>/reply/", views.reply, name="reply"),
    path("<id:message_id>/report/", views.report, name="report"),
]
