"""Tournaments come with issue 4; the app is in place so the layout is whole."""
