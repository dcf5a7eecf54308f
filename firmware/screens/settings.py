"""Settings: language, contrast, sleep, dice style, pace, sound, tips.

Each row cycles through its values with LEFT/RIGHT (A: the next value);
every change is saved at once in the settings file (firmware.session) and
`app.prefs` is bumped, so the device loop applies contrast, sleep and sound
(firmware.device.Device.apply_settings). The dice style takes effect in
firmware.ui at once; the pace is read by the play screen (the computer's
steps and the roll animation). The sound row shows only where the board
has a buzzer (`app.has_sound`), contrast and sleep only where the host
drives a panel (`app.has_panel`; the browser page has none). "tips": whether people start a new game
with tips on (the new-game form reads it; off by default).
"""

from firmware.screen import Menu

CONTRASTS = (0x10, 0x40, 0x80, 0xCF, 0xFF)
SLEEPS = (30, 60, 120, 300, 600, 0)  # seconds; 0 never
DICE = ("dice_pips", "dice_round", "dice_digits")
SPEEDS = ("speed_slow", "speed_normal", "speed_fast")


def _index(options, value, default):
    """The position of `value` in `options` (the nearest one for a number
    that is not there), else `default`."""
    if value in options:
        return options.index(value)
    if type(value) is int and value > 0:
        best = default
        for i in range(len(options)):
            if options[i] and abs(options[i] - value) < abs(options[best] - value):
                best = i
        return best
    return default


class Settings(Menu):
    """The settings form (see the module docstring)."""

    name = "settings"

    def _rows(self, app):
        rows = ["lang", "contrast", "sleep", "dice", "speed"] if app.has_panel else [
            "lang", "dice", "speed"]  # (a browser has no panel to dim or put to sleep)
        if app.has_sound:
            rows.append("sound")
        rows.append("tips")
        return rows

    def title(self, app):
        """The screen title."""
        return app.t("settings_title")

    def labels(self, app):
        """'Kontrast: 4/5' and so on."""
        s = app.session.settings
        out = []
        for row in self._rows(app):
            if row == "lang":
                out.append(app.t("language"))
            elif row == "contrast":
                i = _index(CONTRASTS, s.get("contrast"), 3)
                out.append(app.t("set_contrast") % (i + 1, len(CONTRASTS)))
            elif row == "sleep":
                secs = SLEEPS[_index(SLEEPS, s.get("sleep"), 2)]
                if not secs:
                    value = app.t("sleep_never")
                elif secs < 60:
                    value = app.t("sleep_s") % secs
                else:
                    value = app.t("sleep_min") % (secs // 60)
                out.append(app.t("set_sleep") % value)
            elif row == "dice":
                out.append(app.t("set_dice") % app.t(DICE[app.ui.dice_style]))
            elif row == "speed":
                out.append(app.t("set_speed") % app.t(SPEEDS[_speed(s)]))
            else:
                out.append(app.t("set_" + row) % app.t("set_on" if s.get(row) else "set_off"))
        return out

    def change(self, app, index, step):
        """Cycle the row's value, save, tell the device."""
        s = app.session.settings
        row = self._rows(app)[index]
        if row == "lang":
            app.lang = "en" if app.lang == "de" else "de"
            s["lang"] = app.lang
        elif row == "contrast":
            i = _index(CONTRASTS, s.get("contrast"), 3)
            s["contrast"] = CONTRASTS[(i + step) % len(CONTRASTS)]
        elif row == "sleep":
            i = _index(SLEEPS, s.get("sleep"), 2)
            s["sleep"] = SLEEPS[(i + step) % len(SLEEPS)]
        elif row == "dice":
            app.ui.dice_style = (app.ui.dice_style + step) % len(DICE)
            s["dice"] = app.ui.dice_style
        elif row == "speed":
            s["speed"] = (_speed(s) + step) % len(SPEEDS)
        else:
            s[row] = not s.get(row)
        app.flush()  # the new value shows before the save (about 50 ms of flash on the chip)
        app.session.save_settings()
        app.prefs += 1
        return True

    def choose(self, app, index):
        """A: the next value."""
        self.change(app, index, 1)

    def hint(self, app):
        """How to change a value."""
        return app.t("settings_hint")

    def draw(self, app, canvas):
        """The form; on the dice row a die in the chosen style."""
        Menu.draw(self, app, canvas)
        if self._rows(app)[self.index] != "dice":
            return
        ui = app.ui
        y0 = ui.line + 2
        rows = max(1, (ui.h - y0 - ui.line) // ui.line)
        first = self.index - rows + 1 if self.index >= rows else 0
        y = y0 + (self.index - first) * ui.line - 1
        size = ui.mini
        ui.draw_die(canvas, ui.w - size - 8, y + (ui.line - size) // 2, size, 5)

    def state(self):
        """The highlighted row."""
        return {"index": self.index}


def _speed(settings):
    v = settings.get("speed", 1)
    return v % len(SPEEDS) if type(v) is int else 1
