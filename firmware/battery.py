"""The battery gauge: VSYS through the ADC, as a percentage.

Loaded only when something asks for the charge (firmware.device.Device
makes its `battery` on first use), so boards and boots that never show it
do not carry its code.
"""

# VSYS in mV -> percent for one Li-ion/LiPo cell on VSYS, at the light load
# of this device; straight lines between the points. 3.30 V and below is
# empty (the Pico's regulator drops out soon after), 4.20 V full.
CURVE = ((3300, 0), (3500, 5), (3600, 10), (3700, 25), (3750, 35), (3800, 45),
         (3850, 55), (3900, 65), (3950, 72), (4000, 80), (4100, 90), (4200, 100))


def vsys_mv(raw):
    """VSYS in mV from a raw 16-bit reading of the VSYS/3 divider at 3.3 V
    reference: raw * 3.3 * 3 / 65535 volts."""
    return raw * 9900 // 65535


def percent(mv):
    """The charge estimate (0..100) for a cell at `mv` along CURVE."""
    last_mv, last_pc = CURVE[0]
    if mv <= last_mv:
        return 0
    for point_mv, point_pc in CURVE:
        if mv <= point_mv:
            return last_pc + (mv - last_mv) * (point_pc - last_pc) // (point_mv - last_mv)
        last_mv, last_pc = point_mv, point_pc
    return 100


class Battery:
    """The battery gauge on a board with `VSYS_ADC` (the Pico's GP29)."""

    def __init__(self, machine, pin):
        self.adc = machine.ADC(machine.Pin(pin))

    def millivolts(self):
        """VSYS in mV."""
        return vsys_mv(self.adc.read_u16())

    def percent(self):
        """The charge estimate, 0..100 (see CURVE)."""
        return percent(self.millivolts())
