"""Make the project importable when pytest runs without pytest-django.

Under plain ``pytest`` the django plugin puts the directory of ``manage.py`` on
``sys.path``; with ``-p no:django`` (the engine needs no Django) nothing does,
so this file does it. The engine tests use no fixture from here.
"""

import sys
from pathlib import Path

PROJECT_ROOT = str(Path(__file__).resolve().parents[2])
if PROJECT_ROOT not in sys.path:
    sys.path.insert(0, PROJECT_ROOT)
