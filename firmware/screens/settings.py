"""Settings: language, contrast, sleep, dice style, pace, sound, tips.

Each row cycles through its values with LEFT/RIGHT (A: the next value);
every change is saved at once in the settings file (firmware.session) and
told to the app (`App.settings_changed`), so the device loop applies
contrast, sleep and sound (firmware.device.Device.apply_settings) and the
screens' kept texts are made again (the language). The dice style takes
effect in firmware.ui at once; the pace is read by the play screen (the computer's
steps and the roll animation). The sound row shows only where the board
has a buzzer (`app.has_sound`), contrast and sleep only where the host
drives a panel (`app.has_panel`; the browser page has none). "tips": whether people start a new game
with tips on (the new-game form reads it; off by default). "ask": whether
rolling on and banking ask first (the play screen; on by default).
"""

from firmware.files import CONTRAST
from firmware.screen import Menu

CONTRASTS = (0x10, 0x40, 0x80, CONTRAST, 0xFF)
SLEEPS = (30, 60, 120, 300, 600, 0)  # seconds; 0 never
DICE = ("dice_pips", "dice_round", "dice_digits")
SPEEDS = ("speed_slow", "speed_normal", "speed_fast")


def _index(options, value, default):
    """The position of `value` in `options`, else that of the nearest one,
    `default` on a tie (the settings file may hold a valid number outside
    the options: firmware.session keeps it)."""
    if value in options:
        return options.index(value)
    best = default
    for i in range(len(options)):
        if options[i] and abs(options[i] - value) < abs(options[best] - value):
            best = i
    return best


class Settings(Menu):
    """The settings form (see the module docstring)."""

    name = "settings"

    def _rows(self, app):
        rows = ["lang", "contrast", "sleep", "dice", "speed"] if app.has_panel else [
            "lang", "dice", "speed"]  # (a browser has no panel to dim or put to sleep)
        if app.has_sound:
            rows.append("sound")
        rows.append("tips")
        rows.append("ask")
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
                i = _index(CONTRASTS, s["contrast"], 3)
                out.append(app.t("set_contrast") % (i + 1, len(CONTRASTS)))
            elif row == "sleep":
                secs = SLEEPS[_index(SLEEPS, s["sleep"], 2)]
                if not secs:
                    value = app.t("sleep_never")
                elif secs < 60:
                    value = app.t("sleep_s") % secs
                else:
                    value = app.t("sleep_min") % (secs // 60)
                out.append(app.t("set_sleep") % value)
            elif row == "dice":
                out.append(app.t("set_dice") % app.t(DICE[s["dice"]]))
            elif row == "speed":
                out.append(app.t("set_speed") % app.t(SPEEDS[s["speed"]]))
            else:
                out.append(app.t("set_" + row) % app.t("set_on" if s[row] else "set_off"))
        return out

    def change(self, app, index, step):
        """Cycle the row's value, save, tell the device."""
        s = app.session.settings
        row = self._rows(app)[index]
        if row == "lang":
            s["lang"] = "en" if s["lang"] == "de" else "de"
        elif row == "contrast":
            i = _index(CONTRASTS, s["contrast"], 3)
            s["contrast"] = CONTRASTS[(i + step) % len(CONTRASTS)]
        elif row == "sleep":
            i = _index(SLEEPS, s["sleep"], 2)
            s["sleep"] = SLEEPS[(i + step) % len(SLEEPS)]
        elif row == "dice":
            s["dice"] = (s["dice"] + step) % len(DICE)
        elif row == "speed":
            s["speed"] = (s["speed"] + step) % len(SPEEDS)
        else:
            s[row] = not s[row]
        # (first: the frame below shows the new language; the texts are
        # made again only when it changed)
        app.settings_changed(row == "lang")
        app.flush()  # the new value shows before the save (about 50 ms of flash on the chip)
        app.session.save_settings()
        return True

    def choose(self, app, index):
        """A: the next value."""
        self.change(app, index, 1)

    def hint(self, app):
        """How to change a value: LEFT/RIGHT, or A for the next one."""
        return app.t("settings_hint" if app.big else "settings_hint_small")

    def draw(self, app, canvas):
        """The form; on the dice row a die in the chosen style."""
        Menu.draw(self, app, canvas)
        if self._rows(app)[self.index] != "dice":
            return
        ui = app.ui
        y0, _, first = ui.scroll(self.index)
        y = y0 + (self.index - first) * ui.line - 1
        size = ui.mini
        ui.draw_die(canvas, ui.w - size - 8, y + (ui.line - size) // 2, size, 5)

    def state(self):
        """The highlighted row."""
        return {"index": self.index}
