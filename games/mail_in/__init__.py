"""Email coming in: the inbound webhook, its limits, reading a reply past its
quoted history, and acting on it through the one door."""
