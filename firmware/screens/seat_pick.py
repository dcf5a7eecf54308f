"""SeatPick: a list of the seats at a table (a game or the score pad)."""

from firmware.screen import Menu


class SeatPick(Menu):
    """Pick a seat at the table (a game or the score pad: anything with
    `seats`, `current` and `active_seats()`); `done(app, seat)` runs after
    this screen closes."""

    name = "seat_pick"

    def __init__(self, table, title_key, done):
        Menu.__init__(self)
        self.table = table
        self.title_key = title_key
        self.done = done
        seats = table.active_seats()
        self.index = seats.index(table.current) if table.current in seats else 0

    def title(self, app):
        """What the seat is picked for."""
        return app.t(self.title_key)

    def labels(self, app):
        """The seats at the table, in seat order, with their totals."""
        t = self.table
        return ["%s %d" % (t.seats[i].name, t.seats[i].score) for i in t.active_seats()]

    def choose(self, app, index):
        """Close and hand the seat on."""
        seat = self.table.active_seats()[index]
        app.pop()
        self.done(app, seat)
