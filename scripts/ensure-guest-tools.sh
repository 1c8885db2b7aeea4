#!/usr/bin/env bash
# What running the lab inside a QEMU guest (KERNEL=6.1|6.12|...) needs on the host: QEMU,
# busybox and cpio for the initramfs, depmod for its modules, debootstrap for the guest's root, an ssh client.
set -euo pipefail
need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
command -v qemu-img >/dev/null || need+=(qemu-utils)
[ -x /bin/busybox ] || need+=(busybox-static)
command -v cpio >/dev/null || need+=(cpio)
command -v debootstrap >/dev/null || need+=(debootstrap)
command -v ssh >/dev/null || need+=(openssh-client)
command -v mkfs.ext4 >/dev/null || need+=(e2fsprogs)
command -v depmod >/dev/null || need+=(kmod)
[ ${#need[@]} -eq 0 ] && exit 0
if [ -r /etc/debian_version ] && [ "$(id -u)" = 0 ]; then
  echo "guest: installing ${need[*]} (to run the lab inside a VM with another kernel)"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "error: KERNEL=... runs the lab in a QEMU guest and needs: ${need[*]} (Debian packages; run as root" \
       "or install them yourself)" >&2
  exit 1
fi
