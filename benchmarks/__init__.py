"""Speed and load measurements; `./run bench` runs them and prints the figures."""
