"""An example bot: ``python docs/example_bot.py BASE_URL TOKEN GAME_ID [ROBOT COMMAND...]``
takes its seat if invited, waits for its turn (the long poll), pipes its seat view to the
robot (a JSON line in, a move out: seat-view.md; by default ``python manage.py robot``, run
from the repository) and posts the answer, until the game is over."""

import json
import sys
import time
import urllib.request
import uuid
from subprocess import PIPE, Popen


def call(base: str, token: str, method: str, path: str, body: object = None) -> tuple[int, dict]:
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if method == "POST":
        headers["Idempotency-Key"] = str(uuid.uuid4())  # fixed per move: a resend is safe
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}/api/v1{path}", data, headers, method=method)
    for _ in range(5):  # resent as it was, key and all, after a failure
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.load(answer)
        except urllib.request.HTTPError as error:
            if error.code != 429:
                return error.code, json.load(error)
            time.sleep(int(error.headers.get("Retry-After", "1")))
        except OSError:
            time.sleep(1)
    raise SystemExit(f"{method} {path}: no answer")


def play(base: str, token: str, game: int, robot_command: list[str]) -> None:
    robot = Popen(robot_command, stdin=PIPE, stdout=PIPE, text=True)
    call(base, token, "POST", f"/games/{game}/join")  # 409 when already seated: fine
    seen = 0
    while True:
        status, log = call(base, token, "GET", f"/games/{game}/events?after={seen}&wait=20")
        seen = log.get("seq", seen)
        if log.get("status") == "over":
            break
        status, view = call(base, token, "GET", f"/games/{game}/view")
        if status != 200 or view["status"] != "playing" or view["next"] != view["seat"]:
            continue
        robot.stdin.write(json.dumps(view) + "\n")
        robot.stdin.flush()
        move = robot.stdout.readline().strip()
        for answer in (move, "pass"):  # a move refused, or a call only sealed: pass
            body = {"move": answer, "expected_seq": view["seq"]}
            status, made = call(base, token, "POST", f"/games/{game}/moves", body)
            if status != 422 and not made.get("sealed"):  # the turn is over (409: moved on)
                break
    robot.communicate()  # its input closed, it ends


if __name__ == "__main__":
    base, token, game, *command = sys.argv[1:]
    play(base.rstrip("/"), token, int(game), command or [sys.executable, "manage.py", "robot"])
