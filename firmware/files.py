"""File facts, written once: the names and codec kinds of the saves in
/data, the store's suffixes, the names of the table files, and the
panel's normal brightness (the settings file's default contrast, also set
by the boot before any file is read).

Constants only, so any module may import it at no cost (firmware.store,
firmware.session, the screens, tools/pull_stats.py). The codec kinds are
the one-letter tags engine.codec checks when it unpacks a file; engine/
cannot import firmware/, so engine.codec.KIND_GAME repeats its own
(tests/both/test_files.py checks that they agree).
"""

# firmware.store: a save being written, the save before the current one
NEW = ".new"
BAK = ".bak"

# saves (firmware.store: checksummed, with .new and .bak siblings)
GAME = "game"  # the running game (firmware.session)
KIND_GAME = 0x47  # "G"
NAMES = "names"  # recent names (firmware.session)
KIND_NAMES = 0x4E  # "N"
SETTINGS = "settings"  # firmware.session.DEFAULT_SETTINGS
CONTRAST = 0xCF  # the panel's normal brightness: the "contrast" setting's default
KIND_SETTINGS = 0x53  # "S"
RULESETS = "rulesets"  # custom rule sets of the rules editor (firmware.session)
KIND_RULESETS = 0x52  # "R"
PAD = "pad"  # the score pad (firmware.session)
KIND_PAD = 0x50  # "P"
STATS = "stats"  # statistics (firmware.stats; tools/pull_stats.py reads it)
KIND_STATS = 0x54  # "T"
TIPS = "tips"  # tips per seat (firmware.tips_store)
KIND_TIPS = 0x4C  # "L" (learn)
TABLE = "table"  # the last table of the new-game form (firmware.session)
KIND_TABLE = 0x4B  # "K"
PICKS = "picks"  # the dice picked on the table and the cursor (firmware.screens.play)
KIND_PICKS = 0x4D  # "M" (marks)
# (a plan cached on the device is engine.turnplan's own kind "X")

# tables: in /tables (shipped) or /data (a plan solved on the device)
PLAN = "plan-%s.bin"  # % Rules.plan_rules().fingerprint(): the Expert's plan
MASTER = "master-%s.bin"  # % Rules.fingerprint(): the Master's table (engine.master.table_name)
