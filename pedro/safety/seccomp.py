"""A seccomp filter that leaves a child only Unix sockets: the Landlock fallback's "no network of any kind"."""

from __future__ import annotations

import ctypes
import errno
import platform
import socket
import struct

# Landlock (ABI 4) governs TCP bind and connect only; UDP, raw sockets and io_uring's own socket calls pass it.
# So the fallback refuses to create any socket but an AF_UNIX one, the way bubblewrap's empty network namespace
# leaves nothing to reach.

_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2
_RET_ALLOW = 0x7FFF0000
_RET_ERRNO = 0x00050000

_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

# offsets in struct seccomp_data: int nr; u32 arch; u64 ip; u64 args[6] (little-endian: low half first)
_NR, _ARCH, _ARG0 = 0, 4, 16

# (AUDIT_ARCH_*, __NR_socket); io_uring_setup is 425 on both.
_ARCHES = {"x86_64": (0xC000003E, 41), "aarch64": (0xC00000B7, 198), "arm64": (0xC00000B7, 198)}
_NR_IO_URING_SETUP = 425
_X32_SYSCALL_BIT = 0x40000000


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(_SockFilter))]


def supported() -> bool:
    """Whether this machine's architecture has a filter here."""
    return platform.machine() in _ARCHES


def no_network_program() -> bytes:
    """The BPF program, packed as the kernel reads it (8 bytes per instruction)."""
    audit_arch, nr_socket = _ARCHES[platform.machine()]
    program = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ_K, 1, 0, audit_arch),
        (_RET_K, 0, 0, _RET_ERRNO | errno.EPERM),  # another ABI (32-bit calls on x86_64): nothing allowed
        (_LD_W_ABS, 0, 0, _NR),
        (_JGE_K, 0, 1, _X32_SYSCALL_BIT),
        (_RET_K, 0, 0, _RET_ERRNO | errno.EPERM),  # x32 system calls
        (_JEQ_K, 0, 1, _NR_IO_URING_SETUP),
        (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS),  # io_uring opens sockets without socket(2)
        (_JEQ_K, 0, 3, nr_socket),
        (_LD_W_ABS, 0, 0, _ARG0),
        (_JEQ_K, 1, 0, socket.AF_UNIX),
        (_RET_K, 0, 0, _RET_ERRNO | errno.EACCES),
        (_RET_K, 0, 0, _RET_ALLOW),
    ]
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in program)


def install(libc: ctypes.CDLL, packed: bytes) -> None:
    """Load a packed program (no_network_program) into the calling process; no_new_privs must already be set.

    Runs between fork and exec: the program is packed beforehand, so this only builds two ctypes structures.
    """
    count = len(packed) // ctypes.sizeof(_SockFilter)
    filters = (_SockFilter * count).from_buffer_copy(packed)
    prog = _SockFprog(count, ctypes.cast(filters, ctypes.POINTER(_SockFilter)))
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
