from rest_framework.pagination import LimitOffsetPagination


class Pagination(LimitOffsetPagination):
    """limit and offset, 50 by default and 500 at most."""

    default_limit = 50
    max_limit = 500
