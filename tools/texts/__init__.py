"""The device's texts, one file per language, and their packer."""
