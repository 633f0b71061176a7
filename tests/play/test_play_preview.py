"""Previews: what a move would do, without changing anything or showing a
hidden tile."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from django.test import Client

from games.core.projection import current_state, game_lexicon
from games.engine.jumbulaya import PRESETS, GameState, Line, legal_moves, lexicon_from_words
from games.engine.tiles import full_set
from games.kinds.jumbulaya.preview import preview_move
from games.models import Event, Game

BATCH_LINES = [
    ["B", "A", "T"],
    *[["O", "N", "E"]] * 2,
    *[["R", "I", "P"]] * 2,
    *[["S", "U", "N"]] * 2,
    ["M", "A", "D"],
    ["L", "O", "G"],
]
BATCH_RACKS = [["C", "H", "CH", "E", "E"], ["I", "I", "K", "W", "Y"]]


def preview_url(game: Game) -> str:
    return f"/games/{game.pk}/preview/"


def test_preview_of_a_legal_word_says_what_it_does_and_changes_nothing(
    started_game: Callable[..., Game],
    seat_client: Callable[[Game, int], Client],
    scan: Callable[[str], Any],
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    state = current_state(game)
    move = legal_moves(state, seat, game_lexicon(game))[0]
    client = seat_client(game, seat)
    before = (game.last_seq, game.state, Event.objects.filter(game=game).count())
    for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.post(preview_url(game), {"notation": move.notation()}, **htmx)
        assert response.status_code == 200
        html = response.content.decode()
        assert f"Line {move.line + 1} will score {move.points} point" in html
        assert f"You build {move.word} on line {move.line + 1}" in html
        assert "From your rack:" in html and "To your rack:" in html
        assert scan(html).preview_tiles == list(move.tiles)
        held = len(state.racks[seat]) - len(move.from_rack) + len(move.to_rack)
        draws = min(max(0, 5 - held), len(state.bag))
        assert (f"draw {draws} tile" if draws else "draw no tiles") in html
    game.refresh_from_db()
    assert (game.last_seq, game.state, Event.objects.filter(game=game).count()) == before


def test_preview_keeps_the_notation_on_a_full_page(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    response = seat_client(game, game.turn_seat or 0).post(preview_url(game), {"notation": "pass"})
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html
    assert 'value="pass"' in html and "You pass" in html


def test_preview_of_an_ambiguous_word_lists_the_forms_and_of_trades(
    rigged_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = rigged_game(lines=BATCH_LINES, racks=BATCH_RACKS)
    client = seat_client(game, 0)
    html = client.post(preview_url(game), {"notation": "1 batch"}).content.decode()
    assert "can be built with different tiles" in html
    assert 'data-suggest="1 B-A-T-C-H"' in html and 'data-suggest="1 BAT[CH]"' in html
    # a suggestion button previews its form and fills the field
    html = client.post(
        preview_url(game), {"notation": "1 batch", "suggested": "1 BAT[CH]"}
    ).content.decode()
    assert 'value="1 BAT[CH]"' in html and "You build BATCH on line 1, spelled BAT[CH]" in html
    assert "From your rack: CH." in html and "To your rack: none." in html
    # a trade: CHAT from B-A-T keeps A and T, sends B to the rack
    html = client.post(
        preview_url(game), {"notation": "1 [CH]AT"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "To your rack: B." in html and "From your rack: CH." in html


def test_preview_of_exchange_pass_and_resign(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    game = started_game()
    seat = game.turn_seat
    assert seat is not None
    rack = current_state(game).racks[seat]
    client = seat_client(game, seat)

    def words(notation: str) -> str:
        data = {"notation": notation}
        return client.post(preview_url(game), data, HTTP_HX_REQUEST="true").content.decode()

    html = words(f"exchange {rack[0]} {rack[1]}")
    assert "You exchange 2 tiles" in html and "you draw 2 tiles" in html
    assert "You exchange 5 tiles" in words("exchange all")
    assert "You pass" in words("pass")
    assert "You resign" in words("resign") and "cannot win" in words("resign")
    assert (
        "turn, not yours"
        in seat_client(game, 1 - seat)
        .post(preview_url(game), {"notation": "pass"}, HTTP_HX_REQUEST="true")
        .content.decode()
    )
    assert "there is no SH tile" in words("1 [SH]E")
    assert words("").strip().startswith('<p class="hint">')  # nothing typed yet
    assert Event.objects.filter(game=game).count() == 1


def _open_board() -> GameState:
    """A position where JUMBULAYA may be called: all lines claimed, one of 7 tiles;
    SPRINTS runs down lines 1-7."""
    lines = [
        ["S", "A", "B", "E", "E", "E", "E"],
        ["P", "O", "N"],
        ["R", "O", "D"],
        ["I", "O", "N"],
        ["N", "O", "D"],
        ["T", "O", "N"],
        ["S", "O", "N"],
        ["A", "I", "D"],
        ["A", "I", "M"],
    ]
    pool = Counter(full_set())
    pool.subtract(t for line in lines for t in line)
    racks = [("A", "B", "C", "D", "E"), ("F", "G", "H", "I", "J")]
    pool.subtract(t for r in racks for t in r)
    return GameState(
        rules=PRESETS["official"],
        players=("Ann", "Bob"),
        lines=tuple(Line(tuple(ln), None, i % 2) for i, ln in enumerate(lines)),
        racks=tuple(racks),
        bag=tuple(pool.elements()),
        turn=0,
        skips=(0, 0),
        seq=5,
    )


def test_a_jumbulaya_preview_does_not_say_whether_the_call_would_succeed() -> None:
    state = _open_board()
    assert state.jumbulaya_open()
    lexicon = lexicon_from_words(["SPRINTS", "ZYZZYVA"])
    good = preview_move(state, 1, "jumbulaya sprints", lexicon)
    bad = preview_move(state, 1, "jumbulaya zyzzyva", lexicon)
    unlisted = preview_move(state, 1, "jumbulaya aaaaaaa", lexicon)
    assert good.kind == bad.kind == unlisted.kind == "jumbulaya"
    assert good.details == bad.details == unlisted.details
    assert "a call that cannot be verified costs you a turn" in " ".join(good.details).lower()
    # the word is only echoed
    assert good.summary.replace("SPRINTS", "W") == bad.summary.replace("ZYZZYVA", "W")
    # refusals that do not depend on the word are still told
    closed = preview_move(GameState(**{**_fields(state), "lines": _unclaimed(state)}), 1,
                          "jumbulaya sprints", lexicon)  # fmt: skip
    assert closed.code == "jumbulaya_closed"
    barred = preview_move(
        GameState(**{**_fields(state), "barred": frozenset({1})}), 1, "jumbulaya x", lexicon
    )
    assert barred.code == "jumbulaya_barred"
    assert preview_move(state, 1, "jumbulaya a b", lexicon).code == "bad_move"


def _fields(state: GameState) -> dict[str, Any]:
    return {name: getattr(state, name) for name in GameState.__slots__}


def _unclaimed(state: GameState) -> tuple[Line, ...]:
    return tuple(Line(ln.tiles) for ln in state.lines)


def test_a_word_that_ends_the_game_says_so() -> None:
    state = _open_board()
    lines = list(state.lines)
    lines[0] = Line(("S", "A", "B", "E", "E", "E", "E", "E"), None, 1)
    racks = (("R", "N", "A", "B", "C"), state.racks[1])
    state = GameState(**{**_fields(state), "lines": tuple(lines), "racks": racks})
    lexicon = lexicon_from_words(["SABEEEEERN"])
    shown = preview_move(state, 0, "1 SABEEEEERN", lexicon)
    assert shown.kind == "word", shown
    assert shown.ends_game and shown.end_words == "a line reached 10 tiles"
    assert shown.points == 20 and shown.draws == 2
    assert shown.from_rack == ("R", "N") and shown.to_rack == ()


def test_the_call_form_shows_only_when_jumbulaya_is_open(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    from games.engine.jumbulaya import state_to_json

    game = started_game()
    client = seat_client(game, 1)
    assert 'name="jumbulaya_word"' not in client.get(f"/games/{game.pk}/").content.decode()
    state = _open_board()
    state = GameState(**{**_fields(state), "players": current_state(game).players})
    Game.objects.filter(pk=game.pk).update(state=state_to_json(state))
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'name="jumbulaya_word"' in html and "Call JUMBULAYA" in html
    html = client.post(
        preview_url(game), {"jumbulaya_word": "sprints"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "You call JUMBULAYA with SPRINTS: if it is verified, it scores 10 points" in html
    assert "costs you a turn" in html


def test_a_jumbulaya_preview_says_what_the_call_would_score_from_the_word_alone() -> None:
    state = _open_board()
    lexicon = lexicon_from_words(["SPRINTS"])
    seven = preview_move(state, 1, "jumbulaya sprints", lexicon)
    assert seven.points == 10
    assert "if it is verified, it scores 10 points (7 tiles)" in seven.summary
    short = preview_move(state, 1, "jumbulaya sprint", lexicon)
    assert short.kind == "jumbulaya" and short.points is None
    assert "which would fail: a JUMBULAYA is 7, 8 or 9 tiles long" in short.summary
    # STRANGER: 8 single tiles (12 points) or 7 with ST or ER as one tile (10, plus
    # the official rules' point per two-letter tile): the spelling found down the
    # board decides, so every one is told, best first.
    assert state.rules.jumbulaya_bonus
    spelled = preview_move(state, 1, "jumbulaya stranger", lexicon)
    assert spelled.points == 12 and "scores 11 to 12 points" in spelled.summary
    assert spelled.details[:3] == (
        "Spelled S-T-R-A-N-G-E-R (8 tiles): 12 points.",
        "Spelled STRANG[ER] (7 tiles): 11 points.",
        "Spelled [ST]RANGER (7 tiles): 11 points.",
    )
    assert "[ST]RANG[ER]" not in " ".join(spelled.details)  # 6 tiles: no JUMBULAYA


def test_the_call_preview_goes_by_the_call_box(
    started_game: Callable[..., Game], seat_client: Callable[[Game, int], Client]
) -> None:
    from games.engine.jumbulaya import state_to_json

    game = started_game()
    state = _open_board()
    state = GameState(**{**_fields(state), "players": current_state(game).players})
    Game.objects.filter(pk=game.pk).update(state=state_to_json(state))
    client = seat_client(game, 1)
    html = client.get(f"/games/{game.pk}/").content.decode()
    box = html[
        html.index('id="jumbulaya-word"') : html.index("</section>", html.index('id="call"'))
    ]
    assert 'hx-target="#call-preview"' in box and 'id="call-preview"' in box
    assert "Write a word to see what the call would score." in box
    # Without JavaScript the page comes back with the preview in the call box.
    page = client.post(preview_url(game), {"jumbulaya_word": "sprints"}).content.decode()
    call = page[page.index('id="call-preview"') :]
    assert "it scores 10 points (7 tiles)" in call[: call.index("</div>\n")]
    assert 'value="sprints"' in page
    empty = client.post(preview_url(game), {"jumbulaya_word": ""}, HTTP_HX_REQUEST="true")
    assert "Write a word to see what the call would score." in empty.content.decode()
