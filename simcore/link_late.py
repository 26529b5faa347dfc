"""Optimise and emit a game's code once, in the function Python calls, not once per level.

numba compiles every jitted function to machine code the first time it is typed: it links
the LLVM modules of every compiled function it calls, optimises the whole at ``-O3`` and
emits machine code for it. For a function that only other compiled functions call, that
work is thrown away: each caller links the callee's module and optimises and emits it
again with its own code. A game's code nests decision → phase → game → block → chunk, and
the ``prange`` chunk adds three levels of its own (the loop body, its gufunc wrapper and
the parallel wrapper), so the whole game was optimised and emitted seven times, and every
helper once more for itself: that was most of a cold compile (the root README's Performance
table has the figures, before and after).

This module makes such a library *link-only*. When numba finalises a library that defines
no entry point for Python or C (numba's ``cpython.`` and ``cfunc.`` wrappers: the
``simcore.jit.hot*`` helpers are compiled without them, and so is a ``prange`` loop's body
here, which numba would compile with the entry points of the function around it), it
links the modules of the functions it calls and stops there; the entry point that links
it optimises and emits everything once. Whatever asks for a link-only library's machine
code (a pointer to one of its functions) finalises it fully then, exactly as numba would
have: a case this module did not foresee costs compile time, never correctness. In
numba's on-disk cache a link-only library is stored as its LLVM bitcode (kind
``"linkonly"``) and loaded back as one.

The machine code of an entry point is the same optimisation of the same linked functions;
only the order differs (its callees are optimised inside it, after linking, instead of each
on its own first). ``benchmarks/cpu_rate.py`` measures the speed against a tree without
this module (``TALESIM_LINK_LATE=0`` turns it off, for that comparison and for debugging).

numba's ``CPUCodeLibrary`` is an internal class: ``pyproject.toml`` pins numba's minor
version, and ``tests/test_link_late.py`` checks the behaviour this module relies on.
"""

from __future__ import annotations

import os
from typing import Any

import llvmlite.binding as ll
from numba.core import codegen
from numba.parfors import parfor_lowering

_ENTRY_PREFIXES = ("cpython.", "cfunc.")
_Library = codegen.JITCodeLibrary

_finalize = _Library.finalize
_get_pointer = _Library.get_pointer_to_function
_serialize = _Library.serialize_using_object_code
_unserialize = _Library._unserialize.__func__  # type: ignore[attr-defined]
_finalize_final_module = _Library._finalize_final_module
_set_env = codegen.JITCPUCodegen.set_env

#: numba's environment objects of link-only functions (``NumbaEnv.*`` globals), set in each
#: entry point whose module defines a copy of the global, once that module is emitted.
_pending_envs: dict[str, Any] = {}


def _defines_entry(library: Any) -> bool:
    """Does the library define a function Python or C calls (numba's wrappers)?"""
    return any(
        fn.name.startswith(_ENTRY_PREFIXES) and not fn.is_declaration
        for fn in library._final_module.functions
    )


def _finalize_linking_only(self: Any) -> None:
    if _defines_entry(self):
        _finalize(self)
        return
    codegen.require_global_compiler_lock()
    self._raise_if_finalized()
    seen = set()
    for library in self._linking_libraries:
        if library not in seen:
            seen.add(library)
            self._reload_init.update(library._reload_init)
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
    self._linking_libraries = []  # linked: completing the library must not link them again
    self._link_only = True
    self._finalized = True


def _complete(self: Any) -> None:
    """Optimise and emit a link-only library: what numba's ``finalize`` does after linking."""
    self._link_only = False
    self._optimize_final_module()
    self._final_module.verify()
    self._finalize_final_module()


def _get_pointer_to_function(self: Any, name: str) -> int:
    self._ensure_finalized()
    if getattr(self, "_link_only", False):
        try:
            fn = self._final_module.get_function(name)
        except NameError:
            return 0  # numba asks for the Python wrapper, which a callee does not have
        if fn.is_declaration:
            return 0
        _complete(self)
    return _get_pointer(self, name)


def _set_env_or_defer(self: Any, env_name: str, env: Any) -> None:
    if self._engine.get_global_value_address(env_name):
        _set_env(self, env_name, env)
    else:  # a link-only library: its module is not emitted
        _pending_envs[env_name] = env


def _finalize_final_module_and_envs(self: Any) -> None:
    _finalize_final_module(self)
    if _pending_envs:
        for gv in self._final_module.global_variables:
            env = _pending_envs.get(gv.name)
            if env is not None:
                _set_env(self._codegen, gv.name, env)


def _serialize_using_object_code(self: Any) -> tuple:
    self._ensure_finalized()
    if getattr(self, "_link_only", False):
        return (self.name, "linkonly", self._get_module_for_linking().as_bitcode())
    return _serialize(self)


def _unserialize_link_only(cls: Any, codegen_: Any, state: tuple) -> Any:
    name, kind, data = state
    if kind != "linkonly":
        return _unserialize(cls, codegen_, state)
    self = codegen_.create_library(name)
    self._final_module = ll.parse_bitcode(data)
    self._link_only = True
    self._finalized = True
    return self


def _gufunc_without_entry(create: Any) -> Any:
    """numba compiles a ``prange`` loop's body (the gufunc) with the flags of the function
    around it, so with Python and C entry points it never calls: without them it is
    link-only too, and the chunk's loop is optimised once, in the chunk."""

    def create_link_only(lowerer, parfor, typemap, typingctx, targetctx, flags, *args, **kw):
        flags = flags.copy()
        flags.no_cpython_wrapper = True
        flags.no_cfunc_wrapper = True
        return create(lowerer, parfor, typemap, typingctx, targetctx, flags, *args, **kw)

    create_link_only.link_late = True  # type: ignore[attr-defined]
    return create_link_only


def install() -> None:
    """Make libraries without an entry point link-only (idempotent)."""
    if os.environ.get("TALESIM_LINK_LATE", "1") == "0":
        return
    _Library.finalize = _finalize_linking_only  # type: ignore[method-assign]
    _Library.get_pointer_to_function = _get_pointer_to_function  # type: ignore[method-assign]
    _Library.serialize_using_object_code = _serialize_using_object_code  # type: ignore[method-assign]
    _Library._unserialize = classmethod(_unserialize_link_only)  # type: ignore[assignment,method-assign]
    _Library._finalize_final_module = _finalize_final_module_and_envs  # type: ignore[method-assign]
    codegen.JITCPUCodegen.set_env = _set_env_or_defer  # type: ignore[method-assign]
    create = parfor_lowering._create_gufunc_for_parfor_body
    if not getattr(create, "link_late", False):
        parfor_lowering._create_gufunc_for_parfor_body = _gufunc_without_entry(create)
