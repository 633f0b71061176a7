"""Forms for signing in and for the profile page."""

from __future__ import annotations

import functools
import zoneinfo

from django import forms

from accounts.models import User
from accounts.names import clean_name
from accounts.services import normalize_email


@functools.cache
def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class SignInForm(forms.Form):
    email = forms.EmailField(
        label="Your email address",
        max_length=254,
        error_messages={
            "required": "Enter your email address.",
            "invalid": "Enter an email address such as ann@example.com.",
        },
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )
    next = forms.CharField(required=False, widget=forms.HiddenInput)


def display_name_field() -> forms.CharField:
    """The display name field, as the profile page and the invitation page ask it."""
    return forms.CharField(
        label="Display name",
        min_length=1,
        max_length=40,
        help_text="Shown to other players. Your email address never is. Letters, digits "
        "and punctuation; no web or email addresses.",
        error_messages={
            "required": "Enter the name other players will see.",
            "max_length": "Keep your display name to 40 characters or fewer.",
        },
    )


class DisplayNameForm(forms.Form):
    """The name a new player chooses on their way into a game."""

    display_name = display_name_field()

    def clean_display_name(self) -> str:
        return clean_name(self.cleaned_data["display_name"])


class ProfileForm(forms.ModelForm):
    display_name = display_name_field()
    time_zone = forms.ChoiceField(
        label="Time zone",
        choices=time_zone_choices,
        help_text="Dates and deadlines are shown in this time zone.",
        error_messages={
            "required": "Choose your time zone.",
            "invalid_choice": "Choose a time zone from the list, such as Europe/Paris.",
        },
    )

    class Meta:
        model = User
        fields = ["display_name", "time_zone"]

    def clean_display_name(self) -> str:
        return clean_name(self.cleaned_data["display_name"])


class EmailChangeForm(forms.Form):
    new_email = forms.EmailField(
        label="New email address",
        max_length=254,
        error_messages={
            "required": "Enter the new address.",
            "invalid": "Enter an email address such as ann@example.com.",
        },
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    def __init__(self, *args: object, user: User, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.user = user

    def clean_new_email(self) -> str:
        email = normalize_email(self.cleaned_data["new_email"])
        if email == self.user.email.lower():
            raise forms.ValidationError("That is already your address.")
        return email
