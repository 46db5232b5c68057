"""The API's reads about people across events: players' records, clubs, seasons and ratings."""
