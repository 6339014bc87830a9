"""spielleiter-host: the laptop tool that talks to the device over the serial link."""
