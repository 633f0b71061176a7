import pytest
from django.test import Client


@pytest.mark.django_db
def test_home_page(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Jumbulaya" in response.content.decode()


@pytest.mark.django_db
def test_healthz(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"


def test_healthz_refuses_post(client: Client) -> None:
    response = client.post("/healthz")
    assert response.status_code == 405
