"""What the REST API's resources share: the problem details of its errors (``errors.py``), the
schema's hooks and the docs' pages, authentication by token, the permissions and throttles, the
parsers, pagination and the sync filters, spreadsheet safety, CORS for the public reads, and the
routes of every app's viewsets (``urls.py``).

The apps' API modules import it; it imports no app but ``players`` (tokens), except where it names
the apps' parts: ``errors.py`` (their errors) and ``urls.py`` (their viewsets)."""
