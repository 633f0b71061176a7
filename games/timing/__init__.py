"""Time: deadlines and auto-passes, vacations, and claim windows."""
