"""A player whose mail stopped asks for it again (the banner's button).

The one step that starts mail again is a confirmation link mailed to the
address and followed (:func:`games.mail_out.tracking.restore`).  Before it is
sent, the ESP's own suppression list is lifted (:mod:`games.mail_out.suppressions`),
or the ESP would refuse or drop that mail too, and the player would be told
"try again in a few minutes" for ever.

After a spam complaint, the player must also say they want our emails again
(the banner's checkbox): a click on "Confirm again" says the address works,
not that they take back "this is spam", and the ESP's record of a complaint is
lifted only on that "yes".

Where the address cannot be mailed (the ESP keeps it on its list, could not be
asked, or refused the send), the player is told plainly what they can do
instead, and the operator is told by a log line (warning) naming the
:class:`~games.models.MailStatus` row, so they can lift it in the ESP's
dashboard or ask its support.
"""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass

from anymail.exceptions import AnymailRecipientsRefused

from accounts import services as accounts
from accounts.models import User
from games.mail_out import suppressions, tracking
from games.models import MailStatus

log = logging.getLogger(__name__)

#: The stops that are about the address, not its owner's choice: confirming it
#: again is enough to lift the ESP's record of them.
NOT_CHOSEN = frozenset({MailStatus.Stop.BOUNCED, MailStatus.Stop.REJECTED, MailStatus.Stop.SOFT})
NAMED = frozenset(MailStatus.Stop.values)


@dataclass(frozen=True)
class Answer:
    """What to tell the player: ``ok`` (the link was sent) and the words."""

    ok: bool
    text: str


def needs_consent(status: MailStatus | None) -> bool:
    """Whether the player must say they want our emails again before their
    address is mailed: mail stopped for a reason of the recipient's own
    choosing (a complaint; any reason not known to be a bounce)."""
    return status is not None and status.reason not in NOT_CHOSEN


def _ways_on(email: str) -> str:
    return (
        f"Our mail service will not deliver to {email}: it keeps a list of addresses that "
        "bounced or reported our mail as spam, and yours is on it. We have told the people "
        "who run this site. Meanwhile you can change your address to another one (on this "
        "page, under Email address), play from your games' pages (your dashboard lists them "
        "and says whose turn it is), or follow the link in any game email you still have: "
        "it opens its game."
    )


def _tell_operator(status: MailStatus | None, what: str) -> None:
    log.warning(
        "mail status %s: the confirmation mail cannot reach its address (%s); the player "
        "was told to use another address or the pages. Lift the address in the ESP's "
        "suppression list (its dashboard, or its support for a spam complaint).",
        status.pk if status is not None else "-",
        what,
    )


def ask(user: User, *, wants_mail: bool, client: str = "") -> Answer:
    """Mail ``user`` a link confirming their address again, having lifted the
    ESP's suppression of it first; ``wants_mail``: they ticked "I want game
    emails again" (needed after a complaint, :func:`needs_consent`)."""
    email = user.email
    status = tracking.stopped(email)
    if status is not None and needs_consent(status) and not wants_mail:
        why = MailStatus.Stop(status.reason).label if status.reason in NAMED else "you asked"
        return Answer(
            False,
            f"We stopped mailing {email} because {why}, so we send nothing to it until you "
            "tell us you want our emails again: tick “I want game emails again” and press "
            "the button.",
        )
    lifted = None
    if status is not None:
        lifted = suppressions.lift(email, wanted=wants_mail)
        if lifted.outcome == suppressions.Outcome.LIFTED:
            log.info("mail status %s: %s lifted its suppression", status.pk, lifted.esp)
        if lifted.outcome == suppressions.Outcome.KEPT:
            _tell_operator(status, f"{lifted.esp} keeps it: {lifted.said}")
            return Answer(False, _ways_on(email))
    try:
        accounts.request_confirmation_again(user, client=client)
    except accounts.TooManyMails as e:
        return Answer(False, str(e))
    except (AnymailRecipientsRefused, smtplib.SMTPRecipientsRefused) as e:
        _tell_operator(status, f"the send was refused: {type(e).__name__}")
        return Answer(False, _ways_on(email))
    except accounts.MAIL_ERRORS:
        log.exception("could not send an address confirmation")
        return Answer(
            False, "We could not send the email just now. Please try again in a few minutes."
        )
    sent = f"We sent a confirmation link to {email}. Game emails start again when you follow it."
    if lifted is not None and lifted.outcome == suppressions.Outcome.FAILED:
        _tell_operator(status, f"{lifted.esp} could not be asked to lift it: {lifted.said}")
        sent += (
            " If it has not come within a few minutes, our mail service may still be refusing "
            "your address: change to another one on this page, or play from your games' pages."
        )
    return Answer(True, sent)
