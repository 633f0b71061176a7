from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("sign-in/", views.sign_in, name="sign_in"),
    path("sign-in/sent/", views.sign_in_sent, name="sign_in_sent"),
    path("sign-in/<str:token>/", views.sign_in_confirm, name="sign_in_confirm"),
    path("sign-out/", views.sign_out, name="sign_out"),
    path("sign-out/everywhere/", views.sign_out_everywhere, name="sign_out_everywhere"),
    path("profile/", views.profile, name="profile"),
    path("email/<str:token>/", views.confirm_email, name="confirm_email"),
]
