#!/usr/bin/env bash
# Install the dice scorer on Raspberry Pi OS Bookworm (Pi 4 or Pi 5).
#
#   systemd/install.sh              as the desktop user (it uses sudo where it must)
#   DRY_RUN=1 systemd/install.sh    print what it would do, change nothing
#   KIOSK=0 systemd/install.sh      no kiosk browser (phones only)
#   VENV=/path systemd/install.sh   where the virtualenv goes (/opt/dice-scorer/venv)
#
# ONE numpy: picamera2 (apt) is built against Debian's numpy 1.x, and pip's
# opencv-python needs numpy 2, which breaks picamera2 ("numpy.dtype size
# changed"). So numpy, OpenCV, picamera2 and lgpio come from apt; the venv
# sees them (--system-site-packages); the project is pip-installed with
# --no-deps, plus its pure-Python dependencies read from pyproject.toml.
set -euo pipefail

APP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=${VENV:-/opt/dice-scorer/venv}
RUN_USER=${RUN_USER:-${SUDO_USER:-$(id -un)}}
USER_HOME=$(getent passwd "$RUN_USER" | cut -d: -f6)
USER_HOME=${USER_HOME:-$HOME}
KIOSK=${KIOSK:-1}
UNIT=/etc/systemd/system/dice-scorer.service
APT_PACKAGES=(python3-picamera2 python3-lgpio python3-opencv python3-numpy python3-venv
              python3-pip curl)
# pyproject dependencies that apt provides instead of pip (see above).
FROM_APT="numpy opencv-python opencv-python-headless opencv-contrib-python"

say() { printf '\n== %s\n' "$*"; }
run() { if [[ -n ${DRY_RUN:-} ]]; then printf '+'; printf ' %q' "$@"; echo; else "$@"; fi; }
as_root() { if [[ $(id -u) == 0 ]]; then run "$@"; else run sudo "$@"; fi; }
as_user() { if [[ $(id -un) == "$RUN_USER" ]]; then run "$@"; else run sudo -u "$RUN_USER" "$@"; fi; }

pip_requirements() {
  # pyproject's run-time dependencies, less those apt provides.
  python3 - "$APP_DIR/pyproject.toml" "$FROM_APT" <<'PY'
import re, sys, tomllib
with open(sys.argv[1], "rb") as f:
    deps = tomllib.load(f)["project"]["dependencies"]
from_apt = set(sys.argv[2].split())
for dep in deps:
    name = re.match(r"[A-Za-z0-9._-]+", dep).group(0).lower().replace("_", "-")
    if name not in from_apt:
        print(dep)
PY
}

render_unit() {
  sed -e "s|@USER@|$RUN_USER|g" -e "s|@VENV@|$VENV|g" "$APP_DIR/systemd/dice-scorer.service"
}

if [[ -z ${DRY_RUN:-} && ! -e /etc/rpi-issue ]]; then
  echo "warning: this does not look like Raspberry Pi OS; going on anyway" >&2
fi

say "apt packages: ${APT_PACKAGES[*]} chromium"
as_root apt-get update
as_root apt-get install -y "${APT_PACKAGES[@]}"
if [[ $KIOSK == 1 ]]; then
  as_root apt-get install -y chromium || as_root apt-get install -y chromium-browser
fi

say "virtualenv $VENV (sees apt's numpy, OpenCV, picamera2, lgpio)"
as_root install -d -o "$RUN_USER" -g "$RUN_USER" "$(dirname "$VENV")"
as_user python3 -m venv --system-site-packages "$VENV"
mapfile -t REQUIREMENTS < <(pip_requirements)
as_user "$VENV/bin/pip" install --no-deps "$APP_DIR"
as_user "$VENV/bin/pip" install "${REQUIREMENTS[@]}"
# optional: the reader runs about twice as fast a photo on onnxruntime (`scorer serve
# --backend auto`); numpy pinned to apt's so that pip adds no second one
APT_NUMPY=$(python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || echo 1.26.4)
as_user "$VENV/bin/pip" install "onnxruntime>=1.17" "numpy==$APT_NUMPY" \
  || echo "onnxruntime not installed: the reader runs on OpenCV's dnn" >&2
as_user "$VENV/bin/python" -c '
import cv2, gpiozero, numpy, picamera2
assert numpy.__file__.startswith("/usr/lib/python3/dist-packages"), (
    "a second numpy got into the venv: " + numpy.__file__)
print("one numpy:", numpy.__version__, "(apt); OpenCV", cv2.__version__)'

say "camera and GPIO access for $RUN_USER"
as_root usermod -aG video,gpio "$RUN_USER"

say "service $UNIT"
if [[ -n ${DRY_RUN:-} ]]; then
  render_unit
else
  render_unit | as_root tee "$UNIT" >/dev/null
fi
as_root systemctl daemon-reload
as_root systemctl enable --now dice-scorer.service

if [[ $KIOSK == 1 ]]; then
  say "kiosk: $USER_HOME/.config/labwc/autostart"
  autostart="$USER_HOME/.config/labwc/autostart"
  if [[ -e $autostart ]] && ! cmp -s "$autostart" "$APP_DIR/systemd/labwc-autostart"; then
    as_user cp "$autostart" "$autostart.before-dice-scorer"
  fi
  as_user install -D -m 644 "$APP_DIR/systemd/labwc-autostart" "$autostart"
  if command -v raspi-config >/dev/null; then
    as_root raspi-config nonint do_blanking 1  # 1 = screen blanking off
  fi
fi

say "done: the page is http://$(hostname).local:8000/ ; reboot to start the kiosk"
echo "logs: journalctl -u dice-scorer -f"
