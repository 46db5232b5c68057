"""Pages about people across events: clubs, seasons and ratings (the players' own pages are
``league.player_urls``, under /players/)."""

app_name = "league"

urlpatterns: list = []
